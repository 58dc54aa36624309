/**
 * An error event's exceptions as the errors processor stores them: one `exception_stacks` entry
 * per exception (type, value, mechanism type, mechanism handled), one `exception_frames` entry
 * per frame of its stack trace with the exception's index as `stack_level`, and
 * `exception_main_thread`: whether an exception's thread_id names a thread marked `main`.
 * The event is checked either way; a project in the stack-trace block list gets none of it.
 */
import { InvalidMessage } from "../message-processor.js";
import { JsonNumber, type JsonObject, type JsonValue } from "./lossless-json.js";
import { unicodify } from "./rust-value-text.js";
import { optionalArray, optionalBoolean, optionalObject, optionalUnsigned, unsignedOrNull } from "./serde-fields.js";

export interface ErrorExceptions {
  readonly "exception_stacks.type": (string | null)[];
  readonly "exception_stacks.value": (string | null)[];
  readonly "exception_stacks.mechanism_type": (string | null)[];
  readonly "exception_stacks.mechanism_handled": (0 | 1 | null)[];
  readonly "exception_frames.abs_path": (string | null)[];
  readonly "exception_frames.filename": (string | null)[];
  readonly "exception_frames.package": (string | null)[];
  readonly "exception_frames.module": (string | null)[];
  readonly "exception_frames.function": (string | null)[];
  readonly "exception_frames.in_app": (0 | 1 | null)[];
  readonly "exception_frames.colno": (number | string | null)[];
  readonly "exception_frames.lineno": (number | string | null)[];
  readonly "exception_frames.stack_level": number[];
  readonly exception_main_thread: 0 | 1 | null;
}

/** A thread id is an unsigned integer or a string; 1 and "1" are different ids. */
function threadId(value: JsonValue | undefined, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return `s:${value}`;
  if (typeof value === "number" || value instanceof JsonNumber) {
    const id = unsignedOrNull(value, 64);
    if (id !== null) return `i:${id}`;
  }
  throw new InvalidMessage(`${path} must be an unsigned integer or a string`);
}

interface Thread {
  readonly id: string | null;
  readonly main: boolean | null;
}

function threads(value: JsonValue | undefined, path: string): Thread[] {
  const container = optionalObject(value, path);
  const items = container === null ? [] : (optionalArray(container.get("values"), `${path}.values`) ?? []);
  const result: Thread[] = [];
  for (let i = 0; i < items.length; i++) {
    const thread = optionalObject(items[i], `${path}.values[${i}]`);
    if (thread === null) continue;
    result.push({ id: threadId(thread.get("id"), `${path}.values[${i}].id`), main: optionalBoolean(thread.get("main"), `${path}.values[${i}].main`) });
  }
  return result;
}

/** `Boolify` as Snuba's Rust has it: only a JSON boolean counts (its string branch never matches). */
function handledFlag(value: JsonValue | undefined): 0 | 1 | null {
  return typeof value === "boolean" ? (value ? 1 : 0) : null;
}

function flag(value: boolean | null): 0 | 1 | null {
  return value === null ? null : value ? 1 : 0;
}

export function errorExceptions(exceptionValue: JsonValue | undefined, threadsValue: JsonValue | undefined, threadsPath: string, keepStacks: boolean): ErrorExceptions {
  const result = {
    "exception_stacks.type": [] as (string | null)[],
    "exception_stacks.value": [] as (string | null)[],
    "exception_stacks.mechanism_type": [] as (string | null)[],
    "exception_stacks.mechanism_handled": [] as (0 | 1 | null)[],
    "exception_frames.abs_path": [] as (string | null)[],
    "exception_frames.filename": [] as (string | null)[],
    "exception_frames.package": [] as (string | null)[],
    "exception_frames.module": [] as (string | null)[],
    "exception_frames.function": [] as (string | null)[],
    "exception_frames.in_app": [] as (0 | 1 | null)[],
    "exception_frames.colno": [] as (number | string | null)[],
    "exception_frames.lineno": [] as (number | string | null)[],
    "exception_frames.stack_level": [] as number[],
    exception_main_thread: null as 0 | 1 | null,
  };
  const exception = optionalObject(exceptionValue, "data.exception");
  const items = exception === null ? [] : (optionalArray(exception.get("values"), "data.exception.values") ?? []);
  const knownThreads = threads(threadsValue, threadsPath);

  let stackLevel = 0;
  for (let i = 0; i < items.length; i++) {
    const path = `data.exception.values[${i}]`;
    const stack = optionalObject(items[i], path);
    if (stack === null) continue;
    const mechanism = optionalObject(stack.get("mechanism"), `${path}.mechanism`);
    const stacktrace = optionalObject(stack.get("stacktrace"), `${path}.stacktrace`);
    const frames = stacktrace === null ? [] : (optionalArray(stacktrace.get("frames"), `${path}.stacktrace.frames`) ?? []);
    const stackThread = threadId(stack.get("thread_id"), `${path}.thread_id`);
    if (keepStacks) {
      result["exception_stacks.type"].push(unicodify(stack.get("type")));
      result["exception_stacks.value"].push(unicodify(stack.get("value")));
      result["exception_stacks.mechanism_type"].push(mechanism === null ? null : unicodify(mechanism.get("type")));
      result["exception_stacks.mechanism_handled"].push(mechanism === null ? null : handledFlag(mechanism.get("handled")));
    }
    for (let f = 0; f < frames.length; f++) {
      const frame = optionalObject(frames[f], `${path}.stacktrace.frames[${f}]`);
      if (frame === null) continue;
      const inApp = optionalBoolean(frame.get("in_app"), `${path}.stacktrace.frames[${f}].in_app`);
      const colno = optionalUnsigned(frame.get("colno"), 32, `${path}.stacktrace.frames[${f}].colno`);
      if (!keepStacks) continue;
      pushFrame(result, frame, inApp, colno, stackLevel);
    }
    if (keepStacks && result.exception_main_thread !== 1 && stackThread !== null) {
      for (const thread of knownThreads) {
        if (thread.id === null || thread.main === null) continue;
        if (thread.id === stackThread && thread.main) {
          result.exception_main_thread = 1;
          break;
        }
        result.exception_main_thread = 0;
      }
    }
    stackLevel++;
  }
  return result;
}

function pushFrame(result: { -readonly [K in keyof ErrorExceptions]: ErrorExceptions[K] }, frame: JsonObject, inApp: boolean | null, colno: number | string | null, stackLevel: number): void {
  result["exception_frames.abs_path"].push(unicodify(frame.get("abs_path")));
  result["exception_frames.filename"].push(unicodify(frame.get("filename")));
  result["exception_frames.package"].push(unicodify(frame.get("package")));
  result["exception_frames.module"].push(unicodify(frame.get("module")));
  result["exception_frames.function"].push(unicodify(frame.get("function")));
  result["exception_frames.in_app"].push(flag(inApp));
  result["exception_frames.colno"].push(colno);
  // A line number that is not a u32 is read as none (serde_with's DefaultOnError), not refused.
  result["exception_frames.lineno"].push(unsignedOrNull(frame.get("lineno"), 32));
  result["exception_frames.stack_level"].push(stackLevel);
}
