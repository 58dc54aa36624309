/**
 * Where the SnQL front end's time goes, stage by stage, in one process: chevrotain's lexer, the
 * grammar alone (on tokens lexed beforehand), parseSnql (lex + parse + checks) and the whole
 * front end (+ validation + SQL). Not part of `npm run bench`; run it when the grammar changes:
 *
 *   npm run build && node dist/bench/snql/snql-stage-profile.js
 */
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { snqlParser } from "../../src/snql/parser.js";
import { snqlLexer } from "../../src/snql/tokens.js";
import { measureThroughput } from "../measure-throughput.js";
import { SNQL_CORPUS } from "./snql-corpus.js";

const registry = defaultRegistry();
const lexed = new Map(SNQL_CORPUS.map((text) => [text, snqlLexer.tokenize(text).tokens]));
const stages: [string, (text: string) => unknown][] = [
  ["lex", (text) => snqlLexer.tokenize(text)],
  [
    "parse (tokens lexed beforehand)",
    (text) => {
      snqlParser.text = text;
      snqlParser.input = lexed.get(text)!;
      return snqlParser.query();
    },
  ],
  ["parseSnql (lex + parse + checks)", parseSnql],
  ["front end (+ validation + SQL)", (text) => prepareSnqlQuery(registry, text, false).sql],
];
for (let round = 1; round <= 2; round++) {
  const figures = stages.map(([name, run]) => `${name} ${measureThroughput(SNQL_CORPUS, run, 2000).medianMicros} µs`);
  console.log(`round ${round} (medians): ${figures.join("; ")}`);
}
