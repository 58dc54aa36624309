/**
 * Sends inputs 0..n-1 of a seeded run (fuzz-inputs.ts) over `concurrency` keep-alive connections
 * and classifies every answer. Each input is a pure function of (seed, index, now), so the order
 * answers come back in does not matter for a replay.
 */
import { describeRequest, fuzzInput } from "./fuzz-inputs.js";
import { Outcomes } from "./outcomes.js";
import { send } from "./send.js";

export interface FuzzOptions {
  readonly inputs: number;
  readonly seed: number;
  readonly concurrency: number;
  /** The clock the inputs' time ranges are relative to (replays pass the run's). */
  readonly now: number;
  readonly progress?: (sent: number, outcomes: Outcomes) => void;
  readonly progressEvery?: number;
}

export async function fuzz(baseUrl: string, options: FuzzOptions): Promise<{ outcomes: Outcomes; seconds: number }> {
  const outcomes = new Outcomes();
  let next = 0;
  const every = options.progressEvery ?? 10_000;
  const started = performance.now();
  const worker = async () => {
    while (next < options.inputs) {
      const index = next++;
      const input = fuzzInput(options.seed, index, options.now);
      const answer = await send(baseUrl, input);
      outcomes.record(input, answer, `${options.seed}:${index} --now ${options.now}`, (request) => describeRequest(request, 1500));
      if (index > 0 && index % every === 0) options.progress?.(index, outcomes);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}
