/**
 * Topic names. Quarry uses Snuba's (`events`, `snuba-commit-log`, ...), so that Sentry's producers
 * and Snuba's readers find them; a deployment whose topics are called otherwise maps Snuba's
 * name to its own with QUARRY_KAFKA_TOPICS, as KAFKA_TOPIC_MAP does for Snuba.
 */

/** The topic to use for Snuba's topic `name`. */
export function physicalTopic(name: string, overrides: Readonly<Record<string, string>>): string {
  return Object.hasOwn(overrides, name) ? overrides[name]! : name;
}
