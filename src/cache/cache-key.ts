/**
 * The cache key: the final SQL plus the ClickHouse settings that can change the answer. Thread
 * counts and replica routing (`max_threads`, `load_balancing`) only change how fast it comes, so
 * they stay out: a throttled query may still hit an entry an unthrottled one stored.
 */
import { createHash } from "node:crypto";

const SPEED_ONLY_SETTINGS = new Set(["max_threads", "load_balancing"]);

export function cacheKey(sql: string, settings: Readonly<Record<string, string | number>>): string {
  const hash = createHash("md5").update(sql);
  for (const name of Object.keys(settings).sort()) {
    if (!SPEED_ONLY_SETTINGS.has(name)) hash.update(`\u0000${name}=${String(settings[name])}`);
  }
  return hash.digest("hex");
}
