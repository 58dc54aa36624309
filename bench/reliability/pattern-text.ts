/**
 * Random text that a token's pattern matches: a small sampler over the regular-expression subset
 * the SnQL and MQL lexers use (literals, escapes, `\d \w \s`, classes with ranges and negation,
 * `.`, groups, `|`, `? * + {n,m}`; lookaheads are skipped). A terminal with no word list of its
 * own gets text straight from its token's pattern, so every token of the grammar can appear.
 */
import type { Prng } from "./prng.js";

type Node =
  | { readonly kind: "chars"; readonly pick: (prng: Prng) => string }
  | { readonly kind: "group"; readonly alternatives: readonly Node[][] }
  | { readonly kind: "repeat"; readonly node: Node; readonly min: number; readonly max: number };

/** Characters a negated class or `.` draws from: printable ASCII, some Unicode, a few controls. */
const UNIVERSE = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  "é", "ü", "ß", "✓", "→", "中", "😀", "\t", "\n",
];
const DIGITS = "0123456789".split("");
const WORD = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_", ...DIGITS];
const SPACE = [" ", "\t", "\n"];

function charSet(members: readonly string[], negated: boolean): (prng: Prng) => string {
  if (!negated) return (prng) => prng.pick(members);
  const allowed = UNIVERSE.filter((c) => !members.includes(c));
  return (prng) => prng.pick(allowed);
}

function escapeSet(letter: string): readonly string[] | null {
  switch (letter) {
    case "d":
      return DIGITS;
    case "w":
      return WORD;
    case "s":
      return SPACE;
    case "S":
    case "D":
    case "W":
      return UNIVERSE.filter((c) => !(letter === "S" ? SPACE : letter === "D" ? DIGITS : WORD).includes(c));
    default:
      return null;
  }
}

class PatternParser {
  private at = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Error(`pattern-text: unsupported pattern /${this.source}/ at ${this.at}`);
    return node;
  }

  private alternation(): Node {
    const alternatives: Node[][] = [this.sequence()];
    while (this.source[this.at] === "|") {
      this.at += 1;
      alternatives.push(this.sequence());
    }
    return { kind: "group", alternatives };
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== "|" && this.source[this.at] !== ")") {
      const atom = this.atom();
      if (atom) nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private quantified(node: Node): Node {
    const next = this.source[this.at];
    let min: number;
    let max: number;
    if (next === "?") [min, max] = [0, 1];
    else if (next === "*") [min, max] = [0, 6];
    else if (next === "+") [min, max] = [1, 6];
    else if (next === "{") {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.at));
      if (!match) return node;
      min = Number(match[1]);
      max = match[2] ? (match[3] ? Number(match[3]) : min + 6) : min;
      this.at += match[0].length - 1;
    } else return node;
    this.at += 1;
    if (this.source[this.at] === "?") this.at += 1; // lazy: same strings
    return { kind: "repeat", node, min, max };
  }

  private atom(): Node | null {
    const char = this.source[this.at]!;
    if (char === "(") {
      this.at += 1;
      let lookahead = false;
      if (this.source.startsWith("?:", this.at)) this.at += 2;
      else if (this.source.startsWith("?=", this.at) || this.source.startsWith("?!", this.at)) {
        this.at += 2;
        lookahead = true;
      }
      const inner = this.alternation();
      if (this.source[this.at] !== ")") throw new Error(`pattern-text: unclosed group in /${this.source}/`);
      this.at += 1;
      return lookahead ? null : inner;
    }
    if (char === "[") return this.charClass();
    if (char === ".") {
      this.at += 1;
      return { kind: "chars", pick: (prng) => prng.pick(UNIVERSE) };
    }
    if (char === "^" || char === "$") {
      this.at += 1;
      return null;
    }
    if (char === "\\") {
      const letter = this.source[this.at + 1]!;
      this.at += 2;
      const set = escapeSet(letter);
      if (set) return { kind: "chars", pick: (prng) => prng.pick(set) };
      const literal = letter === "n" ? "\n" : letter === "t" ? "\t" : letter;
      return { kind: "chars", pick: () => literal };
    }
    this.at += 1;
    return { kind: "chars", pick: () => char };
  }

  private charClass(): Node {
    this.at += 1;
    const negated = this.source[this.at] === "^";
    if (negated) this.at += 1;
    const members: string[] = [];
    let first = true;
    while (this.at < this.source.length && (this.source[this.at] !== "]" || first)) {
      first = false;
      let char = this.source[this.at]!;
      if (char === "\\") {
        const letter = this.source[this.at + 1]!;
        this.at += 2;
        const set = escapeSet(letter);
        if (set) {
          members.push(...set);
          continue;
        }
        char = letter === "n" ? "\n" : letter === "t" ? "\t" : letter;
      } else this.at += 1;
      if (this.source[this.at] === "-" && this.source[this.at + 1] !== "]" && this.at + 1 < this.source.length) {
        let end = this.source[this.at + 1]!;
        this.at += 2;
        if (end === "\\") {
          end = this.source[this.at]!;
          this.at += 1;
        }
        for (let code = char.charCodeAt(0); code <= end.charCodeAt(0); code++) members.push(String.fromCharCode(code));
      } else members.push(char);
    }
    this.at += 1; // ]
    return { kind: "chars", pick: charSet(members, negated) };
  }
}

const compiled = new Map<string, Node>();

/** A random string matched by `pattern` (at most a few dozen characters for `*` and `+`). */
export function textForPattern(pattern: RegExp, prng: Prng): string {
  let node = compiled.get(pattern.source);
  if (!node) compiled.set(pattern.source, (node = new PatternParser(pattern.source).parse()));
  const out: string[] = [];
  const emit = (current: Node): void => {
    switch (current.kind) {
      case "chars":
        out.push(current.pick(prng));
        return;
      case "group":
        for (const child of prng.pick(current.alternatives)) emit(child);
        return;
      case "repeat":
        for (let i = prng.int(current.min, current.max); i > 0; i--) emit(current.node);
        return;
    }
  };
  emit(node);
  return out.join("");
}
