/** One line of the BENCHMARKS.md table, and the shape every bench section exports. */
export interface BenchRow {
  readonly bench: string;
  readonly figure: string;
  readonly target: string;
}

export interface BenchOptions {
  /** A brief smoke run (CI): fewer iterations, BENCHMARKS.md left alone. */
  readonly quick: boolean;
}

export type BenchSection = (options: BenchOptions) => Promise<BenchRow[]>;
