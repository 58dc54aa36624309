/**
 * A bounded memo of a language front end: (language, dataset, query text, flags) -> the
 * PreparedQuery it produced. Parsing, validating and translating are pure functions of the text
 * and the definitions, and they cost more than answering a cache hit, so a repeated query skips
 * them. Failures are not memoised (they are cheap to reproduce and carry positions). Entries are
 * few and small; the least recently used goes first.
 */
import type { PreparedQuery } from "../pipeline/prepared-query.js";
import type { StageTimer } from "../pipeline/stage-timer.js";

/** Longer texts are rare and would make the memo's memory unpredictable. */
const MAX_MEMO_TEXT = 16 * 1024;

export class PreparedQueryMemo {
  private readonly entries = new Map<string, PreparedQuery>();

  constructor(private readonly maxEntries = 2000) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The memoised PreparedQuery for `key`, else `prepare()`'s. On a hit the front-end stages are
   * still marked (as ~0 ms), so every response shows every stage.
   */
  prepare(key: string, timer: StageTimer, stages: readonly string[], prepare: () => PreparedQuery): PreparedQuery {
    const known = this.entries.get(key);
    if (known) {
      this.entries.delete(key);
      this.entries.set(key, known);
      for (const stage of stages) timer.mark(stage);
      return known;
    }
    const prepared = prepare();
    if (key.length <= MAX_MEMO_TEXT) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, prepared);
    }
    return prepared;
  }
}

/** The memo key: every input the front end reads besides the definitions. */
export function frontEndKey(language: string, dataset: string, text: string, flags: readonly boolean[]): string {
  return `${language}\u0000${dataset}\u0000${flags.map((flag) => (flag ? "1" : "0")).join("")}\u0000${text}`;
}
