/**
 * A parser for the ClickHouse type strings the YAML definitions use (`Nullable(String)`,
 * `Nested(key String, value String)`, `AggregateFunction(quantiles(0.5, 0.9), Float64)`).
 * It exists so a typo in a definition fails at load time with the file named, instead of as a
 * ClickHouse error when the table is created or first queried; and so DDL and views can see
 * the structure (Nested subcolumns, nullability) without re-parsing text ad hoc.
 */

export type TypeParameter = string | number;

export interface NamedType {
  readonly name: string;
  readonly type: ClickHouseType;
}

export type ClickHouseType =
  /** A type without type arguments: `UInt64`, `String`, `FixedString(32)`, `DateTime64(3)`. */
  | { readonly kind: "scalar"; readonly name: string; readonly params: readonly TypeParameter[] }
  | { readonly kind: "nullable"; readonly inner: ClickHouseType }
  | { readonly kind: "low_cardinality"; readonly inner: ClickHouseType }
  | { readonly kind: "array"; readonly inner: ClickHouseType }
  | { readonly kind: "map"; readonly key: ClickHouseType; readonly value: ClickHouseType }
  | { readonly kind: "tuple"; readonly elements: readonly ClickHouseType[] }
  | { readonly kind: "nested"; readonly fields: readonly NamedType[] }
  | { readonly kind: "enum"; readonly name: string; readonly values: readonly (readonly [string, number])[] }
  | {
      readonly kind: "aggregate_function";
      readonly simple: boolean;
      readonly func: string;
      readonly funcParams: readonly TypeParameter[];
      readonly args: readonly ClickHouseType[];
    };

/** Types that take no arguments at all. */
const PLAIN_TYPES = new Set([
  "UInt8", "UInt16", "UInt32", "UInt64", "UInt128", "UInt256",
  "Int8", "Int16", "Int32", "Int64", "Int128", "Int256",
  "Float32", "Float64", "BFloat16",
  "String", "Date", "Date32", "UUID", "IPv4", "IPv6", "Bool", "Boolean", "JSON", "Nothing",
]);

/** Types whose arguments are literals, with how many they take (min, max). */
const PARAMETRIC_TYPES: Readonly<Record<string, readonly [number, number]>> = {
  FixedString: [1, 1],
  DateTime: [0, 1],
  DateTime64: [1, 2],
  Decimal: [1, 2],
  Decimal32: [1, 1],
  Decimal64: [1, 1],
  Decimal128: [1, 1],
  Decimal256: [1, 1],
};

type Token =
  | { readonly kind: "ident"; readonly text: string; readonly at: number }
  | { readonly kind: "number"; readonly value: number; readonly at: number }
  | { readonly kind: "string"; readonly value: string; readonly at: number }
  | { readonly kind: "punct"; readonly text: "(" | ")" | "," | "="; readonly at: number };

export class ClickHouseTypeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClickHouseTypeError";
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === "(" || ch === ")" || ch === "," || ch === "=") {
      tokens.push({ kind: "punct", text: ch, at: i });
      i += 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i)) as RegExpExecArray;
      tokens.push({ kind: "ident", text: match[0], at: i });
      i += match[0].length;
    } else if (/[-0-9.]/.test(ch)) {
      const match = /^-?[0-9]+(\.[0-9]+)?/.exec(text.slice(i));
      if (!match) throw new ClickHouseTypeError(`unexpected character '${ch}' at offset ${i}`);
      tokens.push({ kind: "number", value: Number(match[0]), at: i });
      i += match[0].length;
    } else if (ch === "'") {
      let j = i + 1;
      let value = "";
      while (j < text.length && text[j] !== "'") {
        if (text[j] === "\\" && j + 1 < text.length) j += 1;
        value += text[j];
        j += 1;
      }
      if (j >= text.length) throw new ClickHouseTypeError(`unterminated string at offset ${i}`);
      tokens.push({ kind: "string", value, at: i });
      i = j + 1;
    } else {
      throw new ClickHouseTypeError(`unexpected character '${ch}' at offset ${i}`);
    }
  }
  return tokens;
}

