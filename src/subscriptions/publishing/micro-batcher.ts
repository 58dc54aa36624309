/**
 * Batches writes with at most one in flight: an item added while the writer is idle goes out on
 * the next turn of the event loop; items added while a write is in flight wait for it and go out
 * together in the next one (up to `maxBatch`). Each `add` settles with the outcome of the write
 * that carried it. Publishers use it so that many results cost few inserts or produce requests,
 * without holding any result back for a timer.
 */
interface Entry<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
}

export class MicroBatcher<T> {
  private entries: Entry<T>[] = [];
  private scheduled = false;
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.entries.push({ item, resolve, reject });
      if (!this.writing && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.writing || this.entries.length === 0) return;
    const batch = this.entries.splice(0, this.maxBatch);
    this.writing = true;
    this.write(batch.map((entry) => entry.item))
      .then(
        () => batch.forEach((entry) => entry.resolve()),
        (reason: unknown) => batch.forEach((entry) => entry.reject(reason)),
      )
      .finally(() => {
        this.writing = false;
        this.flush();
      });
  }
}
