/** At most `limit` tasks at once; the rest wait in arrival order. */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a concurrency limit must be a positive integer, got ${limit}`);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays at the limit.
      if (next) next();
      else this.running -= 1;
    }
  }
}
