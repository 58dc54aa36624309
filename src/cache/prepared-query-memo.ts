/**
 * A bounded memo of a language front end: (language, dataset, query text, flags) -> the
 * PreparedQuery it produced. Parsing, validating and translating are pure functions of the text
 * and the definitions, and they cost more than answering a cache hit, so a repeated query skips
 * them. Failures are not memoised (they are cheap to reproduce and carry positions). The memo is
 * bounded in entries and in characters (texts and SQL): a burst of distinct, long queries — a
 * fuzzer, a caller that inlines ids — fills it to its budget and no further. The least recently
 * used goes first.
 */
import type { PreparedQuery } from "../query/prepared-query.js";
import type { StageTimer } from "../query/stage-timer.js";

/** Longer texts are rare and would make the memo's memory unpredictable. */
const MAX_MEMO_TEXT = 16 * 1024;
/** Characters of keys and SQL held at most (a few MB: real callers repeat short texts). */
const DEFAULT_MAX_CHARS = 4 * 1024 * 1024;

export class PreparedQueryMemo {
  private readonly entries = new Map<string, PreparedQuery>();
  private chars = 0;

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  /** Characters of keys and SQL held now. */
  get heldChars(): number {
    return this.chars;
  }

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
    const size = entryChars(key, prepared);
    if (key.length <= MAX_MEMO_TEXT && size <= this.maxChars) {
      while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.chars + size > this.maxChars)) {
        const [oldest, value] = this.entries.entries().next().value!;
        this.entries.delete(oldest);
        this.chars -= entryChars(oldest, value);
      }
      this.entries.set(key, prepared);
      this.chars += size;
    }
    return prepared;
  }
}

function entryChars(key: string, prepared: PreparedQuery): number {
  return key.length + prepared.sql.length;
}

/** The memo key: every input the front end reads besides the definitions. */
export function frontEndKey(language: string, dataset: string, text: string, flags: readonly boolean[]): string {
  return `${language}\u0000${dataset}\u0000${flags.map((flag) => (flag ? "1" : "0")).join("")}\u0000${text}`;
}
