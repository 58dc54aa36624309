/** A single-line progress bar redrawn in place: `\r[#####     ] 42% events 420000/1000000`. */

export interface ProgressOutput {
  write(text: string): unknown;
}

/** The bar text for `done` of `total` units (without the leading carriage return). */
export function renderProgressBar(done: number, total: number, label: string, width = 30): string {
  const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(fraction * width);
  const percent = Math.floor(fraction * 100);
  return `[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${percent}% ${label} ${done}/${total}`;
}

export class ProgressBar {
  private lastLength = 0;
  private finished = false;

  constructor(
    private readonly total: number,
    private readonly output: ProgressOutput = process.stderr,
    private readonly width = 30,
  ) {}

  /** Redraws the bar; the previous line is fully overwritten even when it was longer. */
  update(done: number, label: string): void {
    if (this.finished) return;
    const text = renderProgressBar(done, this.total, label, this.width);
    const padding = " ".repeat(Math.max(0, this.lastLength - text.length));
    this.output.write(`\r${text}${padding}`);
    this.lastLength = text.length;
  }

  /** Ends the line, so later output starts on a fresh one. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.output.write("\n");
  }
}
