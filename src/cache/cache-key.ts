/**
 * The cache key: the final SQL plus the ClickHouse settings that can change the answer. Thread
 * counts and replica routing (`max_threads`, `load_balancing`) only change how fast it comes, so
 * they stay out: a throttled query may still hit an entry an unthrottled one stored. The key is
 * the text itself, not a digest: a Map hashes a string faster than any cryptographic hash.
 */
const SPEED_ONLY_SETTINGS = new Set(["max_threads", "load_balancing"]);

export function cacheKey(sql: string, settings: Readonly<Record<string, string | number>>): string {
  let key = sql;
  for (const name of Object.keys(settings).sort()) {
    if (!SPEED_ONLY_SETTINGS.has(name)) key += `\u0000${name}=${String(settings[name])}`;
  }
  return key;
}
