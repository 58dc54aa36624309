/**
 * Conformance with Snuba: queries taken from getsentry/snuba's own tests (the file and test named
 * on each case), adapted to the fixture server's known rows (2024-01-01, events in projects 1 and
 * 2, two transactions of 120 and 480 ms in project 1), run end to end on the embedded engine.
 * Each case expects what Snuba's code gives, or a documented better outcome (a typed 400 where
 * Snuba fails in ClickHouse). Families: aliases that reuse a column's name, alias characters,
 * cyclic aliases, custom and Sentry-used functions, `=`/IN on the time column, typing errors
 * before ClickHouse, LIMIT BY an aggregate alias, MQL histograms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

const FROM = "2024-01-01T00:00:00";
const TO = "2024-01-02T00:00:00";
const EVENTS = `timestamp >= toDateTime('${FROM}') AND timestamp < toDateTime('${TO}') AND project_id IN tuple(1)`;
const METRICS = `org_id = 1 AND project_id = 1 AND metric_id = 1 AND timestamp >= toDateTime('${FROM}') AND timestamp < toDateTime('${TO}')`;
const TRANSACTIONS = `finish_ts >= toDateTime('${FROM}') AND finish_ts < toDateTime('${TO}') AND project_id IN tuple(1)`;

interface Case {
  /** The Snuba test the query comes from (getsentry/snuba, path::test). */
  readonly from: string;
  readonly dataset: string;
  readonly query: string;
  /** "ok", or the error Snuba's code (or a documented better outcome) gives: type and message fragment. */
  readonly expect: "ok" | { readonly type: string; readonly message: string | RegExp };
  readonly check?: (json: Body) => void;
}

