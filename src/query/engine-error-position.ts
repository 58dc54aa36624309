/**
 * Points an engine error at the query text: the function or column the (readable) message names
 * first, when the query wrote that name in exactly one place. A name written in several places
 * could be any of them, and a name the query never wrote is Quarry's (a storage column, a
 * function the translation added): neither gives a position, the error stands as it is.
 */
import type { WrittenNames } from "./written-names.js";
import { atPosition, QueryServiceError, type TextPosition } from "../errors/query-service-error.js";

export interface NameInMessage {
  readonly kind: "function" | "column";
  readonly name: string;
  /** Where the name ends in the message (after a closing quote), for the position to follow it. */
  readonly end: number;
}

/** `function plus`, ``function `equals` ``, `aggregate function sumI✘`, `Function with name 'f'`. */
const FUNCTION_BEFORE = /\b[Ff]unction\s+(?:with name\s+)?(?:`([^`]+)`|'([^']+)'|([^\s`'"(),:;.]+))/g;
/** `'throwIf' function`. */
const FUNCTION_AFTER = /(?:`([^`]+)`|'([^']+)') function\b/g;
/** `Column 'title'`, ``identifier `nosuchcol` ``, `Missing columns: 'a'`. */
const COLUMN = /\b(?:[Cc]olumns?:?|identifier)\s+(?:`([^`]+)`|'([^']+)')/g;
/**
 * Function names that are also English words: unquoted, they are a function only where the
 * sentence ends after them (`of function and`), not mid-sentence (`aggregate function and not in GROUP BY`).
 */
const WORD_NAMES = new Set(["and", "or", "not", "in", "is", "if", "like", "has"]);

const MAX_PRINTED_CALL = 200;

/** Past a call's argument list right after a name (`sum(project_id)`), so a position follows the whole call. */
function afterArguments(message: string, end: number): number {
  if (message[end] !== "(") return end;
  let depth = 0;
  // A call the engine prints is short; past this, the position follows the name alone.
  const limit = Math.min(message.length, end + MAX_PRINTED_CALL);
  for (let i = end; i < limit; i++) {
    if (message[i] === "(") depth++;
    else if (message[i] === ")" && --depth === 0) return i + 1;
  }
  return end;
}

function collect(message: string, pattern: RegExp, kind: NameInMessage["kind"], into: (NameInMessage & { start: number })[]): void {
  for (const match of message.matchAll(pattern)) {
    const name = match[1] ?? match[2] ?? match[3];
    if (name === undefined) continue;
    // The name's end: FUNCTION_AFTER's match goes on past it with " function".
    const nameEnd = match.index + match[0].length - (pattern === FUNCTION_AFTER ? " function".length : 0);
    if (match[3] !== undefined && WORD_NAMES.has(name) && !/^(?:$|[.:,)])/.test(message.slice(nameEnd, nameEnd + 1))) continue;
    into.push({ kind, name, end: afterArguments(message, nameEnd), start: match.index });
  }
}

/** The functions and columns a message names, in the order it names them. */
export function namesInEngineMessage(message: string): NameInMessage[] {
  const found: (NameInMessage & { start: number })[] = [];
  collect(message, FUNCTION_BEFORE, "function", found);
  collect(message, FUNCTION_AFTER, "function", found);
  collect(message, COLUMN, "column", found);
  found.sort((a, b) => a.start - b.start);
  return found.map(({ kind, name, end }) => ({ kind, name, end }));
}

/**
 * The position of the first name the message gives that the query wrote at all, when it wrote
 * it once; with where that name ends in the message.
 */
export function engineErrorPosition(message: string, names: WrittenNames): { position: TextPosition; end: number } | null {
  for (const named of namesInEngineMessage(message)) {
    const positions = (named.kind === "function" ? names.functions : names.columns).get(named.name);
    if (positions === undefined) continue;
    return positions.length === 1 ? { position: positions[0]!, end: named.end } : null;
  }
  return null;
}

/**
 * The columnstore error with the position of the name its message gives, said in the message too
 * (" at line 1, column 23" after the name, as the front end's messages say it); the error itself
 * when there is none.
 */
export function locatedEngineError(error: QueryServiceError, names: WrittenNames): QueryServiceError {
  const found = engineErrorPosition(error.message, names);
  if (!found) return error;
  const message = error.message.slice(0, found.end) + atPosition(found.position) + error.message.slice(found.end);
  return error.withExtra({}, message, found.position);
}
