/**
 * Random sentences of a language, generated from its chevrotain grammar (the parser's own GAST
 * productions, `parser.getGAstProductions()`), not from a fixed corpus: every rule, alternative,
 * option and repetition of the grammar can be reached, and every terminal is a token the lexer
 * produces. A language profile steers the walk without leaving the grammar:
 *
 * - `terminalText` turns a terminal into text (a word list, or the token's own pattern);
 * - `alternativeWeights`, `optionChance`, `repetitions` bias the choices (a WHERE wants
 *   comparisons, an atom is more often a column than a parenthesis);
 * - `onRuleExit` may rewrite the tokens a rule just produced, knowing their shape: `f(a, b)` gets
 *   a function name of arity 2, a column compared with a literal gets a literal of its type.
 *
 * Once a rule is being re-entered more than `maxRecursion` times (an expression inside an
 * expression inside ...), or the sentence is long, the walk takes the shortest way out (options
 * skipped, repetitions at their minimum, the alternative with the fewest rule references), so
 * sentences stay finite.
 */
import {
  Alternation,
  Alternative,
  NonTerminal,
  Option,
  Repetition,
  RepetitionMandatory,
  RepetitionMandatoryWithSeparator,
  RepetitionWithSeparator,
  Rule,
  Terminal,
  type IProduction,
  type TokenType,
} from "chevrotain";
import { textForPattern } from "./pattern-text.js";
import type { Prng } from "./prng.js";

/** One generated token: its type, its text and the rule that emitted it. */
export interface SentenceToken {
  type: string;
  text: string;
  readonly rule: string;
}

export interface WalkContext {
  /** Rule names, outermost first; the last is the rule being expanded. */
  readonly stack: readonly string[];
  /** The tokens so far (rules may rewrite their own span on exit). */
  readonly tokens: SentenceToken[];
  /** True when the walk is taking the shortest way out. */
  readonly deep: boolean;
}

export interface GrammarProfile {
  readonly productions: Record<string, Rule>;
  readonly terminalText: (token: TokenType, context: WalkContext, prng: Prng) => string;
  /** Weights of an alternation's alternatives (`occurrence` tells two OR(...) of one rule apart). */
  readonly alternativeWeights?: (rule: string, occurrence: number, count: number, context: WalkContext) => readonly number[] | undefined;
  /** The chance an OPTION is taken (1: even when taking the shortest way out). */
  readonly optionChance?: (rule: string, occurrence: number, context: WalkContext) => number | undefined;
  /** [min, max] times for a repetition (min is raised to 1 for AT_LEAST_ONE). */
  readonly repetitions?: (rule: string, occurrence: number, context: WalkContext, prng: Prng) => readonly [number, number] | undefined;
  readonly onRuleExit?: (rule: string, start: number, context: WalkContext, prng: Prng) => void;
}

export interface SentenceOptions {
  readonly start: string;
  /** How many times one rule may be on the stack before the shortest way out is taken. */
  readonly maxRecursion?: number;
  /** Past this many tokens, the shortest way out is taken everywhere. */
  readonly maxTokens?: number;
}

/**
 * The size of the smallest sentence each rule derives (terminals counted, options and
 * repetitions at their minimum), by fixpoint: the shortest way out always terminates.
 */
function minimalSizes(productions: Record<string, Rule>): Map<string, number> {
  const sizes = new Map<string, number>(Object.keys(productions).map((name) => [name, Infinity]));
  const sizeOf = (list: readonly IProduction[]): number => {
    let total = 0;
    for (const production of list) {
      if (production instanceof Terminal) total += 1;
      else if (production instanceof NonTerminal) total += sizes.get(production.nonTerminalName) ?? Infinity;
      else if (production instanceof Alternation) total += Math.min(...(production.definition as Alternative[]).map((alternative) => sizeOf(alternative.definition)));
      else if (production instanceof RepetitionMandatory || production instanceof RepetitionMandatoryWithSeparator || production instanceof Alternative) {
        total += sizeOf(production.definition);
      }
      // Option, Repetition, RepetitionWithSeparator: nothing at the minimum.
    }
    return total;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, rule] of Object.entries(productions)) {
      const size = sizeOf(rule.definition);
      if (size < sizes.get(name)!) {
        sizes.set(name, size);
        changed = true;
      }
    }
  }
  return sizes;
}

const minimalSizeCache = new WeakMap<Record<string, Rule>, Map<string, number>>();
const shortestAlternatives = new WeakMap<Alternation, readonly Alternative[]>();

/** The alternatives of least size (ties kept: the profile's weights choose among them). */
function shortestOf(production: Alternation, sizes: Map<string, number>): readonly Alternative[] {
  let shortest = shortestAlternatives.get(production);
  if (shortest) return shortest;
  const sizeOfAlternative = (alternative: Alternative): number => {
    let total = 0;
    for (const part of alternative.definition) {
      if (part instanceof Terminal) total += 1;
      else if (part instanceof NonTerminal) total += sizes.get(part.nonTerminalName) ?? Infinity;
      else if (part instanceof Alternation || part instanceof RepetitionMandatory || part instanceof RepetitionMandatoryWithSeparator) total += 1;
    }
    return total;
  };
  const alternatives = production.definition as Alternative[];
  const least = Math.min(...alternatives.map(sizeOfAlternative));
  shortest = alternatives.filter((alternative) => sizeOfAlternative(alternative) === least);
  shortestAlternatives.set(production, shortest);
  return shortest;
}