const CASES: readonly Case[] = [
  // Aliases that reuse a column's name: inside its own definition the name is the column.
  {
    from: "tests/test_snql_api.py::test_profile_id",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT profile_id AS profile_id WHERE ${TRANSACTIONS} LIMIT 10`,
    expect: "ok",
    check: (json) => expect(json.data).toHaveLength(2),
  },
  {
    from: "tests/test_snql_api.py::test_profiler_id",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT profiler_id AS profiler_id WHERE ${TRANSACTIONS} LIMIT 10`,
    expect: "ok",
  },
  {
    from: "tests/test_snql_api.py::test_alias_columns_in_output (partition aliased to itself)",
    dataset: "events",
    query: `MATCH (events) SELECT toString(project_id) AS project_id, count() AS c BY project_id WHERE ${EVENTS}`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ project_id: "1", c: 3 }]),
  },
  {
    from: "tests/test_snql_api.py::test_low_cardinality_processor (columns aliased to themselves)",
    dataset: "discover",
    query: `MATCH (discover) SELECT title AS title, platform AS platform, event_id AS event_id WHERE ${EVENTS} AND type = 'error' ORDER BY title ASC LIMIT 2`,
    expect: "ok",
    check: (json) => expect(json.data[0]).toMatchObject({ title: "ValueError: boom 0", platform: "python" }),
  },
  {
    from: "tests/test_snql_api.py::test_wrap_log_fn_with_ifnotfinite",
    dataset: "events",
    query:
      `MATCH (events SAMPLE 1.0) SELECT multiply(toUInt64(max(timestamp)), 1000) AS last_seen, count() AS times_seen, ` +
      `toUInt64(plus(multiply(log(times_seen), 600), last_seen)) AS priority, uniq(group_id) AS total BY group_id WHERE ${EVENTS}`,
    expect: "ok",
    check: (json) => expect(json.data).toHaveLength(3),
  },
  {
    from: "tests/test_generic_metrics_api.py::test_retrieval_basic (aliased to the column it sums)",
    dataset: "generic_metrics",
    query: `MATCH (generic_metrics_counters) SELECT sum(value) AS value BY project_id, org_id WHERE ${METRICS} GRANULARITY 60`,
    expect: "ok",
    check: (json) => {
      expect(json.sql).toContain("sumMerge(value) AS _snuba_value");
      expect(json.data).toEqual([]);
    },
  },
  {
    from: "tests/test_generic_metrics_api.py::test_retrieval_basic_weighted",
    dataset: "generic_metrics",
    query: `MATCH (generic_metrics_counters) SELECT sum_weighted(value) AS total BY project_id, org_id WHERE ${METRICS} GRANULARITY 60`,
    expect: "ok",
  },
  {
    from: "tests/test_generic_metrics_api.py::test_arbitrary_granularity",
    dataset: "generic_metrics",
    query: `MATCH (generic_metrics_counters) SELECT sum(value) AS total BY project_id, org_id WHERE ${METRICS} GRANULARITY 3600`,
    expect: "ok",
  },
  // Alias characters Snuba's ALIAS class accepts.
  {
    from: "tests/test_snql_api.py::test_alias_allowances",
    dataset: "events",
    query: `MATCH (events) SELECT count() AS equation[0] WHERE ${EVENTS}`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ "equation[0]": 3 }]),
  },
  {
    from: "tests/test_snql_api.py::test_alias_columns_in_output",
    dataset: "events",
    query: `MATCH (events) SELECT transaction AS tn, count() AS equation[0] BY project_id AS pi, transaction AS tn WHERE ${EVENTS}`,
    expect: "ok",
    check: (json) => {
      expect(json.data).toHaveLength(1);
      expect(json.meta.map((m: { name: string }) => m.name)).toEqual(["pi", "tn", "equation[0]"]);
    },
  },
  {
    from: "tests/test_snql_api.py::test_missing_alias_bug",
    dataset: "events",
    query: `MATCH (events) SELECT group_id, count(), divide(uniq(tags[url]) AS a+*, 1) BY group_id WHERE ${EVENTS} ORDER BY count() DESC LIMIT 3`,
    expect: "ok",
    check: (json) => expect(json.data).toHaveLength(3),
  },
  {
    from: "tests/test_snql_api.py::test_duplicate_alias_bug",
    dataset: "discover",
    query:
      `MATCH (discover) SELECT count() AS count, tags[browser] AS url, tags[browser] AS http.url BY tags[browser] AS http.url, tags[browser] AS url ` +
      `WHERE ${EVENTS} ORDER BY count() AS count DESC LIMIT 51 OFFSET 0`,
    expect: "ok",
    // The two transactions of discover have no browser tag: the '' group.
    check: (json) =>
      expect(json.data).toEqual(
        expect.arrayContaining([
          { count: 2, url: "Chrome", "http.url": "Chrome" },
          { count: 1, url: "Firefox", "http.url": "Firefox" },
          { count: 2, url: "", "http.url": "" },
        ]),
      ),
  },
  // Cyclic aliases: Snuba's CyclicAliasException, as invalid_query naming the cycle.
  {
    from: "tests/query/parser/test_parser.py (cyclic aliases f(a) AS b, f(b) AS a)",
    dataset: "events",
    query: `MATCH (events) SELECT plus(b, 1) AS a, plus(a, 1) AS b WHERE ${EVENTS}`,
    expect: { type: "invalid_query", message: "cyclic aliases: a -> b -> a" },
  },
  {
    from: "tests/query/parser/test_parser.py (f(g(a) AS b) AS a)",
    dataset: "events",
    query: `MATCH (events) SELECT plus(plus(project_id, 1) AS b, 1) AS project_id WHERE ${EVENTS}`,
    expect: { type: "invalid_query", message: "cyclic aliases: project_id -> b -> project_id" },
  },
  // Snuba's custom functions, expanded by the entity's processors.
  {
    from: "tests/test_transactions_api.py::test_apdex_function",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT apdex(duration, 300) AS apdex_duration_300 WHERE ${TRANSACTIONS}`,
    expect: "ok",
    // 120 ms is satisfied, 480 ms tolerated (<= 4 x 300): (1 + 1/2) / 2.
    check: (json) => expect(json.data).toEqual([{ apdex_duration_300: 0.75 }]),
  },
  {
    from: "tests/test_transactions_api.py::test_failure_rate_function",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT failure_rate() AS error_percentage WHERE ${TRANSACTIONS}`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ error_percentage: 0 }]),
  },
  {
    from: "tests/test_api.py::test_is_handled",
    dataset: "events",
    query: `MATCH (events) SELECT isHandled() AS handled, notHandled() AS unhandled, count() AS c BY handled, unhandled WHERE ${EVENTS}`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ handled: 1, unhandled: 0, c: 3 }]),
  },
  {
    from: "snuba DummyHandledFunctionsProcessor (transactions)",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT countIf(notHandled()) AS unhandled WHERE ${TRANSACTIONS}`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ unhandled: 0 }]),
  },
  {
    from: "tests/datasets/test_discover.py (apdex on an entity without it)",
    dataset: "events",
    query: `MATCH (events) SELECT apdex(duration, 300) WHERE ${EVENTS}`,
    expect: { type: "invalid_query", message: "apdex() is a Snuba custom function that entity 'events' does not provide" },
  },
  // ClickHouse functions Sentry's query builders emit.
  {
    from: "tests/test_api.py::test_complex_order (substringUTF8)",
    dataset: "events",
    query: `MATCH (events) SELECT substringUTF8(environment, 1, 3) AS env, count() AS c BY env WHERE ${EVENTS} ORDER BY substringUTF8(environment, 1, 3) DESC`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ env: "pro", c: 3 }]),
  },
  {
    from: "sentry team key transactions (transform)",
    dataset: "transactions",
    query:
      `MATCH (transactions) SELECT transform(duration, array(120, 480), array('fast', 'slow'), 'other') AS speed, count() AS c ` +
      `BY speed WHERE ${TRANSACTIONS} ORDER BY speed ASC`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ speed: "fast", c: 1 }, { speed: "slow", c: 1 }]),
  },
  {
    from: "tests/test_snql_api.py::test_suspect_spans_data (arrayReduce with a lambda in arrayMap)",
    dataset: "transactions",
    query:
      "MATCH (transactions) SELECT arrayReduce('sumIf', spans.exclusive_time_32, arrayMap((`x`, `y`) -> if(equals(and(equals(`x`, 'db'), equals(`y`, '05029609156d8133')), 1), 1, 0), spans.op, spans.group)) AS array_spans_exclusive_time " +
      `WHERE ${TRANSACTIONS} AND duration < 900000.0`,
    expect: "ok",
  },
  {
    from: "tests/query/snql/test_query.py (arrayMap with identity)",
    dataset: "events",
    query: `MATCH (events) SELECT arrayMap((\`x\`) -> identity(\`x\`), tags.key) AS keys WHERE ${EVENTS} ORDER BY keys ASC LIMIT 1`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ keys: ["level", "sentry:release", "browser"] }]),
  },
  // `=` or IN on the time column stands in for the >=/< pair.
  {
    from: "snuba/query/snql/parser.py::_align_max_days_date_align (= on the time column)",
    dataset: "events",
    query: "MATCH (events) SELECT count() AS c WHERE project_id = 1 AND timestamp = toDateTime('2024-01-01T01:00:00')",
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ c: 1 }]),
  },
  {
    from: "snuba/query/snql/parser.py::_align_max_days_date_align (IN on the time column)",
    dataset: "events",
    query: "MATCH (events) SELECT count() AS c WHERE project_id = 1 AND timestamp IN tuple(toDateTime('2024-01-01T01:00:00'), toDateTime('2024-01-01T02:00:00'))",
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ c: 2 }]),
  },
  // Typing errors caught before ClickHouse.
  {
    from: "tests/test_snql_api.py::test_invalid_tag_queries",
    dataset: "discover",
    query:
      "MATCH (discover) SELECT count() AS `count` BY time, tags[error_code] AS `error_code`, tags[count] AS `count` " +
      `WHERE ifNull(tags[user_flow], '') = 'buy' AND ${EVENTS} AND environment = 'www.something.com' AND tags[error_code] = '2300' AND tags[count] = 4`,
    expect: { type: "invalid_query", message: "invalid tag condition on 'tags[count]': 4 must be a string" },
  },
  {
    from: "tests/test_snql_api.py::test_invalid_tag_queries (IN)",
    dataset: "discover",
    query:
      "MATCH (discover) SELECT count() AS `count` BY time, tags[error_code] AS `error_code` " +
      `WHERE ${EVENTS} AND tags[error_code] IN array('2300') AND tags[count] IN array(419, 70, 175, 181, 58)`,
    expect: { type: "invalid_query", message: "invalid tag condition on 'tags[count]': array literal 419 must be a string" },
  },
  {
    from: "tests/datasets/validation/test_datetime_condition_checker.py (a bare epoch)",
    dataset: "events",
    query: `MATCH (events) SELECT count() WHERE ${EVENTS} AND received > 1726374214000`,
    expect: { type: "invalid_query", message: "received requires datetime conditions: '1726374214000' is not a valid datetime" },
  },
  {
    from: "tests/test_snql_api.py::test_datetime_condition_types",
    dataset: "discover",
    query:
      "MATCH (discover) SELECT uniq(user) AS `count_unique_user`, uniq(user) AS `count_unique_user` BY time, received AS `error.received` " +
      `WHERE type != 'transaction' AND ${EVENTS} AND environment = 'PROD' AND received IN array('2023-01-25T20:03:13+00:00', '2023-01-25T20:03:13')`,
    expect: "ok",
  },
  {
    from: "tests/test_snql_api.py::test_datetime_condition_types (not a datetime)",
    dataset: "discover",
    query: `MATCH (discover) SELECT count() WHERE ${EVENTS} AND received IN array('yesterday')`,
    expect: { type: "invalid_query", message: "'yesterday' is not a datetime" },
  },
  // Discover columns that only one half (errors or transactions) has: typed, NULL or [] in the other half.
  {
    from: "tests/test_snql_api.py::test_transaction_group_ids_with_results",
    dataset: "discover",
    query: `MATCH (discover) SELECT count() AS count BY time WHERE group_ids = 100 AND ${EVENTS} ORDER BY time ASC LIMIT 10000`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([]),
  },
  {
    from: "tests/test_discover_api.py (arrayExists over group_ids)",
    dataset: "discover",
    query: `MATCH (discover) SELECT has(group_ids, 100) AS h, count() AS c BY h WHERE arrayExists((\`x\`) -> greater(\`x\`, 0), group_ids) = 0 AND ${EVENTS}`,
    expect: "ok",
    // Three errors (no group_ids: []) and two transactions (group_ids not set: []).
    check: (json) => expect(json.data).toEqual([{ h: 0, c: 5 }]),
  },
  {
    from: "tests/test_discover_api.py (one-sided columns: duration, level, measurements)",
    dataset: "discover",
    query: `MATCH (discover) SELECT type, avg(duration) AS d, countIf(level = 'error') AS errors, max(measurements[lcp]) AS lcp BY type WHERE ${EVENTS} ORDER BY type ASC`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([
      { type: "error", d: null, errors: 2, lcp: null },
      { type: "transaction", d: 300, errors: 0, lcp: null },
    ]),
  },
  // LIMIT BY an aggregate through its alias.
  {
    from: "tests/test_snql_api.py::test_alias_limitby_aggregator",
    dataset: "transactions",
    query: `MATCH (transactions) SELECT count() AS \`count\` WHERE ${TRANSACTIONS} LIMIT 1 BY count`,
    expect: "ok",
    check: (json) => {
      expect(json.sql).toContain("LIMIT 1 BY _snuba_count");
      expect(json.data).toEqual([{ count: 2 }]);
    },
  },
  // Queries that already worked, kept so they stay working.
  {
    from: "tests/test_snql_api.py::test_simple_query",
    dataset: "discover",
    query: `MATCH (discover_events) SELECT count() AS count BY project_id, tags[browser] WHERE type != 'transaction' AND ${EVENTS} ORDER BY count ASC LIMIT 1000`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([
      { count: 1, project_id: 1, "tags[browser]": "Firefox" },
      { count: 2, project_id: 1, "tags[browser]": "Chrome" },
    ]),
  },
  {
    from: "tests/test_snql_api.py::test_sub_query",
    dataset: "discover",
    query: `MATCH { MATCH (discover_events) SELECT count() AS count BY project_id, tags[browser] WHERE type != 'transaction' AND ${EVENTS} } SELECT avg(count) AS avg_count ORDER BY avg_count ASC LIMIT 1000`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ avg_count: 1.5 }]),
  },
  {
    from: "tests/test_snql_api.py::test_max_limit",
    dataset: "discover",
    query: `MATCH (discover_events) SELECT count() AS count BY project_id WHERE ${EVENTS} ORDER BY count ASC LIMIT 100000`,
    expect: { type: "invalid_query", message: "queries cannot have a limit higher than 10000" },
  },
  {
    from: "tests/test_snql_api.py::test_escape_edge_cases",
    dataset: "events",
    query: `MATCH (events) SELECT count() AS times_seen WHERE ${EVENTS} AND environment = '\\\\\\' \\n \\\\n \\\\'`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ times_seen: 0 }]),
  },
  {
    from: "tests/test_snql_api.py::test_ifnull_condition_experiment",
    dataset: "discover",
    query: `MATCH (discover) SELECT count() AS count WHERE ${EVENTS} AND type = 'error' AND ifNull(tags[cache_status], '') = '' LIMIT 50`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([{ count: 3 }]),
  },
  {
    from: "tests/test_snql_api.py::test_join_query",
    dataset: "events",
    query:
      "MATCH (e: events) -[grouped]-> (gm: groupedmessage) SELECT e.group_id, gm.status, avg(e.retention_days) AS avg BY e.group_id, gm.status " +
      `WHERE e.project_id = 1 AND gm.project_id = 1 AND e.timestamp >= toDateTime('${FROM}') AND e.timestamp < toDateTime('${TO}') ORDER BY e.group_id ASC`,
    expect: "ok",
    check: (json) => expect(json.data).toEqual([
      { "e.group_id": 100, "gm.status": 0, avg: 90 },
      { "e.group_id": 101, "gm.status": 1, avg: 90 },
    ]),
  },
  {
    from: "tests/test_snql_api.py::test_clickhouse_type_mismatch_error",
    dataset: "discover",
    query: `MATCH (discover_events) SELECT count() WHERE type != 'transaction' AND ${EVENTS} AND project_id IN array('one', 'two') LIMIT 1000`,
    // Snuba answers ClickHouse's error, a 400 with the engine's code; so does Quarry.
    expect: { type: "columnstore", message: /'one'/ },
  },
  {
    from: "tests/test_snql_api.py::test_invalid_column (on events: Quarry has no outcomes dataset)",
    dataset: "events",
    query: `MATCH (events) SELECT fake_column WHERE ${EVENTS} LIMIT 1 OFFSET 0`,
    expect: { type: "invalid_query", message: "column 'fake_column' does not exist on entity 'events'" },
  },
];

async function post(dataset: string, query: string): Promise<{ status: number; json: Body }> {
  const response = await fetch(`${server.baseUrl}/${dataset}/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, debug: true, tenant_ids: { organization_id: 1, referrer: "test.snuba-conformance" } }),
  });
  return { status: response.status, json: JSON.parse(await response.text()) as Body };
}

describe("conformance with Snuba's own tests, on the embedded engine", () => {
  for (const testCase of CASES) {
    it(`${testCase.from}`, async () => {
      const { status, json } = await post(testCase.dataset, testCase.query);
      if (testCase.expect === "ok") {
        expect(json.error, `${testCase.query}\n${JSON.stringify(json.error)}`).toBeUndefined();
        expect(status).toBe(200);
      } else {
        expect(status, JSON.stringify(json)).toBe(400);
        expect(json.error?.type).toBe(testCase.expect.type);
        if (typeof testCase.expect.message === "string") expect(json.error.message).toContain(testCase.expect.message);
        else expect(json.error.message).toMatch(testCase.expect.message);
      }
      testCase.check?.(json);
    });
  }
});
