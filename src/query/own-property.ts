/**
 * A record lookup that sees only the record's own keys. Names in a query are user text: a plain
 * `record[name]` would answer `tags.toString` or `constructor[x]` with Object.prototype members.
 */
export function ownProperty<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
