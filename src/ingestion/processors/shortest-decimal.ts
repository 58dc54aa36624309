/**
 * The shortest decimal digits that read back as the same double: what JS's Number#toString,
 * Rust's ryu (serde_json) and Python's float repr all start from. They differ only in where they
 * put the point and when they switch to an exponent, which their own printers decide.
 */
export interface ShortestDecimal {
  readonly negative: boolean;
  /** Significant digits, no leading or trailing zeros ("0" for zero). */
  readonly digits: string;
  /** The position of the decimal point after the first digit: value = 0.digits × 10^pointAt. */
  readonly pointAt: number;
}

export function shortestDecimal(value: number): ShortestDecimal {
  const negative = value < 0 || Object.is(value, -0);
  if (value === 0) return { negative, digits: "0", pointAt: 1 };
  // toExponential() without an argument prints as many digits as it takes to be unique.
  const [mantissa = "", exponent = "0"] = Math.abs(value).toExponential().split("e");
  return { negative, digits: mantissa.replace(".", ""), pointAt: Number(exponent) + 1 };
}