/** Generates the tokens of one sentence of rule `options.start`. */
export function generateTokens(profile: GrammarProfile, options: SentenceOptions, prng: Prng): SentenceToken[] {
  const maxRecursion = options.maxRecursion ?? 2;
  const maxTokens = options.maxTokens ?? 120;
  let sizes = minimalSizeCache.get(profile.productions);
  if (!sizes) minimalSizeCache.set(profile.productions, (sizes = minimalSizes(profile.productions)));
  const known = sizes;
  const tokens: SentenceToken[] = [];
  const stack: string[] = [];
  const entries = new Map<string, number>();
  const context = (deep: boolean): WalkContext => ({ stack, tokens, deep });

  const expandRule = (name: string): void => {
    const rule = profile.productions[name];
    if (!rule) return;
    const entered = (entries.get(name) ?? 0) + 1;
    entries.set(name, entered);
    stack.push(name);
    const start = tokens.length;
    walk(rule.definition, name);
    profile.onRuleExit?.(name, start, context(false), prng);
    stack.pop();
    entries.set(name, entered - 1);
  };

  const isDeep = (): boolean => {
    if (tokens.length > maxTokens || stack.length > 60) return true;
    for (const count of entries.values()) if (count > maxRecursion) return true;
    return false;
  };

  const walk = (productions: readonly IProduction[], rule: string): void => {
    for (const production of productions) {
      const deep = isDeep();
      if (production instanceof Terminal) {
        tokens.push({ type: production.terminalType.name, text: profile.terminalText(production.terminalType, context(deep), prng), rule });
      } else if (production instanceof NonTerminal) {
        expandRule(production.nonTerminalName);
      } else if (production instanceof Alternation) {
        const alternatives = production.definition as Alternative[];
        const weights = profile.alternativeWeights?.(rule, production.idx, alternatives.length, context(deep));
        const allowed = deep ? shortestOf(production, known) : alternatives;
        const chosen = weights
          ? prng.weighted(allowed.map((alternative) => [alternative, weights[alternatives.indexOf(alternative)] ?? 1] as const))
          : prng.pick(allowed);
        walk(chosen.definition, rule);
      } else if (production instanceof Option) {
        const chance = profile.optionChance?.(rule, production.idx, context(deep)) ?? 0.5;
        if (chance >= 1 || (!deep && prng.chance(chance))) walk(production.definition, rule);
      } else if (
        production instanceof RepetitionMandatory ||
        production instanceof RepetitionMandatoryWithSeparator ||
        production instanceof Repetition ||
        production instanceof RepetitionWithSeparator
      ) {
        const mandatory = production instanceof RepetitionMandatory || production instanceof RepetitionMandatoryWithSeparator;
        const [min, max] = profile.repetitions?.(rule, production.idx, context(deep), prng) ?? [0, 2];
        const floor = mandatory ? Math.max(1, min) : min;
        const times = deep ? (mandatory ? 1 : 0) : prng.int(floor, Math.max(floor, max));
        const separator = production instanceof RepetitionMandatoryWithSeparator || production instanceof RepetitionWithSeparator ? production.separator : null;
        for (let i = 0; i < times; i++) {
          if (i > 0 && separator) tokens.push({ type: separator.name, text: profile.terminalText(separator, context(deep), prng), rule });
          walk(production.definition, rule);
        }
      } else if (production instanceof Alternative || production instanceof Rule) {
        walk(production.definition, rule);
      }
    }
  };

  expandRule(options.start);
  return tokens;
}

export function joinTokens(tokens: readonly SentenceToken[]): string {
  return tokens.map((token) => token.text).join(" ");
}

/** The literal text of a token whose pattern is a plain word or symbol (`MATCH`, `(`, `>=`). */
export function fixedText(token: TokenType): string | null {
  const pattern = token.PATTERN;
  if (typeof pattern === "string") return pattern;
  if (pattern instanceof RegExp) {
    const source = pattern.source;
    if (/^(?:\\.|[A-Za-z0-9_ ,:!=<>\]-])+$/.test(source)) return source.replace(/\\(.)/g, "$1");
    // `AND|and`: the first spelling.
    if (/^[A-Za-z]+(\|[A-Za-z]+)+$/.test(source)) return source.split("|")[0]!;
  }
  return null;
}

/** Text for any token: its fixed text, else a random string its pattern matches. */
export function patternText(token: TokenType, prng: Prng): string {
  const fixed = fixedText(token);
  if (fixed !== null) return fixed;
  const pattern = token.PATTERN;
  if (pattern instanceof RegExp) return textForPattern(pattern, prng);
  return token.name;
}
