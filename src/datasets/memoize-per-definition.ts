/**
 * Caches a value computed from a definition object (an entity, a storage) for as long as the
 * definition lives: definitions are immutable, and the front end asks the same questions of them
 * on every query.
 */
export function memoizePerDefinition<K extends object, V>(compute: (definition: K) => V): (definition: K) => V {
  const cache = new WeakMap<K, V>();
  return (definition) => {
    let value = cache.get(definition);
    if (value === undefined) {
      value = compute(definition);
      cache.set(definition, value);
    }
    return value;
  };
}
