/**
 * Gathers items added within one turn of the event loop (or up to `maxBatch`) into one write, and
 * settles each `add` with the outcome of the write that carried it. Publishers use it so that a
 * minute's hundreds of results cost a few inserts or produce requests, not hundreds.
 */
interface Entry<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
}

export class MicroBatcher<T> {
  private entries: Entry<T>[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.entries.push({ item, resolve, reject });
      if (this.entries.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    if (this.entries.length === 0) return;
    const batch = this.entries;
    this.entries = [];
    this.write(batch.map((entry) => entry.item)).then(
      () => batch.forEach((entry) => entry.resolve()),
      (reason: unknown) => batch.forEach((entry) => entry.reject(reason)),
    );
  }
}
