/**
 * Topic and consumer group names. Quarry uses Snuba's (`events`, `snuba-commit-log`, ...), so that Sentry's producers
 * and Snuba's readers find them; a deployment whose topics are called otherwise maps Snuba's
 * name to its own with QUARRY_KAFKA_TOPICS, as KAFKA_TOPIC_MAP does for Snuba.
 */

/** The topic to use for Snuba's topic `name`. */
export function physicalTopic(name: string, overrides: Readonly<Record<string, string>>): string {
  return Object.hasOwn(overrides, name) ? overrides[name]! : name;
}

/**
 * The consumer group to join for Snuba's group `name` (QUARRY_CONSUMER_GROUPS): two deployments
 * on one broker keep their offsets apart, and the commit log keys each commit with the group
 * that wrote it, so a scheduler follows the physical name too.
 */
export function physicalGroup(name: string, overrides: Readonly<Record<string, string>>): string {
  return Object.hasOwn(overrides, name) ? overrides[name]! : name;
}
