/** How literals and identifiers are written into ClickHouse SQL. */
import { invalidQuery } from "../errors/query-service-error.js";

/** A single-quoted string literal: backslash and quote escaped, control bytes spelled out. */
export function quoteString(value: string): string {
  // Most literals need no escape: skip the per-character pass for them.
  if (!/[\\'\0\n\r\t]/.test(value)) return `'${value}'`;
  let out = "'";
  for (const char of value) {
    switch (char) {
      case "\\":
        out += "\\\\";
        break;
      case "'":
        out += "\\'";
        break;
      case "\0":
        out += "\\0";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      default:
        out += char;
    }
  }
  return `${out}'`;
}

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** An identifier, back-quoted unless it is plain (back-quotes and backslashes escaped). */
export function quoteIdentifier(name: string): string {
  return PLAIN_IDENTIFIER.test(name) ? name : backQuote(name);
}

const MAX_REMEMBERED_ALIASES = 4096;
/**
 * Longer names are escaped each time and not kept: a bound on the count alone let 4,096 names of
 * up to a request's size (1 MB) stay for the life of the process, each twice (name and alias).
 */
export const MAX_REMEMBERED_ALIAS_CHARS = 256;
const rememberedAliases = new Map<string, string>();

function backQuote(name: string): string {
  return `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;
}

const PLAIN_ALIAS = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The alias a result column gets in SQL; prefixed so it never shadows a real column, and
 * back-quoted when it holds a dot (`_snuba_e.project_id` is not a column of table `_snuba_e`).
 */
export function resultAlias(name: string): string {
  // Output names repeat from query to query; remembering a few thousand spares the regex.
  let alias = rememberedAliases.get(name);
  if (alias === undefined) {
    const prefixed = `_snuba_${name}`;
    alias = PLAIN_ALIAS.test(prefixed) ? prefixed : backQuote(prefixed);
    if (name.length <= MAX_REMEMBERED_ALIAS_CHARS) {
      if (rememberedAliases.size >= MAX_REMEMBERED_ALIASES) rememberedAliases.clear();
      rememberedAliases.set(name, alias);
    }
  }
  return alias;
}

export function formatNumber(value: number): string {
  // The query's text is the only source of such a number (e.g. 1e400 in MQL): the caller's fault.
  if (!Number.isFinite(value)) throw invalidQuery(`the number ${value} cannot be written into SQL: it is outside the range of a 64-bit float`);
  return String(value);
}
