/**
 * Times the pipeline stages into `timing.marks_ms`: each mark is the milliseconds since the
 * previous mark (summed when a stage repeats), `duration_ms` runs from the request start to
 * the last mark, as in Snuba.
 */
export class StageTimer {
  private readonly startedAt = performance.now();
  private last = this.startedAt;
  private readonly marks: Record<string, number> = {};
  readonly timestamp = Math.floor(Date.now() / 1000);

  mark(stage: string): void {
    const now = performance.now();
    this.marks[stage] = (this.marks[stage] ?? 0) + (now - this.last);
    this.last = now;
  }

  hasMark(stage: string): boolean {
    return stage in this.marks;
  }

  toTiming(tags: Record<string, string> = {}): Timing {
    const marks_ms: Record<string, number> = {};
    for (const key of Object.keys(this.marks).sort()) marks_ms[key] = Math.round(this.marks[key]!);
    return { timestamp: this.timestamp, duration_ms: Math.round(this.last - this.startedAt), marks_ms, tags };
  }
}

export interface Timing {
  timestamp: number;
  duration_ms: number;
  marks_ms: Record<string, number>;
  tags: Record<string, string>;
}
