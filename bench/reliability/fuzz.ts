/** Sends `inputs` fuzz inputs (fuzz-inputs.ts, one seeded PRNG) over `concurrency` connections. */
import { nextInput } from "./fuzz-inputs.js";
import { Outcomes } from "./outcomes.js";
import { Prng } from "./prng.js";
import { send } from "./send.js";

export interface FuzzOptions {
  readonly inputs: number;
  readonly seed: number;
  readonly concurrency: number;
  readonly progress?: (sent: number) => void;
}

export async function fuzz(baseUrl: string, options: FuzzOptions): Promise<{ outcomes: Outcomes; seconds: number }> {
  const prng = new Prng(options.seed);
  const outcomes = new Outcomes();
  const now = Date.now();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.inputs) {
      const index = next++;
      const input = nextInput(prng, now);
      const answer = await send(baseUrl, input);
      outcomes.record(input.kind, `#${index} ${input.method} ${input.path} ${input.contentType ?? ""} ${input.body ?? ""}`, answer);
      if (index % 10_000 === 0) options.progress?.(index);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}
