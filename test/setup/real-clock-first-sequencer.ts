/**
 * The order in which vitest hands test files to its workers: the real-clock files first. They
 * sleep for minutes waiting on windows, so in the first group they must hold their workers from
 * the start, and the engine-only files fill the workers they leave; started last, they would
 * make the group as long as the engine-only files plus the longest of them. Within each part,
 * vitest's own order (failed first, then the longest by the last run, else the largest file).
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const REAL_CLOCK_PROJECT = "real-clock-faults";

export class RealClockFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => (spec.project.name === REAL_CLOCK_PROJECT ? 0 : 1);
    // Array.prototype.sort is stable: each part keeps vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
