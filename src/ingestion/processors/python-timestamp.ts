/**
 * Unix timestamps (float seconds) as Snuba's Python transactions processor reads them:
 * `datetime.utcfromtimestamp` rounds to the microsecond (half to even), and `_ensure_valid_date`
 * replaces a time whose whole seconds fall outside UInt32 with the current time.
 */
import { InvalidMessage } from "../message-processor.js";

/** Seconds of 0001-01-01 and of 10000-01-01: datetime's range; outside it Python raises. */
const MIN_DATETIME_SECONDS = -62135596800;
const MAX_DATETIME_SECONDS = 253402300800;
const MAX_UINT32 = 2 ** 32 - 1;

function roundHalfEven(x: number): number {
  const rounded = Math.round(x);
  // Math.round sends .5 up; Python sends it to the even neighbour.
  return Math.abs(x - Math.trunc(x)) === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/** `utcfromtimestamp(seconds)` as whole microseconds since the epoch. */
export function pythonUtcMicros(seconds: number, path: string): number {
  if (!Number.isFinite(seconds) || seconds <= MIN_DATETIME_SECONDS || seconds >= MAX_DATETIME_SECONDS) {
    throw new InvalidMessage(`${path} ${seconds} is outside the dates Python can represent`);
  }
  let whole = Math.trunc(seconds);
  let micros = roundHalfEven((seconds - whole) * 1e6);
  if (micros >= 1e6) {
    whole += 1;
    micros -= 1e6;
  } else if (micros < 0) {
    whole -= 1;
    micros += 1e6;
  }
  return whole * 1e6 + micros;
}

/** `_ensure_valid_date`: the time when its whole seconds fit UInt32, else the current time. */
export function validOrNowMicros(micros: number, nowMs: () => number): number {
  const wholeSeconds = Math.trunc(micros / 1e6);
  if (wholeSeconds >= 0 && wholeSeconds <= MAX_UINT32) return micros;
  return nowMs() * 1000;
}
