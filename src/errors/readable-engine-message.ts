/**
 * A ClickHouse error message as a query's author can read it: the engine's own sentence, without
 * what only Quarry or the engine's internals know. The SQL is Quarry's translation of the query,
 * so the message's echo of it, its aliases (`_snuba_title`) and the analyzer's table qualifiers
 * (`__table1.title`) name things the author never wrote; the SQL itself still travels beside the
 * error as `sql`. The code travels as `code`; server banners, versions and stack traces go.
 *
 * A message can hold the query's own texts (a value that failed to parse), so every step is one
 * pass over it: no pattern here starts with a repetition, which on a long run of spaces or dots
 * would be tried again from each character of the run.
 */

/** The engine's sentence comes first; past this, a message is its echo of the SQL or a value. */
const MAX_READ = 16 * 1024;
/** A readable message is a sentence or two: a longer one is cut here. */
const MAX_MESSAGE = 2000;

/** Where the engine starts its echo of the SQL (the rest of the message is the echo). */
const ECHO = /\b[Ii]n scope\s|\bIn query (?:SELECT|WITH|\()|\bwhile processing query:|\bStack trace/;

/** The analyzer's action on a function: `'FUNCTION toUInt32(__table1.title :: 0) -> toUInt32(__table1.title) UInt32 : 1'`. */
const FUNCTION_ACTION = /while executing '(?:FUNCTION )?([^\s(']+)\(/g;
/** Where that action's text ends: the result's number and the closing quote. */
const ACTION_END = / : \d+'/g;
/** The older form: `while executing function formatDateTime on arguments <columns and types>`. */
const FUNCTION_ARGUMENTS = /while executing function ([^\s(']+) on arguments /g;
/** Which processor of the pipeline was running: nothing about the query. */
const PROCESSOR = /While executing [A-Za-z]+(?:\([^)]{0,200}\))?/g;

function withoutTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** Each span from a match of `pattern` to `endOf(message, after the match)` replaced by `while executing function <name>`. */
function withFunctionName(message: string, pattern: RegExp, endOf: (message: string, after: number) => number): string {
  let result = "";
  let from = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(message); match; match = pattern.exec(message)) {
    result += `${message.slice(from, match.index)}while executing function ${match[1]}`;
    from = endOf(message, pattern.lastIndex);
    pattern.lastIndex = from;
  }
  return result + message.slice(from);
}

function actionEnd(message: string, after: number): number {
  ACTION_END.lastIndex = after;
  const end = ACTION_END.exec(message);
  return end ? end.index + end[0].length : message.length;
}

function argumentsEnd(message: string, after: number): number {
  const processor = message.indexOf("While executing ", after);
  return processor >= 0 ? processor : message.length;
}

export function readableEngineMessage(raw: string): string {
  let message = raw.length > MAX_READ ? raw.slice(0, MAX_READ) : raw;
  // A message the client could not parse keeps the server's banner, code name and version.
  message = message.replace(/^\s*Code: \d+\.\s?(?:DB::Exception:\s?)?/, "");
  const echo = ECHO.exec(message);
  if (echo) message = message.slice(0, echo.index);
  message = withoutTrailing(message, " \n\t");
  const version = message.lastIndexOf("(version ");
  if (version >= 0 && !message.includes("\n", version)) message = withoutTrailing(message.slice(0, version), " \n\t");
  message = message.replace(/\((?=[A-Z0-9_]*[A-Z]{3})[A-Z0-9_]+\)$/, "");
  // A failing call's description: its name is what the author can find; the rest is the
  // engine's plan, literals typed as `'x'_String`.
  message = withFunctionName(message, FUNCTION_ACTION, actionEnd);
  message = withFunctionName(message, FUNCTION_ARGUMENTS, argumentsEnd).replace(PROCESSOR, "");
  // A syntax error points into the SQL, which is not the author's text.
  const syntax = message.indexOf("Syntax error: failed at position");
  if (syntax >= 0) message = message.slice(0, syntax + "Syntax error".length);
  message = message
    .replace(/(?<![A-Za-z0-9_])__table\d+\./g, "")
    .replace(/(?<![A-Za-z0-9_])default\.[A-Za-z_][A-Za-z0-9_]*\.(?=[A-Za-z_`])/g, "")
    .replace(/(?<![A-Za-z0-9_])_snuba_/g, "")
    .replace(/\s+/g, " ")
    // What removing the processor leaves: "toUUID: : more" or "toUUID: ."
    .replace(/: (?=[:.]|$)/g, "");
  message = withoutTrailing(message, " .:,");
  // What is left of "... is found in WHERE in query." once the query is gone.
  if (message.endsWith(" in query")) message = message.slice(0, -" in query".length);
  message = message.trim();
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)} …` : message;
}