class TypeParser {
  private pos = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseAll(): ClickHouseType {
    const type = this.parseType();
    const rest = this.tokens[this.pos];
    if (rest) throw new ClickHouseTypeError(`unexpected text after the type at offset ${rest.at}`);
    return type;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isPunct(text: string): boolean {
    const token = this.peek();
    return token?.kind === "punct" && token.text === text;
  }

  private expectPunct(text: "(" | ")" | "," | "="): void {
    if (!this.isPunct(text)) {
      const token = this.peek();
      throw new ClickHouseTypeError(
        token ? `expected '${text}' at offset ${token.at}` : `expected '${text}' but the type ended`,
      );
    }
    this.pos += 1;
  }

  private expectIdent(): string {
    const token = this.peek();
    if (token?.kind !== "ident") {
      throw new ClickHouseTypeError(token ? `expected a name at offset ${token.at}` : "expected a name but the type ended");
    }
    this.pos += 1;
    return token.text;
  }

  /** `(a, b, c)` where each item is parsed by `item`; an empty list is allowed. */
  private parseList<T>(item: () => T): T[] {
    this.expectPunct("(");
    const items: T[] = [];
    if (this.isPunct(")")) {
      this.pos += 1;
      return items;
    }
    for (;;) {
      items.push(item());
      if (this.isPunct(",")) {
        this.pos += 1;
        continue;
      }
      this.expectPunct(")");
      return items;
    }
  }

  private parseLiteral(): TypeParameter {
    const token = this.peek();
    if (token?.kind === "number") {
      this.pos += 1;
      return token.value;
    }
    if (token?.kind === "string") {
      this.pos += 1;
      return token.value;
    }
    throw new ClickHouseTypeError(token ? `expected a literal at offset ${token.at}` : "expected a literal but the type ended");
  }

  private parseType(): ClickHouseType {
    const name = this.expectIdent();
    const hasArgs = this.isPunct("(");
    const one = (): ClickHouseType => {
      const args = this.parseList(() => this.parseType());
      if (args.length !== 1) throw new ClickHouseTypeError(`${name} takes exactly one type argument`);
      return args[0] as ClickHouseType;
    };
    switch (name) {
      case "Nullable":
        return { kind: "nullable", inner: one() };
      case "LowCardinality":
        return { kind: "low_cardinality", inner: one() };
      case "Array":
        return { kind: "array", inner: one() };
      case "Map": {
        const args = this.parseList(() => this.parseType());
        if (args.length !== 2) throw new ClickHouseTypeError("Map takes a key type and a value type");
        return { kind: "map", key: args[0] as ClickHouseType, value: args[1] as ClickHouseType };
      }
      case "Tuple":
        return { kind: "tuple", elements: this.parseList(() => this.parseTupleElement()) };
      case "Nested": {
        const fields = this.parseList(() => ({ name: this.expectIdent(), type: this.parseType() }));
        if (fields.length === 0) throw new ClickHouseTypeError("Nested needs at least one field");
        return { kind: "nested", fields };
      }
      case "Enum8":
      case "Enum16": {
        const values = this.parseList(() => this.parseEnumValue());
        if (values.length === 0) throw new ClickHouseTypeError(`${name} needs at least one value`);
        return { kind: "enum", name, values };
      }
      case "AggregateFunction":
      case "SimpleAggregateFunction":
        return this.parseAggregateFunction(name === "SimpleAggregateFunction");
      default:
        break;
    }
    if (PLAIN_TYPES.has(name)) {
      if (hasArgs) throw new ClickHouseTypeError(`${name} takes no arguments`);
      return { kind: "scalar", name, params: [] };
    }
    const arity = PARAMETRIC_TYPES[name];
    if (!arity) throw new ClickHouseTypeError(`unknown type '${name}'`);
    const params = hasArgs ? this.parseList(() => this.parseLiteral()) : [];
    if (params.length < arity[0] || params.length > arity[1]) {
      throw new ClickHouseTypeError(`${name} takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]} to ${arity[1]}`} argument(s)`);
    }
    return { kind: "scalar", name, params };
  }

  /** Tuple elements may be named (`Tuple(a UInt8, b String)`); names are dropped. */
  private parseTupleElement(): ClickHouseType {
    const first = this.peek();
    const second = this.tokens[this.pos + 1];
    if (first?.kind === "ident" && second?.kind === "ident") this.pos += 1;
    return this.parseType();
  }

  private parseEnumValue(): readonly [string, number] {
    const label = this.parseLiteral();
    if (typeof label !== "string") throw new ClickHouseTypeError("enum labels must be quoted strings");
    this.expectPunct("=");
    const value = this.parseLiteral();
    if (typeof value !== "number") throw new ClickHouseTypeError("enum values must be numbers");
    return [label, value];
  }

  private parseAggregateFunction(simple: boolean): ClickHouseType {
    this.expectPunct("(");
    const func = this.expectIdent();
    const funcParams = this.isPunct("(") ? this.parseList(() => this.parseLiteral()) : [];
    const args: ClickHouseType[] = [];
    while (this.isPunct(",")) {
      this.pos += 1;
      args.push(this.parseType());
    }
    this.expectPunct(")");
    if (simple && args.length !== 1) throw new ClickHouseTypeError("SimpleAggregateFunction takes a function and one type");
    return { kind: "aggregate_function", simple, func, funcParams, args };
  }
}

/** Parses and checks a ClickHouse type string; throws ClickHouseTypeError saying what is wrong. */
export function parseClickHouseType(text: string): ClickHouseType {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ClickHouseTypeError("the type is empty");
  return new TypeParser(tokens).parseAll();
}

export function isNullableType(type: ClickHouseType): boolean {
  if (type.kind === "nullable") return true;
  return type.kind === "low_cardinality" && type.inner.kind === "nullable";
}

/** Renders a parsed type back to ClickHouse text (canonical spacing). */
export function formatClickHouseType(type: ClickHouseType): string {
  const literal = (p: TypeParameter): string => (typeof p === "number" ? String(p) : `'${p.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);
  switch (type.kind) {
    case "scalar":
      return type.params.length === 0 ? type.name : `${type.name}(${type.params.map(literal).join(", ")})`;
    case "nullable":
      return `Nullable(${formatClickHouseType(type.inner)})`;
    case "low_cardinality":
      return `LowCardinality(${formatClickHouseType(type.inner)})`;
    case "array":
      return `Array(${formatClickHouseType(type.inner)})`;
    case "map":
      return `Map(${formatClickHouseType(type.key)}, ${formatClickHouseType(type.value)})`;
    case "tuple":
      return `Tuple(${type.elements.map(formatClickHouseType).join(", ")})`;
    case "nested":
      return `Nested(${type.fields.map((f) => `${f.name} ${formatClickHouseType(f.type)}`).join(", ")})`;
    case "enum":
      return `${type.name}(${type.values.map(([label, value]) => `${literal(label)} = ${value}`).join(", ")})`;
    case "aggregate_function": {
      const func = type.funcParams.length === 0 ? type.func : `${type.func}(${type.funcParams.map(literal).join(", ")})`;
      const name = type.simple ? "SimpleAggregateFunction" : "AggregateFunction";
      return `${name}(${[func, ...type.args.map(formatClickHouseType)].join(", ")})`;
    }
  }
}
