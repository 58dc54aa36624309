/** `2024-05-01 12:00:00.123`: the UTC text every ClickHouse DateTime/DateTime64 input accepts. */
export function utcDateTimeText(epochMs: number): string {
  return new Date(epochMs).toISOString().replace("T", " ").replace("Z", "");
}
