/**
 * The shapes of text a literal must have where Snuba's validators hold it to a column's kind:
 * a UUID column's values, a date or time column's values.
 */

/** 32 hex digits, with or without the four dashes. */
export const UUID_TEXT = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A date, or a date and a time (UTC or with an offset). */
export const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
