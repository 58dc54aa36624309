/**
 * When a subscription fires and which window each firing covers (facts B6.3, jittered builder):
 * a window ends at every multiple T of the resolution; with resolution 60 the run fires at
 * T + jitter, where jitter = uuid mod 60, so a minute's subscriptions do not all run at second 0.
 * The window itself stays aligned: [T − time_window, T).
 */
import type { Subscription } from "../store/subscription.js";

/** Snuba's MAX_RESOLUTION_FOR_JITTER. */
const MAX_RESOLUTION_FOR_JITTER = 60;

export function jitterSeconds(subscription: Pick<Subscription, "uuid" | "resolution">): number {
  if (subscription.resolution > MAX_RESOLUTION_FOR_JITTER) return 0;
  return Number(BigInt(`0x${subscription.uuid}`) % BigInt(subscription.resolution));
}

/** A window to run: its end T and the second it fires at (T + jitter). */
export interface DueWindow {
  /** Unix seconds; the window is [T − time_window, T). */
  readonly windowEnd: number;
  readonly firesAt: number;
}

/**
 * Every window whose firing second lies in [fromSecond, toSecond), in order. Windows that fire
 * before the subscription was created are not its own: the first is the first firing at or after
 * the creation second.
 */
export function dueWindows(
  subscription: Pick<Subscription, "uuid" | "resolution" | "createdAt">,
  fromSecond: number,
  toSecond: number,
  jitter = jitterSeconds(subscription),
  limit = Infinity,
): DueWindow[] {
  const windows: DueWindow[] = [];
  const resolution = subscription.resolution;
  for (let windowEnd = firstWindowEnd(subscription, fromSecond, jitter); windowEnd + jitter < toSecond && windows.length < limit; windowEnd += resolution) {
    windows.push({ windowEnd, firesAt: windowEnd + jitter });
  }
  return windows;
}

/** How many windows fire in [fromSecond, toSecond), without listing them (a long outage's backlog). */
export function countWindows(
  subscription: Pick<Subscription, "uuid" | "resolution" | "createdAt">,
  fromSecond: number,
  toSecond: number,
  jitter = jitterSeconds(subscription),
): number {
  const first = firstWindowEnd(subscription, fromSecond, jitter);
  if (first + jitter >= toSecond) return 0;
  return Math.floor((toSecond - 1 - jitter - first) / subscription.resolution) + 1;
}

/** The smallest T = k·resolution firing at or after both `fromSecond` and the creation second. */
function firstWindowEnd(subscription: Pick<Subscription, "resolution" | "createdAt">, fromSecond: number, jitter: number): number {
  const first = Math.max(fromSecond, Math.ceil(subscription.createdAt / 1000));
  return Math.ceil((first - jitter) / subscription.resolution) * subscription.resolution;
}
