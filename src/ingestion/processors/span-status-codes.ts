/**
 * Sentry's span status names and their codes (relay's `SpanStatus`, which follows gRPC's status
 * codes; sentry_relay.consts.SPAN_STATUS_NAME_TO_CODE), as transactions_local.transaction_status
 * stores them. `unknown_error` is relay's legacy alias of `unknown`.
 */
export const SPAN_STATUS_CODES: ReadonlyMap<string, number> = new Map([
  ["ok", 0],
  ["cancelled", 1],
  ["unknown", 2],
  ["unknown_error", 2],
  ["invalid_argument", 3],
  ["deadline_exceeded", 4],
  ["not_found", 5],
  ["already_exists", 6],
  ["permission_denied", 7],
  ["resource_exhausted", 8],
  ["failed_precondition", 9],
  ["aborted", 10],
  ["out_of_range", 11],
  ["unimplemented", 12],
  ["internal_error", 13],
  ["unavailable", 14],
  ["data_loss", 15],
  ["unauthenticated", 16],
]);

/** The code Snuba stores for a status it does not know, or for none. */
export const UNKNOWN_SPAN_STATUS = 2;
