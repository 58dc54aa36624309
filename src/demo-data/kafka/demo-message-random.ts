/**
 * The random choices of the Kafka demo messages: a small seeded generator (mulberry32) per
 * message, seeded from the topic and the message's index, so a message is a pure function of
 * (topic, index, count, window end) and any one of them can be rebuilt alone.
 */

/** Fixed seed of the Kafka demo messages (the table generator's DEMO_SEED plays this role in SQL). */
const DEMO_KAFKA_SEED = 20_240_501;

/** A 32-bit mix of integers (murmur3's finalizer over each in turn). */
function mix(values: readonly number[]): number {
  let h = DEMO_KAFKA_SEED >>> 0;
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class DemoRandom {
  private state: number;

  constructor(...seed: number[]) {
    this.state = mix(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(values: readonly T[]): T {
    if (values.length === 0) throw new Error("pick from an empty list");
    return values[this.int(values.length)]!;
  }

  /** An index drawn with the given relative weights. */
  weightedIndex(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let u = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      u -= weights[i]!;
      if (u < 0) return i;
    }
    return weights.length - 1;
  }

  weighted<T>(values: readonly T[], weights: readonly number[]): T {
    return values[this.weightedIndex(weights)]!;
  }

  /** A standard normal variate (Box-Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }

  /** A log-normal value around `median`, rounded to 3 decimals. */
  logNormal(median: number, sigma: number): number {
    return Math.round(median * Math.exp(sigma * this.normal()) * 1000) / 1000;
  }

  /** `chars` lowercase hex digits. */
  hex(chars: number): string {
    let out = "";
    while (out.length < chars) out += (this.int(0x10000) | 0x10000).toString(16).slice(1);
    return out.slice(0, chars);
  }
}
