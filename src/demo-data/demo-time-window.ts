/**
 * The 14 days the demo data covers, and how a row's timestamp is drawn inside them.
 *
 * Determinism rule: the data is a pure function of (DEMO_SEED, the row counts, `now` truncated
 * to the hour). `now` is truncated to the start of its UTC hour, so loading twice within the
 * same hour (with the same `rows`) produces byte-identical rows; the window is
 * [hour(now) - 14 days, hour(now)).
 */
import { hash, uniform, weightedIndex } from "./random-sql.js";

const DEMO_WINDOW_DAYS = 14;
const DAY = 86_400;
const HOUR = 3_600;

export interface DemoTimeWindow {
  /** Inclusive start, epoch seconds (hour(now) - 14 days). */
  readonly start: number;
  /** Exclusive end, epoch seconds (now truncated to the hour). */
  readonly end: number;
}

export function demoTimeWindow(now: Date): DemoTimeWindow {
  const end = Math.floor(now.getTime() / 1000 / HOUR) * HOUR;
  return { start: end - DEMO_WINDOW_DAYS * DAY, end };
}

/** Relative traffic per UTC hour of the day: quiet at night, a peak in the (European/US) afternoon. */
const HOUR_OF_DAY_WEIGHTS = [3, 2, 2, 2, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 14, 13, 12, 11, 10, 8, 7, 6, 5, 4];
const WEEKEND_FACTOR = 0.6;

/**
 * An SQL expression giving an epoch second (UInt32) in [start, end) for each row: a day weighted
 * by weekday (weekends quieter), an hour by the daily curve, a uniform second in the hour.
 * Days are counted from the UTC midnight before `start`; a time before `start` wraps 14 days
 * forward, which keeps it below `end`.
 */
export function timeOfRowSql(window: DemoTimeWindow, salt: number, key = "number"): string {
  const firstMidnight = Math.floor(window.start / DAY) * DAY;
  const dayWeights: number[] = [];
  for (let day = 0; day < DEMO_WINDOW_DAYS; day += 1) {
    const weekday = new Date((firstMidnight + day * DAY) * 1000).getUTCDay();
    dayWeights.push(weekday === 0 || weekday === 6 ? WEEKEND_FACTOR : 1);
  }
  const day = `(${weightedIndex(dayWeights, hash(salt, key))} - 1)`;
  const hour = `(${weightedIndex(HOUR_OF_DAY_WEIGHTS, hash(salt + 1, key))} - 1)`;
  const second = `toUInt32(floor(${uniform(salt + 2, key)} * ${HOUR}))`;
  const raw = `(${firstMidnight} + ${day} * ${DAY} + ${hour} * ${HOUR} + ${second})`;
  return `toUInt32(if(${raw} < ${window.start}, ${raw} + ${DEMO_WINDOW_DAYS * DAY}, ${raw}))`;
}

/** Same time as `timeOfRowSql`, but below `end - margin` (so a duration can be added). */
export function timeOfRowBeforeSql(window: DemoTimeWindow, marginSeconds: number, salt: number, key = "number"): string {
  const t = timeOfRowSql(window, salt, key);
  return `toUInt32(if(${t} >= ${window.end - marginSeconds}, ${t} - ${marginSeconds}, ${t}))`;
}

/** Release index in [0, releases): later releases roll out over the window, 20% lag one behind. */
export function releaseIndexSql(window: DemoTimeWindow, releases: number, timeExpr: string, salt: number, key = "number"): string {
  const span = window.end - window.start;
  const rolled = `toInt64(floor((${timeExpr} - ${window.start}) * ${releases} / ${span}))`;
  return `toUInt32(greatest(0, least(${releases - 1}, ${rolled} - if(${hash(salt, key)} % 5 = 0, 1, 0))))`;
}
