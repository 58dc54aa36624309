/**
 * Random sentences of a language, generated from its chevrotain grammar (the parser's own GAST
 * productions), not from a fixed corpus: every rule, alternative and repetition of the grammar can
 * be reached. Terminals become text through a per-language `terminalText`. Once a rule is being
 * re-entered more than `maxRecursion` times (an expression inside an expression inside ...), the
 * generator takes the shortest way out (options skipped, repetitions at their minimum, the
 * alternative with the fewest rule references), so sentences stay finite.
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
import type { Prng } from "./prng.js";

export interface GrammarOptions {
  readonly productions: Record<string, Rule>;
  readonly start: string;
  readonly terminalText: (token: TokenType, prng: Prng) => string;
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
const shortestAlternative = new WeakMap<Alternation, Alternative>();

export function generateSentence(options: GrammarOptions, prng: Prng): string {
  const maxRecursion = options.maxRecursion ?? 2;
  const maxTokens = options.maxTokens ?? 120;
  let sizes = minimalSizeCache.get(options.productions);
  if (!sizes) minimalSizeCache.set(options.productions, (sizes = minimalSizes(options.productions)));
  const known = sizes;
  const sizeOfAlternative = (alternative: Alternative): number => {
    let total = 0;
    for (const production of alternative.definition) {
      if (production instanceof Terminal) total += 1;
      else if (production instanceof NonTerminal) total += known.get(production.nonTerminalName) ?? Infinity;
      else if (production instanceof Alternation || production instanceof RepetitionMandatory || production instanceof RepetitionMandatoryWithSeparator) total += 1;
    }
    return total;
  };
  const out: string[] = [];
  const onStack = new Map<string, number>();
  // `depth` here is the deepest re-entry of any rule on the stack.
  const walk = (productions: readonly IProduction[], depth: number): void => {
    const deep = depth > maxRecursion || onStack.size > 60 || out.length > maxTokens;
    for (const production of productions) {
      if (production instanceof Terminal) {
        out.push(options.terminalText(production.terminalType, prng));
      } else if (production instanceof NonTerminal) {
        const name = production.nonTerminalName;
        const rule = options.productions[name];
        if (!rule) continue;
        const entered = (onStack.get(name) ?? 0) + 1;
        onStack.set(name, entered);
        walk(rule.definition, Math.max(depth, entered));
        if (entered === 1) onStack.delete(name);
        else onStack.set(name, entered - 1);
      } else if (production instanceof Alternation) {
        const alternatives = production.definition as Alternative[];
        let shortest = shortestAlternative.get(production);
        if (!shortest) shortestAlternative.set(production, (shortest = [...alternatives].sort((a, b) => sizeOfAlternative(a) - sizeOfAlternative(b))[0]!));
        const chosen = deep ? shortest : prng.pick(alternatives);
        walk(chosen.definition, depth);
      } else if (production instanceof Option) {
        if (!deep && prng.chance(0.5)) walk(production.definition, depth);
      } else if (production instanceof RepetitionMandatory || production instanceof RepetitionMandatoryWithSeparator) {
        const times = deep ? 1 : prng.int(1, 3);
        for (let i = 0; i < times; i++) {
          if (i > 0 && production instanceof RepetitionMandatoryWithSeparator) out.push(options.terminalText(production.separator, prng));
          walk(production.definition, depth);
        }
      } else if (production instanceof Repetition || production instanceof RepetitionWithSeparator) {
        const times = deep ? 0 : prng.int(0, 2);
        for (let i = 0; i < times; i++) {
          if (i > 0 && production instanceof RepetitionWithSeparator) out.push(options.terminalText(production.separator, prng));
          walk(production.definition, depth);
        }
      } else if (production instanceof Alternative || production instanceof Rule) {
        walk(production.definition, depth);
      }
    }
  };
  onStack.set(options.start, 1);
  walk(options.productions[options.start]!.definition, 1);
  return out.join(" ");
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
