/**
 * A corpus of invalid SnQL: each query fails with `invalid_query`, a message naming what is wrong,
 * and the line and column of the offending element (also in the message where Snuba names it).
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";

const registry = defaultRegistry();
const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const ER = "e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00')";
const TX = "finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')";
const METRICS = `org_id = 1 AND project_id = 1 AND metric_id = 1 AND ${R}`;
const JOIN = "MATCH (e: events) -[grouped]-> (g: groupedmessage)";

/** [query, message fragment, line, column] */
const CORPUS: readonly [string, string | RegExp, number, number][] = [
  // required time range and required columns
  ["MATCH (events) SELECT count() WHERE project_id = 1", "Missing >= condition with a datetime literal on column timestamp for entity events. Example:", 1, 8],
  ["MATCH (events) SELECT count() WHERE timestamp >= toDateTime('2024-01-01T00:00:00') AND project_id = 1", "Missing < condition", 1, 8],
  [`MATCH (events) SELECT count() WHERE ${R}`, "missing required conditions for project_id", 1, 8],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE project_id = 1 AND metric_id = 1 AND ${R}`, "missing required conditions for org_id", 1, 8],
  // unknown columns, aliases, functions, entities, storages
  [`MATCH (events) SELECT count()\nWHERE ${R} AND project_id = 1 AND projct_id = 2`, "column 'projct_id' does not exist on entity 'events' at line 2, column 127 (did you mean 'project_id'?)", 2, 127],
  [`MATCH (events) SELECT tags[x] AS t, t2 WHERE ${R} AND project_id = 1`, "column 't2' does not exist on entity 'events' at line 1, column 37 (did you mean 't'?)", 1, 37],
  [`MATCH (events) SELECT cnt() WHERE ${R} AND project_id = 1`, "unknown function 'cnt' at line 1, column 23", 1, 23],
  ["MATCH (evnts) SELECT count()", "entity 'evnts' does not exist at line 1, column 8 (did you mean 'events'?)", 1, 8],
  [`MATCH STORAGE(errorz) SELECT count() WHERE ${R}`, "storage 'errorz' does not exist at line 1, column 15 (did you mean 'errors'?)", 1, 15],
  [`MATCH STORAGE(errors) SELECT nope WHERE ${R}`, "column 'nope' does not exist on storage 'errors'", 1, 30],
  ["MATCH STORAGE(errors) SELECT count() WHERE project_id = 1", "Missing >= condition with a datetime literal on column timestamp for storage errors", 1, 15],
  [`MATCH (events) SELECT constructor[x] WHERE ${R} AND project_id = 1`, "'constructor[...]' cannot be subscripted on entity 'events'", 1, 23],
  [`MATCH (metrics_counters) SELECT sum(value) BY tags[abc] WHERE ${METRICS}`, "Expected a string key containing an integer", 1, 47],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND event_id = 'not-a-uuid'`, "Not a valid UUID string: 'not-a-uuid' for column event_id at line 1, column 168", 1, 168],
  [`${JOIN} SELECT count() WHERE ${ER} AND e.project_id = 1 AND g.project_id = 1 AND e.event_id IN tuple('00000000000040008000000000000000', 'x')`, "Not a valid UUID string: 'x'", 1, 276],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND received > 'yesterday'`, "'yesterday' is not a datetime, and column received holds datetimes", 1, 168],
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 AND start_ts IN tuple('2024-01-01', '01/02/2024')`, "'01/02/2024' is not a datetime", 1, 195],
  // a text a call computes from literals is held to the literal's rule (ClickHouse folds it; code 41 beside a key column)
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND received > toString(10)`, "toString(…) (the text '10') is not a datetime, and column received holds datetimes", 1, 168],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND received IN tuple(lower('2024-01-01'), concat('x', 'y'))`, "concat(…) (the text 'xy') is not a datetime", 1, 196],
  // an array compared with a scalar (codes 43, 386 and 130 otherwise), whatever its elements
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND tags[x] = array(NULL)`, "array(…) at line 1, column 167 is an array of NULLs (an Array(Nullable(Nothing))), and equals (=) compares it with tags[x] at line 1, column 157, a string: ClickHouse compares an array only with an array", 1, 167],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND array(title, 1) <= 18446744073709551616`, "18446744073709551616 at line 1, column 176 is a float: lessOrEquals (<=) does not take them together", 1, 176],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND array(title, 1) = 'fatal'`, "compares it with 'fatal' at line 1, column 175, a string", 1, 157],
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 AND array(title) != type`, "compares it with column type at line 1, column 179, a string", 1, 163],
  // a column an entity maps to a text is compared as that text (code 41 otherwise)
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 AND message_timestamp < type`, "column type at line 1, column 183 (the text 'transaction') is not a datetime, and less (<) compares it with column message_timestamp", 1, 183],
  // a date no calendar has, compared with a DateTime (found by the fuzz: code 41 in ClickHouse)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND '2024-13-45T25:61:61' = now()`, "'2024-13-45T25:61:61' at line 1, column 162 is not a datetime, and equals (=) compares it with now(…)", 1, 162],
  // ifNull or coalesce of a text first is that text (found by the fuzz: ClickHouse cannot convert it)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ifNull('abc', title) >= 0`, "ifNull(…) at line 1, column 162 (the text 'abc') is not an unsigned integer", 1, 162],
  // a time bucket on the right of IN is a value computed per row, compared as = compares (code 41 otherwise)
  [`MATCH (org_metrics_counters) SELECT count() AS c WHERE org_id = 1 AND project_id = 1 AND ${R} AND 'x' IN bucketed_time`, "'x' at line 1, column 191 is not a datetime, and in (IN) compares it with column bucketed_time", 1, 191],
  // an array of NULLs (here of columns discover computes as NULL) where no array is taken (fuzz: code 43)
  [`MATCH (discover) SELECT array(site, site) - measurements[cls] AS m WHERE project_id = 2 AND ${R}`, "array(…) at line 1, column 25 is an array of NULLs (an Array(Nullable(Nothing))), and minus (-) at line 1, column 43 takes none of an array of strings or an array of integers there", 1, 25],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND array(NULL) LIKE title`, "is an array of NULLs (an Array(Nullable(Nothing))), and like (LIKE)", 1, 162],
  // an array of Nullable numbers where arithmetic refuses Nullable elements (fuzz: code 43)
  [`MATCH (discover) SELECT user - array(exception_frames.function, 0.5, 0.95) AS e WHERE project_id = 3 AND ${R}`, "array(…) at line 1, column 32 is an array of Nullable numbers, and minus (-) at line 1, column 30 takes none of", 1, 25],
  // an array of a float literal is an Array(Float64), which divide takes only beside a number (fuzz: code 43)
  [`MATCH (discover) SELECT geo_country_code AS total, groupUniqArray(0.000001) / any(span_op_breakdowns.value) AS p95 BY geo_country_code WHERE project_id IN tuple(1, 2, 3) AND ${R}`, "groupUniqArray(…) at line 1, column 52 is an Array(Float64) and any(…) at line 1, column 79 is an Array(Float64): divide (/) does not take them together", 1, 79],
  // a comparison is a UInt8 (or a Nullable one) whatever it compares: not a UUID's match (fuzz: code 43)
  [`MATCH (eap_items) SELECT project_id WHERE ${R} AND trace_id = (item_id < attributes_float[runtime])`, "less(…) at line 1, column 164 is one of a small integer (UInt8) or a small integer (UInt8) (Nullable) (which one depends on its arguments' exact types), and equals (=)", 1, 164],
  // isNotNull of such a comparison is still a UInt8 (a false acceptance found by the session's verdict check)
  [`MATCH (discover_transactions) SELECT tags_value WHERE isNotNull(span_op_breakdowns[ops.db] != ip_address_v4 + 1) > substring(contexts[runtime.name], transaction_status, transaction_hash) AND project_id = 1 AND ${TX}`, "isNotNull(…) at line 1, column 55 is a small integer (UInt8) and substring(…) at line 1, column 116 is a string: greater (>) does not take them together", 1, 116],
  // a tuple looked for in a list of another size (the seed-2 fuzz run's one 5xx: code 124)
  [`MATCH (discover) SELECT username WHERE (tuple(1000, exception_frames.in_app) IN tuple(modules.version)) AND project_id = 3 AND ${R}`, "tuple(…) at line 1, column 41 is a tuple of 2, and in (IN) looks for it in a list of 1 value, which ClickHouse reads as one tuple of 1", 1, 81],
  [`MATCH (events) SELECT title WHERE project_id = 1 AND ${R} AND tuple(title, project_id) NOT IN tuple(tuple('a', 1), tuple('b'))`, "a list holding a tuple of 1 at line 1, column 208", 1, 208],
  // an aggregate's array of states, or of an array variant, is still an array (seed-2 fuzz: code 43)
  [`MATCH (generic_metrics_sets) SELECT count() - groupUniqArray(value) AS x BY metric_id WHERE project_id IN tuple(1, 2, 3) AND org_id = 1 AND ${R}`, "groupUniqArray(…) at line 1, column 47 is an array of values of a type the typing pass names no array for, and minus (-) at line 1, column 45 takes none of", 1, 47],
  [`MATCH (events) SELECT count() - groupUniqArray(exception_frames.abs_path) AS level WHERE project_id = 1 AND ${R}`, "groupUniqArray(…) at line 1, column 33 is an array of values", 1, 33],
  // a call of a NULL is a Nothing, refused where a NULL is (seed-2 fuzz: code 43)
  [`MATCH (replays) SELECT count() AS c WHERE project_id = 2 AND ${R} AND has(toStartOfHour(NULL), 0) >= 0.5`, "toStartOfHour(…) at line 1, column 167 is a call of a NULL, of type Nothing as a NULL is, and has does not take a NULL as argument 1 of 2", 1, 167],
  // a mapped aggregate takes the parameters the plain one does (quantilesMerge()(state): seed-2 fuzz, code 42)
  [`MATCH (metrics_distributions) SELECT quantiles()(value) AS q BY metric_id WHERE project_id = 1 AND org_id = 1 AND ${R}`, "quantiles at line 1, column 38 does not take 0 parameters (in its first parentheses): it takes 1 or more", 1, 38],
  // a number and an array of states go element by element: a float times a state (seed-2 fuzz: code 43)
  // exact integer types: a UInt64 beside a signed integer past two arguments, a 64-bit integer beside a float, a greatest of a UInt64 as a condition
  [`MATCH (replays) SELECT greatest(count_urls, offset - 3, viewed_by_id) AS g WHERE project_id = 1 AND ${R}`, "minus(…) at line 1, column 52 is an Int64 and column viewed_by_id at line 1, column 57 is a UInt64: greatest does not take them together (past two arguments", 1, 57],
  [`MATCH (events) SELECT greatest(count(), 1.5) AS g WHERE project_id = 1 AND ${R}`, "count(…) at line 1, column 32 is a UInt64 and 1.5 at line 1, column 41 is a float: greatest does not take them together (no float holds every 64-bit integer", 1, 41],
  [`MATCH (profiles) SELECT uniqIf(device_os_name, greatest(android_api_level, FALSE, organization_id)) AS u WHERE organization_id = 1 AND project_id = 1 AND received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00')`, "greatest(…) at line 1, column 48 is an integer (Nullable), and uniqIf does not take an integer (Nullable) as argument 2 of 2", 1, 48],
  // an if of a NULL branch beside an array is a Variant of the array (no Nullable of an array exists), judged per alternative
  [`MATCH (discover_transactions) SELECT if(divide(0.5, NULL), modules.version, array(dist, NULL, geo_city)) * group_ids AS x WHERE project_id = 3 AND ${TX}`, "if(…) at line 1, column 38 is a Variant of an Array(Nullable(String)) (a NULL branch beside an array, of which no Nullable exists), and its conditions pick the branch of an Array(Nullable(String)) for every row", 1, 38],
  // greatest of small integers and a Nullable float is a Nullable float; greatest of a NULL and an IP is a Nullable IP; tuples of two sizes in greatest
  [`MATCH (transactions) SELECT release WHERE (concat(http_referer, 's') < greatest(deleted, retention_days, span_op_breakdowns[ops.http])) AND project_id = 1 AND ${TX}`, "greatest(…) at line 1, column 72 is a float (Nullable): less (<) does not take them together", 1, 72],
  [`MATCH (search_issues) SELECT http_referer AS h WHERE ${R} AND project_id = 1 AND (greatest(NULL, ip_address_v6) = FALSE)`, "greatest(…) at line 1, column 175 is an IPv6 (Nullable) and false at line 1, column 207 is a boolean (Bool): equals (=) does not take them together", 1, 207],
  [`MATCH (transactions) SELECT dist AS d WHERE ${TX} AND project_id = 2 AND (1 = greatest(tuple(transaction_name, 'x', finish_ts), tuple(duration)))`, "tuple(…) at line 1, column 179 is a tuple of 3 and tuple(…) at line 1, column 220 one of 1: greatest compares tuples only of one size", 1, 220],
  // an aggregate curried with a size has the plain call's type (topK()(time) is an Array(DateTime))
  [`MATCH (events) SELECT tags[os.name], topK()(time) / TRUE AS t BY tags[os.name] WHERE ${R} AND project_id = 1`, "topK(…) at line 1, column 38 is an Array(DateTime), and divide (/) does not take an Array(DateTime) as argument 1 of 2", 1, 38],
  // an aggregate's array of Booleans compared with a number
  [`MATCH (replays) SELECT tap_message, count() AS c BY tap_message WHERE project_id = 1 AND ${R} HAVING count() < groupUniqArray(TRUE)`, "count(…) at line 1, column 194 is an integer and groupUniqArray(…) at line 1, column 204 is an Array(Bool): less (<) does not take them together as arguments 1 and 2", 1, 204],
  // an if of a UInt64 and a float (no common type: a Variant) as an ORDER BY key
  [`MATCH (events) SELECT title WHERE project_id = 1 AND ${R} ORDER BY multiIf(isNotNull(1), greatest(span_id, project_id), 99999999999999999999999) DESC`, "multiIf(…) at line 1, column 160 is a value of mixed types (a Variant: its branches have no common type), and ORDER BY cannot use it as a key", 1, 160],
  // seventh session: arrays of numbers judged by their elements, Array(UInt32), an Array(Bool) divided, a Bool AND a NULL
  [`MATCH (discover) SELECT title WHERE ${R} AND project_id = 1 AND (array(span_op_breakdowns[ops.http] > 1) != tags.value)`, "array(…) at line 1, column 158 is an array of Nullable numbers, and notEquals (!=) at line 1, column 198 takes none of", 1, 201],
  [`MATCH (metrics_distributions) SELECT granularity WHERE ${METRICS} AND ('error' IN array(granularity))`, "array(…) at line 1, column 221 is an Array(UInt32), and has at line 1, column 218 takes none of an array of integers or an Array(UInt8) there", 1, 210],
  [`MATCH (eap_items) SELECT project_id - array(attributes_bool[handled]) / client_sample_rate AS x WHERE ${R}`, "column project_id at line 1, column 26 is an integer and divide(…) at line 1, column 71 is an Array(Float64): minus (-) does not take them together as arguments", 1, 71],
  [`MATCH (events) SELECT title WHERE ${R} AND project_id = 1 AND like(title, TRUE AND NULL) = 1`, "and(…) at line 1, column 172 is a boolean (Bool) (Nullable), and like (LIKE) does not take a boolean (Bool) (Nullable) as argument 2 of 2", 1, 172],
  [`MATCH (search_issues) SELECT tags[browser] AS c, avg(project_id) / argMin(tags.key, sdk_name) AS a BY tags[browser] WHERE ${R} AND project_id = 1`, "argMin(…) at line 1, column 68 is an array of strings, and divide (/) does not take an array of strings as argument 2 of 2", 1, 68],
  [`MATCH (generic_metrics_distributions) SELECT arrayCount((\`k\`) -> toStartOfDay(timestamp), tags.value) / granularity AS a WHERE ${METRICS}`, "the lambda at line 1, column 57 returns toStartOfDay(…) at line 1, column 66, a datetime, and arrayCount does not take a lambda that returns a datetime", 1, 66],
  // … and ORDER BY keys ClickHouse cannot sort by (code 44): an array of states, an if of a map and a number, arrays of mixed numbers or of a string and a condition, a function of a Variant
  [`MATCH (generic_metrics_gauges) SELECT groupUniqArray(sum) AS p95 WHERE ${METRICS} ORDER BY p95 ASC`, "column p95 at line 1, column 230 is an array of aggregate states, and ORDER BY cannot compare aggregate states", 1, 230],
  [`MATCH (eap_items) SELECT if(item_type, attributes_bool, project_id) AS time WHERE ${R} ORDER BY time DESC`, "column time at line 1, column 189 is a value of mixed types (a Variant: its branches have no common type), and ORDER BY cannot use it as a key", 1, 189],
  [`MATCH (events) SELECT title WHERE ${R} AND project_id = 1 ORDER BY array(title, now() NOT IN now(), 'x') ASC`, "array(…) at line 1, column 160 is an array of mixed types (an Array(Variant(...))), and ORDER BY cannot use it as a key", 1, 160],
  [`MATCH (metrics_counters) SELECT metric_id WHERE ${METRICS} ORDER BY array(99999999999999999999999, metric_id, FALSE) ASC`, "array(…) at line 1, column 207 is an array of mixed types (an Array(Variant(...))), and ORDER BY cannot use it as a key", 1, 207],
  [`MATCH (events) SELECT title WHERE ${R} AND project_id = 1 ORDER BY greatest(if(title = 'a', 1.5, title), NULL) ASC`, "greatest(…) at line 1, column 160 is a value of mixed types", 1, 160],
  [`MATCH (events) SELECT title WHERE ${R} AND project_id = 1 ORDER BY if(title = 'a', project_id, 1.5) + 1 ASC`, "plus(…) at line 1, column 193 is a value of mixed types", 1, 193],
  // … found by a fifth seed: an if of an IP and a string, arrays of states, a map listed beside values read per row, a Date or DateTime64 looked for in a UUID or IP column, texts of concat and of aliases
  [`MATCH (search_issues) SELECT title AS p95 WHERE ${R} AND project_id = 1 ORDER BY if(greater(project_id, offset), ip_address_v4, geo_subdivision) DESC`, "if(…) at line 1, column 174 is a value of mixed types", 1, 174],
  [`MATCH (metrics_sets) SELECT metric_id WHERE ${METRICS} AND (array(value) IN 1)`, "array(…) at line 1, column 199 is an array of values of a type the typing pass names no array for, and in (IN) at line 1, column 212 takes none of", 1, 215],
  [`MATCH (metrics_distributions) SELECT avg(array(count) + equals(bucketed_time, timestamp)) AS a BY max WHERE ${METRICS}`, "array(…) at line 1, column 42 is an array of values of a type the typing pass names no array for, and plus (+) at line 1, column 55 takes none of", 1, 42],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND (organization_id IN tuple(item_type, item_type, attributes_int))`, "column attributes_int at line 1, column 194 is a map, and in (IN) looks for column organization_id at line 1, column 147, an integer, among the values listed with it", 1, 194],
  [`MATCH (discover_events) SELECT location WHERE ${R} AND project_id = 2 AND (timestamp_ms NOT IN ip_address_v4)`, "column timestamp_ms at line 1, column 168 is a DateTime64 (Nullable), and notIn (NOT IN) looks for it in column ip_address_v4 at line 1, column 188, an IPv4 column", 1, 168],
  [`MATCH (discover_transactions) SELECT measurements[cls] AS level WHERE ${TX} AND project_id = 1 AND (toDate(finish_ts) IN (profiler_id))`, "toDate(…) at line 1, column 192 is a Date and column profiler_id at line 1, column 214 is a UUID (Nullable): in (IN) does not take them together as arguments 1 and 2", 1, 214],
  [`MATCH (events) SELECT title WHERE ${R} AND project_id = 1 AND (concat('x', 1) <= 1)`, "concat(…) at line 1, column 156 (the text 'x1') is not an unsigned integer", 1, 156],
  [`MATCH (discover_transactions) SELECT type AS time WHERE ${TX} AND project_id = 1 AND (time = toDateTime('2026-11-22T20:39:27'))`, "column time at line 1, column 178 (the text 'transaction') is not a datetime", 1, 178],
  // an index a column mapped to 0 or a float truncated to 0 gives (code 135)
  [`MATCH (discover) SELECT arrayElement(group_ids, group_id) AS x WHERE ${R} AND project_id = 3`, "column group_id (0 on this entity) at line 1, column 49 is index 0, and arrayElement counts an array's elements from 1", 1, 49],
  [`MATCH (metrics_counters) SELECT substring(use_case_id, 0.5, 1) AS a WHERE ${METRICS}`, "0.5 at line 1, column 56 is index 0, and substring counts a string's characters from 1", 1, 56],
  // an IPv4 compared with a float or a signed integer (code 48); an aggregate state looked for among the clock's values (code 53)
  [`MATCH (transactions) SELECT time AS x_1 WHERE ${TX} AND project_id = 3 AND (1.5e-7 >= ip_address_v4)`, "1.5e-7 at line 1, column 168 is a float and column ip_address_v4 at line 1, column 178 is an IPv4 (Nullable): greaterOrEquals (>=) does not take them together as arguments 1 and 2", 1, 178],
  [`MATCH (events) SELECT greatest(ip_address_v4, -1) AS g WHERE ${R} AND project_id = 1`, "is an IPv4, and greatest compares it with -1 at line 1, column 48, an Int8", 1, 48],
  [`MATCH (metrics_sets) SELECT use_case_id WHERE (value IN now()) AND ${METRICS}`, "now(…) at line 1, column 57 is a datetime, and in (IN) looks for column value at line 1, column 48, an aggregate state (AggregateFunction), among its values", 1, 57],
  // a Boolean looked for in a string column (code 467 on the first row holding a text)
  [`MATCH (discover) SELECT tags[sentry:release] AS total WHERE (TRUE IN transaction_op) AND project_id = 2 AND ${R}`, "true at line 1, column 62 is a boolean, and in (IN) looks for it in column transaction_op at line 1, column 70, a string column", 1, 62],
  // … found by a sixth seed: a lambda returning an array of its parameters, a state beside a NULL; a conversion the engine has no code for (code 48, probed)
  [`MATCH (metrics_distributions) SELECT arrayFilter((\`k\`) -> array(\`k\`, \`k\`), tags.key) AS a WHERE ${METRICS}`, "the lambda at line 1, column 50 returns array(…) at line 1, column 59, an array, and arrayFilter does not take a lambda that returns an array", 1, 59],
  [`MATCH (generic_metrics_gauges) SELECT last_timestamp, if(granularity, max, NULL) AS n WHERE ${METRICS}`, "column max at line 1, column 71 is an aggregate state (AggregateFunction), and if makes it Nullable beside NULL at line 1, column 76, a NULL: no Nullable holds an aggregate state", 1, 71],
  [`MATCH (eap_items) SELECT toDate(trace_id) AS d WHERE ${R}`, "column trace_id at line 1, column 33 is a UUID, and toDate does not take a UUID as argument 1 of 1", 1, 33],
  [`MATCH (search_issues) SELECT receive_timestamp WHERE ${R} AND project_id = 3 AND (ip_address_v4 IN profile_id)`, "column ip_address_v4 at line 1, column 175 is an IPv4 (Nullable) and column profile_id at line 1, column 192 is a UUID (Nullable): in (IN) does not take them together as arguments 1 and 2", 1, 192],
  // concat of a string and an array is a string
  [`MATCH (events) SELECT title AS n WHERE (concat(user, exception_stacks.type) >= deleted) AND project_id = 3 AND ${R}`, "concat(…) at line 1, column 41 is a string and column deleted at line 1, column 80 is a small integer (UInt8): greaterOrEquals (>=) does not take them together", 1, 80],
  [`MATCH (generic_metrics_gauges) SELECT 0.95 * groupUniqArray(last) AS x BY metric_id WHERE project_id IN tuple(1, 2, 3) AND org_id = 1 AND ${R}`, "multiply (*) at line 1, column 44 works element by element on groupUniqArray(…) at line 1, column 46, whose elements are each an aggregate state (AggregateFunction)", 1, 46],
  [`MATCH (metrics_sets) SELECT count() / groupUniqArray(value) AS x BY metric_id WHERE project_id = 1 AND org_id = 1 AND ${R}`, "divide (/) does not take an aggregate state (AggregateFunction) as argument 2 of 2", 1, 39],
  // an array, a tuple or a state looked for in a Nested sub-column or a list holding a column (seed-2 fuzz: "cannot be inside Nullable", code 43)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 3 AND (array(TRUE) IN contexts.key)`, "array(…) at line 1, column 178 is an Array(Bool), and in (IN) looks for it in column contexts.key at line 1, column 193, a column read per row", 1, 178],
  [`MATCH (generic_metrics_counters) SELECT count() AS c BY metric_id WHERE project_id IN tuple(1, 2, 3) AND org_id = 1 AND ${R} AND (value_weighted IN tuple(bucketed_time, timestamp))`, "column value_weighted at line 1, column 223 is an aggregate state (AggregateFunction), and in (IN) looks for it in the list tuple(…) at line 1, column 241, which holds values read per row: ClickHouse looks for an aggregate state only in a list of constant values", 1, 223],
  // an if of a tuple and a number is a Variant, its tuple compared with a number (seed-2 fuzz: code 43)
  [`MATCH (metrics_counters) SELECT count() AS c BY metric_id WHERE project_id = 3 AND org_id = 1 AND ${R} AND (multiIf(100, tuple(tags.value), org_id) = 3)`, "multiIf(…) at line 1, column 201 is a Variant of a tuple or an integer (its branches have no common type), and its conditions pick the branch of a tuple for every row", 1, 243],
  // a tuple of an array looked for in a column the entity holds as NULL (seed-2 fuzz: code 43)
  [`MATCH (discover) SELECT count() AS c WHERE project_id = 1 AND ${R} AND (tuple(span_op_breakdowns.value) NOT IN sample_weight)`, "tuple(…) at line 1, column 165 is a tuple whose first element, column span_op_breakdowns.value at line 1, column 171, is an Array(Float64), and notIn (NOT IN) looks for it in a set holding column sample_weight at line 1, column 204 (a NULL on this entity)", 1, 204],
  // a call of three arguments with a NULL among them is a Nothing too (seed-2 fuzz: code 43)
  [`MATCH (discover) SELECT arrayMap((\`x\`) -> upper(geo_country_code), substring(NULL, 0.000001, trace_sampled)) AS c WHERE project_id = 1 AND ${R}`, "substring(…) at line 1, column 68 is NULL (a call of a NULL), and arrayMap takes only arrays after its lambda (argument 2)", 1, 68],
  // an Array(Float64) times any number is an Array(Float64) (seed-2 fuzz: code 43)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE project_id = 2 AND finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND (coalesce(measurements.value * deleted, contexts[trace.op] != exception_stacks.value) = now())`, "coalesce(…) at line 1, column 178 is an Array(Float64) and now(…) at line 1, column 265 is a datetime", 1, 265],
  // an array of arrays compared with a number (seed-2 fuzz: code 43)
  [`MATCH (generic_metrics_distributions) SELECT groupUniqArray(array(use_case_id, use_case_id)) = count() AS x, metric_id BY metric_id WHERE project_id IN tuple(1, 2, 3) AND org_id = 1 AND ${R}`, "groupUniqArray(…) at line 1, column 46 is an array of arrays, and equals (=) compares it with count(…) at line 1, column 96, an integer", 1, 46],
  // arithmetic judges an if's NULL branch picked for every row by its type, pairs too (seed-2 fuzz: code 43)
  [`MATCH (replays) SELECT tags[sentry:release] + multiIf(TRUE, NULL, now() + segment_id) AS x WHERE project_id = 1 AND ${R}`, "tags[sentry:release] at line 1, column 24 is a string, and plus (+) does not take a string as argument 1 of 2", 1, 24],
  // an if of an array and a string, or of a string and a UInt128, is a Variant (seed-2 fuzz: codes 386, 43)
  [`MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND (0.5 IN if(FALSE, exception_frames.abs_path, sdk_name))`, "if(…) at line 1, column 170 is a Variant of an Array(Nullable(String)) or a string (its branches have no common type), and its conditions pick the branch of a string for every row", 1, 170],
  [`MATCH (eap_items) SELECT upper(if(attributes_bool[runtime], 'error', item_id)) AS x WHERE ${R}`, "if(…) at line 1, column 32 is a Variant of a string or a UInt128 (its branches have no common type), and ClickHouse fails the query on any row that holds a UInt128", 1, 32],
  // an aggregate given a value of one of some types judges each (an array of Nullable numbers as an -If condition: seed-2 fuzz, code 43)
  [`MATCH (discover_transactions) SELECT uniqIf(retention_days, array(server_name, 0)) AS x WHERE project_id = 1 AND finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')`, "array(…) at line 1, column 61 is an array of Nullable numbers, and uniqIf at line 1, column 38 takes none of", 1, 61],
  // a comparison takes no state beside an array of NULLs (seed-2 fuzz: code 43)
  [`MATCH (metrics_distributions) SELECT metric_id AS m WHERE project_id = 1 AND org_id = 1 AND metric_id = 1 AND ${R} AND (array(NULL) < sum)`, "column sum at line 1, column 227 is an aggregate state (AggregateFunction), and less (<) does not take an aggregate state", 1, 227],
  // an array of numbers times a Nullable number is an array of numbers, of no common type with numbers (seed-3 fuzz: code 386)
  [`MATCH (transactions) SELECT greatest(span_op_breakdowns.value * measurements[cls], transaction_hash, offset) AS p95 WHERE project_id = 1 AND finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')`, "multiply(…) at line 1, column 63 is an Array(Float64) and column transaction_hash at line 1, column 84 is an integer: greatest does not take them together", 1, 84],
  // a tuple divided by a UInt128 is a tuple (fuzz: code 43)
  [`MATCH (eap_items) SELECT tuple(100, organization_id, 0) / item_id - item_type AS u WHERE ${R}`, "divide(…) at line 1, column 57 is a tuple and column item_type at line 1, column 69 is a small integer (UInt8): minus (-) does not take them together", 1, 69],
  // concat of a map is a string, as of anything but arrays (fuzz: code 43)
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND 'production' = project_id * concat(attributes_bool[sentry:user], attributes_int)`, "concat(…) at line 1, column 174 is a string, and multiply (*) does not take a string as argument 2 of 2", 1, 174],
  // the greatest of unsigned integers and a UInt128 is a UInt128 (fuzz: code 386)
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND greatest(0, item_id, item_type) >= attributes_string[sentry:release]`, "greatest(…) at line 1, column 146 is a UInt128 and attributes_string[sentry:release] at line 1, column 181 is a string: greaterOrEquals (>=) does not take them together", 1, 181],
  // a Nullable column the storage computes, on the right of IN, is compared as = compares (fuzz: code 386)
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND duration IN user`, "column duration at line 1, column 164 is an integer (UInt32) (Nullable) and column user at line 1, column 176 is a string (Nullable): in (IN) does not take them together", 1, 176],
  // a NULL looked for in values read per row is no NULL: the call beside it is judged (fuzz: code 43)
  [`MATCH (discover_events) SELECT substring(isNotNull(profile_id), duration IN (exception_stacks.value), project_id) AS s WHERE ${R} AND project_id = 1`, "isNotNull(…) at line 1, column 42 is a small integer (UInt8), and substring does not take a small integer (UInt8) as argument 1 of 3", 1, 42],
  // an array of NULLs compared with a map: compared whole, whatever its elements (fuzz: code 43)
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND array(NULL, NULL) = attributes_int`, "array(…) at line 1, column 146 is an array of NULLs (an Array(Nullable(Nothing))), and equals (=)", 1, 166],
  // a function of a condition of no known type is one of its results for a UInt8 and a Nullable one (fuzz: code 43)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND 'default' LIKE greatest(now() IN num_processing_errors)`, "greatest(…) at line 1, column 192 is one of a small integer (UInt8) or a small integer (UInt8) (Nullable)", 1, 192],
  // a condition the entity maps to a literal picks a branch as the literal does (fuzz: code 43)
  [`MATCH (discover) SELECT if(group_id, 'x', sdk_integrations) - any(group_ids) AS n WHERE project_id IN tuple(1, 2, 3) AND ${R}`, "if(…) at line 1, column 25 is a string (Nullable), and minus (-) does not take a string (Nullable) as argument 1 of 2", 1, 25],
  // a map where a higher-order function takes only arrays (fuzz: code 43)
  [`MATCH (eap_items) SELECT arrayMap((\`k\`) -> upper(\`k\`), attributes_int) AS m WHERE ${R}`, "column attributes_int at line 1, column 56 is a Map(String, Int64), and arrayMap takes only arrays after its lambda (argument 2)", 1, 56],
  // arithmetic with an alias of a tuple call works on its elements (fuzz: code 43)
  [`MATCH (search_issues) SELECT message_timestamp + level AS n, tuple(username, platform, 'production') AS level WHERE ${R} AND project_id = 3`, "plus (+) at line 1, column 48 of a date and a tuple adds its elements in turn, and refuses element 1: column username at line 1, column 68 is a string (Nullable)", 1, 68],
  // an IP beside strings makes an array of a Variant (fuzz: code 43)
  [`MATCH (replays) SELECT array(dist, ip_address_v6, click_testid) - greatest(count_error_events, 1, 0.95) AS x_1 WHERE ${R} AND project_id IN tuple(1, 2, 3)`, "array(…) at line 1, column 24 is an array of mixed types (an Array(Variant(...))), and minus (-) does not take", 1, 24],
  // a call given an if's Variant is the one result of the types it takes: an array here (fuzz: code 43)
  [`MATCH (generic_metrics_sets) SELECT sum(granularity) AS c WHERE ${METRICS} AND substring(use_case_id, if(2, org_id, use_case_id) * tags.value, metric_id) >= org_id GRANULARITY 60`, "multiply(…) at line 1, column 268 is an array of integers, and substring does not take an array of integers as argument 2 of 3", 1, 268],
  // concat of two arrays of one type is an array of it (fuzz: code 43)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 2 AND flags[projects:replay-canvas] LIKE concat(exception_stacks.mechanism_handled, exception_frames.in_app)`, "concat(…) at line 1, column 197 is an Array(Nullable(UInt8)), and like (LIKE) does not take", 1, 197],
  // groupUniqArray of an array column is an array of arrays (fuzz: code 43)
  [`MATCH (replays) SELECT count() - groupUniqArray(segment_names) AS level WHERE ${R} AND project_id IN tuple(1, 2, 3)`, "groupUniqArray(…) at line 1, column 34 is an array of arrays, and minus (-) at line 1, column 32 takes none of", 1, 34],
  // an IP minus an integer is an integer (an Int128 here; fuzz: code 43)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND ip_address_v6 - transaction_status LIKE tags_value`, "minus(…) at line 1, column 191 is one of a small integer (UInt8) (Nullable), an integer (Nullable), an integer (UInt32) (Nullable) or a UInt128", 1, 191],
  // tuples compared are of one size (fuzz: code 43)
  [`MATCH (discover_transactions) SELECT duration WHERE tuple(exception_frames.lineno) >= tuple(start_ts, version) AND project_id = 1 AND ${TX}`, "tuple(…) at line 1, column 53 is a tuple of 1 and tuple(…) at line 1, column 87 one of 2: greaterOrEquals (>=) compares tuples only of one size", 1, 87],
  // a float beside an IP, each taken alone there (fuzz: code 43)
  [`MATCH (events) SELECT 1.5 / ip_address_v4 AS d WHERE ${R} AND project_id = 1`, "1.5 at line 1, column 23 is a float and column ip_address_v4 at line 1, column 29 is an IPv4 (Nullable): divide (/) does not take them together", 1, 29],
  // at a day's granularity the bucket is a Date, compared as = compares (fuzz: code 43)
  [`MATCH (metrics_sets) SELECT count() AS c WHERE ${METRICS} AND tags.value IN bucketed_time GRANULARITY 86400`, "column tags.value at line 1, column 201 is an integer and column bucketed_time at line 1, column 215 is a Date: in (IN) does not take them together", 1, 215],
  // digits alone that a comparison with a DateTime cannot read: '0', three digits (found by the fuzz: code 41)
  [`MATCH (metrics_sets) SELECT count() AS c WHERE ${METRICS} AND toString(0) IN (bucketed_time)`, "toString(…) at line 1, column 201 (the text '0') is not a datetime, and in (IN) compares it with column bucketed_time", 1, 201],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND '123' < timestamp`, "'123' at line 1, column 162 is not a datetime, and less (<) compares it with column timestamp", 1, 162],
  // aggregate states of different functions added, or repeated a number of times read per row (codes 421, 44)
  [`MATCH (metrics_distributions) SELECT sum + histogram_buckets AS t WHERE ${METRICS}`, "column sum at line 1, column 38 is an aggregate state of AggregateFunction(sum, Float64), and column histogram_buckets at line 1, column 44 one of AggregateFunction(histogram(250), Float64)", 1, 44],
  [`MATCH (metrics_distributions) SELECT granularity * count AS t WHERE ${METRICS}`, "column granularity at line 1, column 38 is computed per row, and multiply (*) repeats the aggregate state column count", 1, 38],
  // an index of 0 where indices count from 1 (code 135 otherwise)
  [`MATCH (events) SELECT arrayElement(tags.key, 0) AS k WHERE ${R} AND project_id = 1`, "0 at line 1, column 46 is index 0, and arrayElement counts an array's elements from 1", 1, 46],
  [`MATCH (events) SELECT substring(message, FALSE, 1) AS s WHERE ${R} AND project_id = 1`, "false at line 1, column 42 is index 0, and substring counts a string's characters from 1", 1, 42],
  // greatest, least and concat of constant texts are folded as ClickHouse folds them (code 53 otherwise)
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id < greatest('production', '1')`, "greatest(…) at line 1, column 151 (the text 'production') is not an unsigned integer, and less (<) compares it with column project_id", 1, 151],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = concat('1', 'x')`, "concat(…) at line 1, column 151 (the text '1x') is not an unsigned integer, and equals (=) compares it with column project_id", 1, 151],
  // argument types and counts the engine refuses (probed-function-signatures.ts; ClickHouse's codes 43 and 42 otherwise)
  [`MATCH (events) SELECT 'x' * 2 AS a WHERE ${R} AND project_id = 1`, "'x' at line 1, column 23 is a string, and multiply (*) does not take a string as argument 1 of 2", 1, 23],
  [`MATCH (events) SELECT plus(1, lower(title)) AS a WHERE ${R} AND project_id = 1`, "lower(…) at line 1, column 31 is a string, and plus (+) does not take a string as argument 2 of 2", 1, 31],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING c / tags.key > 1`, "column tags.key at line 1, column 169 is an array of strings, and divide (/) does not take an array of strings as argument 2 of 2", 1, 169],
  [`MATCH (events) SELECT substring(0.95, 1, 2) AS s WHERE ${R} AND project_id = 1`, "0.95 at line 1, column 33 is a float, and substring does not take a float as argument 1 of 3; it takes a string there", 1, 33],
  [`MATCH (events) SELECT countIf(project_id) AS s WHERE ${R} AND project_id = 1`, "column project_id at line 1, column 31 is an integer, and countIf does not take an integer as argument 1 of 1; it takes a small integer (UInt8) or a boolean (Bool) there", 1, 31],
  [`MATCH (events) SELECT toStartOfHour('2024-01-01') AS s WHERE ${R} AND project_id = 1`, "'2024-01-01' at line 1, column 37 is a string, and toStartOfHour does not take a string as argument 1 of 1; it takes a datetime there", 1, 37],
  [`MATCH (events) SELECT toStartOfHour(timestamp, 'UTC', 1) AS s WHERE ${R} AND project_id = 1`, "toStartOfHour at line 1, column 23 does not take 3 arguments: it takes 1 or 2 arguments", 1, 23],
  // curried calls: parameter and argument counts (ClickHouse's codes 42, 34 and 133 otherwise)
  [`MATCH (transactions) SELECT quantiles()(duration) AS q WHERE ${TX} AND project_id = 1`, "quantiles at line 1, column 29 does not take 0 parameters (in its first parentheses): it takes 1 or more", 1, 29],
  [`MATCH (transactions) SELECT topK(5)(transaction, duration) AS q WHERE ${TX} AND project_id = 1`, "topK at line 1, column 29 with 1 parameter does not take 2 arguments: it takes 1", 1, 29],
  // an empty text is a DateTime64 only listed in an IN set (code 41 compared; seed 33)
  [`MATCH (discover_events) SELECT message WHERE ${R} AND project_id IN tuple(1, 2, 3) AND '' = timestamp_ms`, "'' at line 1, column 180 is not a datetime, and equals (=) compares it with column timestamp_ms", 1, 180],
  // a text looked for in a value computed per row, one of some scalar types, is compared as `=` compares (code 53; seed 33)
  [`MATCH (discover_events) SELECT message WHERE ${R} AND project_id IN tuple(1, 2, 3) AND 'id:101511' IN (deleted IN now())`, "'id:101511' at line 1, column 180 is not an unsigned integer, and in (IN) compares it with in(…)", 1, 180],
  // past the probe's 4 arguments: a function that takes 4 and no more (code 42 in the engine)
  [`MATCH (transactions) SELECT dateDiff('second', start_ts, finish_ts, 'UTC', 'UTC') AS d WHERE ${TX} AND project_id = 1`, "dateDiff at line 1, column 29 does not take 5 arguments: it takes 3 or 4 arguments", 1, 29],
  [`MATCH (transactions) SELECT quantileExact(0.5, 0.9)(duration) AS q WHERE ${TX} AND project_id = 1`, "0.9, is one too many: quantileExact takes one level; quantiles(…, …) takes several", 1, 48],
  [`MATCH (transactions) SELECT sum(1)(duration) AS q WHERE ${TX} AND project_id = 1`, "sum at line 1, column 29 does not take 1 parameter (in its first parentheses): it takes none: call it as sum(…)", 1, 29],
  // a call over a Nullable argument is Nullable where the probe saw it so (lower(user) is Nullable(String))
  [`MATCH (transactions) SELECT if(lower(user), 1, 2) AS a WHERE ${TX} AND project_id = 1`, "lower(…) at line 1, column 32 is a string (Nullable), and if does not take a string (Nullable) as argument 1 of 3", 1, 32],
  [`MATCH (transactions) SELECT plus(ifNull(user, 'x'), 1) AS a WHERE ${TX} AND project_id = 1`, "ifNull(…) at line 1, column 34 is a string, and plus (+) does not take a string as argument 1 of 2", 1, 34],
  // a NULL where the function needs a value (ClickHouse's code 43 otherwise), also a column the storage computes as NULL
  [`MATCH (events) SELECT has(NULL, 'x') AS h WHERE ${R} AND project_id = 1`, "NULL at line 1, column 27: has does not take a NULL as argument 1 of 2", 1, 27],
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND has(spans.exclusive_time_32, 'x') = 1`, "column spans.exclusive_time_32 at line 1, column 168 is always NULL on this entity (its storage does not hold it), and has does not take a NULL as argument 1 of 2", 1, 168],
  // array types without a class (Nullable elements, floats): their own probed refusals
  [`MATCH (discover_events) SELECT countIf(exception_frames.module) AS c WHERE ${R} AND project_id = 1`, "column exception_frames.module at line 1, column 40 is an Array(Nullable(String)), and countIf does not take an Array(Nullable(String)) as argument 1 of 1", 1, 40],
  [`MATCH (transactions) SELECT plus(1, measurements.value) AS p WHERE ${TX} AND project_id = 1`, "1 at line 1, column 34 is a small integer (UInt8) and column measurements.value at line 1, column 37 is an Array(Float64): plus (+) does not take them together", 1, 37],
  [`MATCH (discover_events) SELECT arraySum(exception_frames.lineno) AS s WHERE ${R} AND project_id = 1`, "column exception_frames.lineno at line 1, column 41 is an Array(Nullable(UInt32)), and arraySum does not take an Array(Nullable(UInt32)) as argument 1 of 1", 1, 41],
  // a pair refused with one of the two Nullable, as probed (ClickHouse judges the type inside)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND trace_sampled <= event_id`, "column trace_sampled at line 1, column 162 is a small integer (UInt8) (Nullable) and column event_id at line 1, column 179 is a UUID: lessOrEquals (<=) does not take them together as arguments 1 and 2", 1, 179],
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND has(spans.exclusive_time_32, 'x') = 1`, "column spans.exclusive_time_32 at line 1, column 172 is an Array(Float32) and 'x' at line 1, column 197 is a string: has does not take them together as arguments 1 and 2", 1, 197],
  // a Nullable string beside a number or a DateTime: analysed, but refused as soon as the column holds a value
  // (code 386 on the demo data; the probe computes its calls on a row)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 100 = level`, "100 at line 1, column 162 is a small integer (UInt8) and column level at line 1, column 168 is a string (Nullable): equals (=) does not take them together as arguments 1 and 2 (ClickHouse finds no type for both)", 1, 168],
  [`MATCH (search_issues) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 100 = level`, "column level at line 1, column 175 is a string (Nullable)", 1, 175],
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND 100 = user`, "column user at line 1, column 174 is a string (Nullable)", 1, 174],
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND environment = now()`, "column environment at line 1, column 164 is a string (Nullable) and now(…) at line 1, column 178 is a datetime: equals (=) does not take them together", 1, 178],
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 2 >= dist`, "greaterOrEquals (>=) does not take them together as arguments 1 and 2", 1, 169],
  // an array variant in a condition compares its elements, judged as their class (Nullable strings, Float32s)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND exception_frames.module = rtime`, "column exception_frames.module at line 1, column 162 is a string (Nullable) and column rtime at line 1, column 188 is a datetime: equals (=) does not take them together", 1, 188],
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND spans.exclusive_time_32 != tags[sentry:user]`, "column spans.exclusive_time_32 at line 1, column 168 is a float and tags[sentry:user] at line 1, column 195 is a string: notEquals (!=)", 1, 195],
  // a Nested column read whole is compared as one value in a condition, not by its elements (the rewrite leaves it)
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tags = event_id`, "column tags at line 1, column 164 is an array of tuples (as a Nested column read whole is) and column event_id at line 1, column 171 is a UUID: equals (=) does not take them together", 1, 171],
  // a float beside a string, and the Array(Float64) variant beside one: pairs of the class and the variant named apart
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 0.5 > contexts[trace.trace_id]`, "0.5 at line 1, column 162 is a float and contexts[trace.trace_id] at line 1, column 168 is a string: greater (>) does not take them together as arguments 1 and 2", 1, 168],
  [`MATCH (transactions) SELECT has(measurements.value, 'x') AS h WHERE ${TX} AND project_id = 1`, "column measurements.value at line 1, column 33 is an Array(Float64) and 'x' at line 1, column 53 is a string: has does not take them together as arguments 1 and 2", 1, 53],
  // scalar types without a class: a tuple a query builds, a Nullable IP, the EAP entity's UInt128 id
  [`MATCH (events) SELECT lower(tuple(1, 2)) AS l WHERE ${R} AND project_id = 1`, "tuple(…) at line 1, column 29 is a tuple, and lower does not take a tuple as argument 1 of 1", 1, 29],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple(1, title) = 5`, "tuple(…) at line 1, column 162 is a tuple and 5 at line 1, column 180 is a small integer (UInt8): equals (=) does not take them together as arguments 1 and 2", 1, 180],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ip_address_v4 LIKE '%a%'`, "column ip_address_v4 at line 1, column 162 is an IPv4 (Nullable), and like (LIKE) does not take an IPv4 (Nullable) as argument 1 of 2", 1, 162],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND organization_id = 1 AND project_id = 1 AND item_id LIKE '%a%'`, "column item_id at line 1, column 189 is a UInt128, and like (LIKE) does not take a UInt128 as argument 1 of 2", 1, 189],
  // array(...) of strings or UUIDs is an array of its elements' type; a number past UInt64 and Int64 is a float
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND array(title, 'a') = 5`, "array(…) at line 1, column 162 is an array of strings and 5 at line 1, column 182 is a small integer (UInt8): equals (=) does not take them together as arguments 1 and 2", 1, 182],
  [`MATCH (events) SELECT has(array(event_id, event_id), 'x') AS h WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 27 is an Array(UUID) and 'x' at line 1, column 54 is a string: has does not take them together as arguments 1 and 2", 1, 54],
  [`MATCH (events) SELECT bitAnd(99999999999999999999999, 1) AS b WHERE ${R} AND project_id = 1`, "99999999999999999999999 at line 1, column 30 is a float, and bitAnd does not take a float as argument 1 of 2", 1, 30],
  // (one past Int64's least value: -9223372036854775808 itself is an Int64, and taken)
  [`MATCH (events) SELECT bitAnd(-9223372036854775809, 1) AS b WHERE ${R} AND project_id = 1`, "is a float, and bitAnd does not take a float as argument 1 of 2", 1, 31],
  // a count of a column the storage computes as NULL is still a UInt64 (found by the fuzz)
  [`MATCH (discover_transactions) SELECT platform / count(received) AS d WHERE ${TX} AND project_id = 1`, "column platform at line 1, column 38 is a string, and divide (/) does not take a string as argument 1 of 2", 1, 38],
  // a pair refused whatever the third argument is: beside a column discover's events half computes as NULL
  [`MATCH (discover_events) SELECT greatest('x', 1, transaction_status) AS g WHERE ${R} AND project_id = 1`, "'x' at line 1, column 41 is a string and 1 at line 1, column 46 is a small integer (UInt8): greatest does not take them together as arguments 1 and 2", 1, 46],
  // a result's class from the probe's results per tuple of argument classes: a number divided by a number is a Float64
  [`MATCH (metrics_counters) SELECT granularity / count() - now() AS d WHERE ${METRICS}`, "divide(…) at line 1, column 45 is a float and now(…) at line 1, column 57 is a datetime: minus (-) does not take them together as arguments 1 and 2", 1, 57],
  // strings of which one is Nullable make an Array(Nullable(String)) (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 1.5 >= array(title, level)`, "1.5 at line 1, column 162 is a float and array(…) at line 1, column 169 is an Array(Nullable(String)): greaterOrEquals (>=) does not take them together as arguments 1 and 2", 1, 169],
  // if and multiIf have their branches' class whatever the condition, Nullable when a branch is (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT if(NULL, title, platform) + 1 AS a WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 23 is a string, and plus (+) does not take a string as argument 1 of 2", 1, 23],
  [`MATCH (events) SELECT multiIf(equals(level, title), level, title) * 2 AS a WHERE ${R} AND project_id = 1`, "multiIf(…) at line 1, column 23 is a string (Nullable), and multiply (*) does not take a string (Nullable) as argument 1 of 2", 1, 23],
  // x IN a constant set is a UInt8 (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT upper(tags[sentry:user] IN tuple('error')) AS p WHERE ${R} AND project_id = 1`, "in(…) at line 1, column 47 is a small integer (UInt8), and upper does not take a small integer (UInt8) as argument 1 of 1", 1, 47],
  // toDate(x) and its kin are Dates (the probe's resultVariant; codes 386 and 43 in ClickHouse)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND toDate(timestamp) <= tags[level]`, "toDate(…) at line 1, column 162 is a Date and tags[level] at line 1, column 183 is a string: lessOrEquals (<=) does not take them together", 1, 183],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 0.95 >= toDate(timestamp)`, "0.95 at line 1, column 162 is a float and toDate(…) at line 1, column 170 is a Date: greaterOrEquals (>=) does not take them together", 1, 170],
  // a Nullable argument beside a NULL (here a column the events half does not have): refused where the probe saw it so (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (discover_events) SELECT sumIf(duration, environment) AS n WHERE ${R} AND project_id = 1`, "column environment at line 1, column 48 is a string (Nullable), and sumIf does not take a string (Nullable) as argument 2 of 2", 1, 48],
  [`MATCH (discover_events) SELECT if(http_method, 1, duration) AS n WHERE ${R} AND project_id = 1`, "column http_method at line 1, column 35 is a string (Nullable), and if does not take a string (Nullable) as argument 1 of 3", 1, 35],
  // a Nested column read whole is an array of tuples (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT countIf(tags) AS c WHERE ${R} AND project_id = 1`, "column tags at line 1, column 31 is an array of tuples (as a Nested column read whole is), and countIf does not take", 1, 31],
  [`MATCH (transactions) SELECT measurements + 1 AS c WHERE ${TX} AND project_id = 1`, "column measurements at line 1, column 29 is an array of tuples (as a Nested column read whole is), and plus (+) does not take", 1, 29],
  [`MATCH (generic_metrics_distributions) SELECT countIf(tags) AS c WHERE ${METRICS}`, "column tags at line 1, column 54 is an array of tuples", 1, 54],
  // the condition of an -If aggregate an entity maps onto its states (uniqIf -> uniqCombined64MergeIf) (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (metrics_sets) SELECT uniqIf(value, timestamp) AS u WHERE ${METRICS}`, "column timestamp at line 1, column 43 is a datetime, and uniqIf does not take a datetime as argument 2 of 2", 1, 43],
  // array(...) of elements with no common type is an Array(Variant(...)) in the embedded engine (found by the fuzz: codes 43 and 386 in ClickHouse)
  [`MATCH (events) SELECT count() AS c, array(release, 10, 0.95) * count() AS level WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 37 is an array of mixed types (an Array(Variant(...))), and multiply (*) does not take", 1, 37],
  [`MATCH (events) SELECT has(array(title, 1), 'a') AS h WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 27 is an array of mixed types (an Array(Variant(...))), and has does not take", 1, 27],
  [`MATCH (events) SELECT array(title, NULL, 1) * 2 AS a WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 23 is an array of mixed types (an Array(Variant(...))), and multiply (*) does not take", 1, 23],
  // a value computed per row on the right of IN is compared as = compares; a one-element tuple is a tuple (found by the fuzz: codes 386 and 43 in ClickHouse)
  [`MATCH (events) SELECT toHour(timestamp) NOT IN tags[server_name] AS a WHERE ${R} AND project_id = 1`, "toHour(…) at line 1, column 23 is a small integer (UInt8) and tags[server_name] at line 1, column 48 is a string: notIn (NOT IN) does not take them together", 1, 48],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple(toHour(timestamp)) >= now()`, "tuple(…) at line 1, column 162 is a tuple and now(…) at line 1, column 190 is a datetime: greaterOrEquals (>=) does not take them together", 1, 190],
  // a tuple holds its NULLs: it is a tuple, never a NULL (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT lower(tuple(NULL, 1)) AS l WHERE ${R} AND project_id = 1`, "tuple(…) at line 1, column 29 is a tuple, and lower does not take a tuple as argument 1 of 1", 1, 29],
  // probed: two Nullable arguments refused together, a variant beside a Nullable, what a lambda returns (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (discover_events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND trace_sampled = trace_id`, "column trace_sampled at line 1, column 171 is a small integer (UInt8) (Nullable) and column trace_id at line 1, column 187 is a UUID (Nullable): equals (=) does not take them together", 1, 187],
  [`MATCH (discover_events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ip_address_v6 > exception_main_thread`, "column ip_address_v6 at line 1, column 171 is an IPv6 (Nullable) and column exception_main_thread at line 1, column 187 is a small integer (UInt8) (Nullable): greater (>) does not take them together", 1, 187],
  [`MATCH (events) SELECT arrayFilter((\`x\`) -> now(), tags.value) AS a WHERE ${R} AND project_id = 1`, "the lambda at line 1, column 35 returns now(…) at line 1, column 44, a datetime, and arrayFilter does not take a lambda that returns a datetime", 1, 44],
  // greatest of three has the class its pairs fold to (found by the fuzz: code 386 in ClickHouse)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND greatest(project_id, 10, 1000) != title`, "greatest(…) at line 1, column 162 is an integer and column title at line 1, column 196 is a string: notEquals (!=) does not take them together", 1, 196],
  // greatest and least need a common type of all their arguments, whatever else they hold (found by the fuzz: code 386 in ClickHouse)
  // an alias has its definition's variant (found by the fuzz: a mixed array as argMin's key)
  [`MATCH (events) SELECT array(title, 1) AS a, argMax(project_id, a) AS m WHERE ${R} AND project_id = 1`, "column a at line 1, column 64 is an array of mixed types (an Array(Variant(...))), and argMax does not take", 1, 64],
  // x IN an array of columns looks x up as has(array, x) does (found by the fuzz)
  [`MATCH (events) SELECT now() NOT IN array(title, platform) AS n WHERE ${R} AND project_id = 1`, "notIn (NOT IN) at line 1, column 29 with columns in its array looks the value up as has(array, value) does", 1, 23],
  // a Date function of a Nullable column is a Nullable(Date) (found by the fuzz)
  // argMax of a state choosing its row by a tuple is the state; times a count, state arithmetic (found by the fuzz, code 44)
  [`MATCH (metrics_distributions) SELECT argMax(sum, tuple(10)) * count() AS t BY metric_id WHERE ${METRICS}`, "argMax(…) at line 1, column 38 is an aggregate state (AggregateFunction) and count(…) at line 1, column 63 is an integer", 1, 63],
  // a state in a tuple times a column, element by element
  [`MATCH (metrics_distributions) SELECT tuple(sum) * granularity AS t WHERE ${METRICS}`, "refuses element 1: column granularity at line 1, column 51 is computed per row, and multiply (*) repeats the aggregate state column sum", 1, 51],
  // a number times a tuple is a tuple (found by the fuzz, code 43)
  [`MATCH (events) SELECT multiIf(project_id * tuple(1), 1, 2) AS m WHERE ${R} AND project_id = 1`, "multiply(…) at line 1, column 42 is a tuple, and multiIf does not take a tuple as argument 1 of 3", 1, 42],
  // greatest of three: each two must have a common type, a tuple and an array too (found by the fuzz, code 386)
  [`MATCH (discover_transactions) SELECT greatest(tuple(duration, 1), array(sdk_version, user, 10), 0) AS g WHERE ${TX} AND project_id = 1`, "tuple(…) at line 1, column 47 is a tuple and array(…) at line 1, column 67 is an array of mixed types (an Array(Variant(...))): greatest does not take them together", 1, 67],
  // an if whose condition is NULL picks its else branch for every row: a call must take that branch (found by the fuzz, code 43/386)
  [`MATCH (events) SELECT upper(if(NULL, title, project_id)) AS u WHERE ${R} AND project_id = 1`, "its conditions pick the branch of an integer for every row: if(…) at line 1, column 29 is an integer, and upper does not take an integer", 1, 29],
  // numbers of known types from an if are their common type (a float here); beside a Variant held per row, judged for each row's alternative
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND if(project_id = 1, 100, 2.5) = if(project_id = 2, title, 4.5)`, "ClickHouse fails the query on any row that holds a string: if(…) at line 1, column 162 is a float and if(…) at line 1, column 193 is a string", 1, 193],
  // toString of a value of no class (a tuple, an array of floats) is a String (found by the fuzz, code 386)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND now() >= toString(tuple(title, 1))`, "now(…) at line 1, column 162 is a datetime and toString(…) at line 1, column 171 is a string", 1, 171],
  // a state beside an array of arrays is no call the probe left untried: equals compares no state (found by the fuzz, code 43)
  [`MATCH (generic_metrics_distributions) SELECT count() AS c WHERE ${METRICS} AND array(tags.raw_value, use_case_id) = avg`, "column avg at line 1, column 255 is an aggregate state (AggregateFunction), and equals (=) does not take an aggregate state", 1, 255],
  // elements of two families beside one of unknown type are still a mixed array (found by the fuzz, code 43)
  [`MATCH (events) SELECT array(title, 1.5, if(project_id = 1, project_id, 2.5)) - 100 AS a WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 23 is an array of mixed types (an Array(Variant(...))), and minus (-) does not take", 1, 23],
  // a Date minus a number of days is a Date (found by the fuzz, code 43)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND notEmpty(toDate(timestamp) - 1000) = 1`, "minus(…) at line 1, column 189 is a Date, and notEmpty does not take a Date", 1, 189],
  // a tuple times a Boolean is a tuple (found by the fuzz, code 43)
  [`MATCH (events) SELECT median(tuple(1) * not(TRUE)) AS m WHERE ${R} AND project_id = 1`, "multiply(…) at line 1, column 39 is a tuple, and median does not take a tuple", 1, 39],
  // min of a tuple holding a state compares the state (found by the fuzz, code 43)
  [`MATCH (metrics_counters) SELECT min(tuple(granularity, value)) AS m WHERE ${METRICS}`, "tuple(…) at line 1, column 37 is a tuple holding column value at line 1, column 56, an aggregate state (AggregateFunction), and min does not take a state", 1, 37],
  // arrayMap of a lambda returning a DateTime is an Array(DateTime) (found by the fuzz, code 43)
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 ORDER BY arrayMap((\`k\`) -> now(), tags.value) / 3 DESC`, "arrayMap(…) at line 1, column 173 is an Array(DateTime), and divide (/) does not take an Array(DateTime)", 1, 173],
  // a two-argument call of a NULL is a Nothing where the engine makes one (concat, like, substring, ...)
  [`MATCH (events) SELECT quantiles(0.5)(concat(NULL, title)) AS q WHERE ${R} AND project_id = 1`, "concat(…) at line 1, column 38 is a call of a NULL, of type Nothing, and quantiles does not take it", 1, 38],
  // argMax choosing by a Nullable DateTime64 is of its first argument's type, Nullable (found by the fuzz, code 386)
  [`MATCH (discover_events) SELECT argMin(title, retention_days) < argMax(now(), timestamp_ms) AS x WHERE ${R} AND project_id = 1`, "argMin(…) at line 1, column 32 is a string and argMax(…) at line 1, column 64 is a datetime (Nullable)", 1, 64],
  // a scalar IN a list holding an aggregate state (found by the fuzz, code 43)
  [`MATCH (generic_metrics_gauges) SELECT count() AS c WHERE ${METRICS} AND 0.95 IN tuple(org_id, sum_weighted)`, "column sum_weighted at line 1, column 233 is an aggregate state, and in (IN) looks for 0.95", 1, 233],
  // an if whose constant condition picks a branch of values beside a NULL branch holds values in every row (found by the fuzz, code 43)
  [`MATCH (events) SELECT if(10, 'transaction', NULL) * 1.5 AS m WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 23 is a string (Nullable), and multiply (*) does not take a string (Nullable)", 1, 23],
  // an element of an array of two families is a Variant of them, held per row or picked by a constant index (fuzz: code 43)
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'staging' LIKE arrayElement(array(group_ids, TRUE, title), project_id)`, "(the array's elements have no common type), and ClickHouse fails the query on any row that holds an array of integers", 1, 179],
  [`MATCH (events) SELECT upper(arrayElement(array(title, 1), 2)) AS b WHERE ${R} AND project_id = 1`, "its index picks the element of a small integer (UInt8) for every row", 1, 29],
  // picking its NULL branch, no row holds a value, but the engine still judges its type (fuzz: code 43)
  [`MATCH (events) SELECT count() / if(1, NULL, geo_region) AS d WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 33 is a string (Nullable), and divide (/) does not take a string (Nullable)", 1, 33],
  // an array column's element (error_ids is an Array(UUID)) has the element's type (found by the fuzz, code 43)
  [`MATCH (replays) SELECT count() AS c WHERE ${R} AND project_id = 1 AND segment_id != arrayElement(error_ids, 1)`, "arrayElement(…) at line 1, column 177 is a UUID: notEquals (!=) does not take them together", 1, 177],
  [`MATCH (replays) SELECT count() AS c WHERE ${R} AND project_id = 1 AND toDate(replay_start_timestamp) = count_info_events`, "toDate(…) at line 1, column 163 is a Date (Nullable) and column count_info_events", 1, 196],
  // `x IN column` is a Nullable(UInt8) (found by the fuzz)
  [`MATCH (metrics_sets) SELECT toStartOfHour(project_id NOT IN use_case_id AND project_id) AS h WHERE ${METRICS}`, "and(…) at line 1, column 73 is a small integer (UInt8) (Nullable), and toStartOfHour does not take", 1, 73],
  // a one-level quantile curried with its level is of its argument's type (found by the fuzz)
  [`MATCH (metrics_counters) SELECT quantileExact()(now()) * granularity AS p WHERE ${METRICS}`, "quantileExact(…) at line 1, column 33 is a datetime, and multiply (*) does not take a datetime", 1, 33],
  // the plural quantiles take what their singular takes (found by the fuzz)
  [`MATCH (events) SELECT quantiles(0.5, 0.9)(title) AS q WHERE ${R} AND project_id = 1`, "column title at line 1, column 43 is a string, and quantiles does not take a string as argument 1 of 1", 1, 43],
  // arithmetic with a tuple, element by element (tupleMultiplyByNumber, tuplePlus, subtractTupleOfIntervals; found by the fuzz)
  [`MATCH (events) SELECT 10 * tuple('x', exception_main_thread) AS m WHERE ${R} AND project_id = 1`, "multiply (*) at line 1, column 26 works on a tuple element by element, and refuses element 1: 'x' at line 1, column 34 is a string", 1, 34],
  [`MATCH (events) SELECT timestamp - tuple(0.95, project_id, event_id) AS m WHERE ${R} AND project_id = 1`, "refuses element 3 on what the ones before left: column event_id at line 1, column 59 is a UUID", 1, 59],
  [`MATCH (events) SELECT tuple(1, 'a') + tuple(1, 2) AS m WHERE ${R} AND project_id = 1`, "refuses element 2: 'a' at line 1, column 32 is a string", 1, 32],
  [`MATCH (events) SELECT tuple(1, 2) * tuple(1, 2, 3) AS m WHERE ${R} AND project_id = 1`, "needs tuples of the same size", 1, 37],
  [`MATCH (discover_events) SELECT greatest(trace_sampled, exception_main_thread, 'info') AS g WHERE ${R} AND project_id = 1`, "column trace_sampled at line 1, column 41 is a small integer (UInt8) (Nullable) and 'info' at line 1, column 79 is a string: greatest does not take them together as arguments 1 and 3", 1, 79],
  [`MATCH (events) SELECT least(NULL, timestamp, 'a') AS l WHERE ${R} AND project_id = 1`, "column timestamp at line 1, column 35 is a datetime and 'a' at line 1, column 46 is a string: least does not take them together as arguments 2 and 3", 1, 46],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND greatest(project_id, 3, NULL) != title`, "greatest(…) at line 1, column 162 is an integer (Nullable) and column title at line 1, column 195 is a string", 1, 195],
  // a variant beside a NULL, on the variant refusals probed beside one (sdk_version is NULL on discover_transactions; found by the fuzz: code 43)
  [`MATCH (discover_transactions) SELECT multiIf(spans.exclusive_time_32, sdk_version, logger) AS m WHERE ${TX} AND project_id = 1`, "column spans.exclusive_time_32 at line 1, column 46 is an Array(Float32), and multiIf does not take an Array(Float32) as argument 1 of 3", 1, 46],
  [`MATCH (events) SELECT quantile(0.5)(title) AS q WHERE ${R} AND project_id = 1`, "column title at line 1, column 37 is a string, and quantile does not take a string as argument 1 of 1", 1, 37],
  [`MATCH (events) SELECT any(title) * 2 AS a WHERE ${R} AND project_id = 1`, "any(…) at line 1, column 23 is a string, and multiply (*) does not take a string as argument 1 of 2", 1, 23],
  // greatest of numbers with a Boolean among them: of integers of known types their common type; else one of the number classes, refused where none is taken (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT greatest(TRUE, round(project_id)) >= event_id AS g WHERE ${R} AND project_id = 1`, "greatest(…) at line 1, column 23 is one of a small integer (UInt8), an integer, a float, an integer (UInt32) or a boolean (Bool) (which one depends on its arguments' exact types), and greaterOrEquals (>=) at line 1, column 57 takes none of them", 1, 60],
  [`MATCH (events) SELECT greatest(TRUE, project_id) >= event_id AS g WHERE ${R} AND project_id = 1`, "greatest(…) at line 1, column 23 is an integer and column event_id at line 1, column 53 is a UUID: greaterOrEquals (>=) does not take them together", 1, 53],
  // arrays of an argument's type (groupUniqArray(x)) and array(...) of UInt8s are typed; two array variants are judged together (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT groupUniqArray(level) + 1 AS g WHERE ${R} AND project_id = 1`, "groupUniqArray(…) at line 1, column 23 is an array of strings, and plus (+) does not take", 1, 23],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING groupUniqArray(timestamp) >= 3`, "groupUniqArray(…) at line 1, column 165 is an Array(DateTime) and 3 at line 1, column 194 is a small integer (UInt8): greaterOrEquals (>=) does not take them together", 1, 194],
  [`MATCH (events) SELECT array(title) < array(startsWith(title, 'a')) AS l WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 23 is an array of strings and array(…) at line 1, column 38 is an Array(UInt8): less (<) does not take them together", 1, 38],
  [`MATCH (transactions) SELECT spans.exclusive_time / measurements.value AS d WHERE ${TX} AND project_id = 1`, "column spans.exclusive_time at line 1, column 29 is an Array(Float32) and column measurements.value at line 1, column 52 is an Array(Float64): divide (/) does not take them together", 1, 52],
  // greatest and least find no common type for a NULL and an array, a map or a state (found by the fuzz: code 386 in ClickHouse)
  [`MATCH (discover_transactions) SELECT greatest(NULL, array(transaction_source, type), NULL) AS g WHERE ${TX} AND project_id = 1`, "NULL at line 1, column 47 and array(…) at line 1, column 53, an array of strings: greatest compares its arguments in one common type, and a NULL has none with an array, a map or an aggregate state", 1, 53],
  [`MATCH (discover_transactions) SELECT least(tags.key, logger) AS g WHERE ${TX} AND project_id = 1`, "column logger at line 1, column 54, always NULL here, and column tags.key at line 1, column 44, an array of strings: least compares", 1, 54],
  // array(...) of an array (or a state) and a scalar is an array of a Variant (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT array(tags.key, 'a') = timestamp AS m WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 23 is an array of mixed types (an Array(Variant(...))) and column timestamp at line 1, column 46 is a datetime: equals (=) does not take them together", 1, 46],
  // a class refused beside every class is tried beside each variant; two variants are tried together (found by the fuzz: codes 386 and 43 in ClickHouse)
  [`MATCH (discover_transactions) SELECT now() NOT IN array(logger, platform, culprit) AS n WHERE ${TX} AND project_id = 1`, "array(…) at line 1, column 51 is an Array(Nullable(String)) and now(…) at line 1, column 38 is a datetime: has does not take them together", 1, 38],
  [`MATCH (transactions) SELECT ip_address_v6 / spans.exclusive_time AS d WHERE ${TX} AND project_id = 1`, "column ip_address_v6 at line 1, column 29 is an IPv6 (Nullable) and column spans.exclusive_time at line 1, column 45 is an Array(Float32): divide (/) does not take them together", 1, 45],
  // array(...) of tuples is an array of tuples (found by the fuzz: code 386 in ClickHouse)
  [`MATCH (discover_events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND array(tuple(offset, span_op_breakdowns.key)) = dist`, "array(…) at line 1, column 171 is an array of tuples (as a Nested column read whole is) and column dist at line 1, column 218 is a string (Nullable): equals (=) does not take them together", 1, 218],
  // a string compared with a UInt32, with a Nullable value, with a value computed on the right of IN; a literal in IN beside a state (found by the fuzz: codes 53 and 48 in ClickHouse)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND '%a%' = duration`, "'%a%' at line 1, column 177 is not an unsigned integer, and equals (=) compares it with column duration at line 1, column 185, an integer (UInt32): ClickHouse cannot read it as one", 1, 177],
  [`MATCH (discover_events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND exception_frames.lineno > 'production'`, "'production' at line 1, column 197 is not an unsigned integer, and greater (>) compares it with column exception_frames.lineno at line 1, column 171, an integer (UInt32) (Nullable)", 1, 197],
  [`MATCH (transactions) SELECT '9V?j' IN measurements[lcp] AS m WHERE ${TX} AND project_id = 1`, "'9V?j' at line 1, column 29 is not a number, and in (IN) compares it with measurements[lcp] at line 1, column 39, a float (Nullable)", 1, 29],
  [`MATCH (generic_metrics_counters) SELECT org_id WHERE project_id = 1 AND org_id = 1 AND ${R} AND 'production' IN abs(org_id)`, "'production' at line 1, column 189 is not an unsigned integer, and in (IN) compares it with abs(…) at line 1, column 205", 1, 189],
  [`MATCH (generic_metrics_counters) SELECT org_id WHERE project_id = 1 AND org_id = 1 AND ${R} AND value IN tuple('x')`, "'x' at line 1, column 204 is not an aggregate state, and in (IN) compares it with column value at line 1, column 189, an aggregate state (AggregateFunction)", 1, 204],
  // an aggregate's result is a column, whatever it aggregates; array(...) of one integer is an array of integers (found by the fuzz: codes 386 and 43 in ClickHouse)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING count() = anyLast('production')`, "count(…) at line 1, column 165 is an integer and anyLast(…) at line 1, column 175 is a string: equals (=) does not take them together", 1, 175],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND title = array(project_id)`, "column title at line 1, column 162 is a string and array(…) at line 1, column 170 is an array of integers: equals (=) does not take them together", 1, 170],
  // a set beside an array holds arrays; a tuple IN a column would be a Nullable tuple (found by the fuzz: codes 53 and 44 in ClickHouse)
  [`MATCH (metrics_counters) SELECT tags.value IN tuple('x', 'yesterday') AS m WHERE project_id = 1 AND org_id = 1 AND ${R}`, "'x' at line 1, column 53 is not an array, and in (IN) compares it with column tags.value at line 1, column 33, an array of integers", 1, 53],
  // so is an array of arrays, whose type the pass does not name (fuzz: code 43)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND array(array(title, 'a')) IN project_id`, "array(…) at line 1, column 162 is an array, and in (IN) looks for it in column project_id at line 1, column 190, a column read per row: ClickHouse looks for an array only in a list of constant values", 1, 162],
  [`MATCH (replays) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple(debug_id, project_id) NOT IN (click_aria_label)`, "tuple(…) at line 1, column 163 is a tuple, and notIn (NOT IN) looks for it in column click_aria_label at line 1, column 199, a column read per row: ClickHouse looks for a tuple only in a list of constant values", 1, 163],
  // a column the storage does not hold whole: read only by the entity's aggregates, or a map split by key (found by the fuzz: code 47 in ClickHouse)
  [`MATCH (metrics_distributions) SELECT value WHERE project_id = 1 AND org_id = 1 AND ${R}`, "column value at line 1, column 38 is not stored on entity 'metrics_distributions': only its aggregates read it, each from a stored state (min(value), max(value), avg(value)", 1, 38],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND notEmpty(attributes_string) = 1`, "column attributes_string at line 1, column 155 is a map that entity 'eap_items' stores split by key: read one key as attributes_string[key]", 1, 155],
  // checked before the typing pass, whose text rule would only say that 'x' is not a map
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND attributes_string != 'x'`, "column attributes_string at line 1, column 146 is a map that entity 'eap_items' stores split by key: read one key as attributes_string[key]", 1, 146],
  [`MATCH (metrics_distributions) SELECT count() AS c WHERE project_id = 1 AND org_id = 1 AND ${R} AND value > 'x'`, "column value at line 1, column 192 is not stored on entity 'metrics_distributions'", 1, 192],
  // a parametric aggregate's parameter must be a constant (found by the fuzz: code 36 in ClickHouse)
  [`MATCH (sessions) SELECT quantiles(sessions_errored, 0.95)(sessions_crashed) AS q WHERE project_id = 1 AND org_id = 1 AND started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00')`, "parameter 1 of quantiles(…) at line 1, column 35, column sessions_errored, must be a constant: the engine reads it once, not per row", 1, 35],
  // an -If aggregate with a NULL condition is of the type it has with a condition, not a NULL (found by the fuzz: codes 43 and 386 in ClickHouse)
  [`MATCH (transactions) SELECT sumIf(duration, NULL) - now() AS d WHERE ${TX} AND project_id = 1`, "sumIf(…) at line 1, column 29 is an integer and now(…) at line 1, column 53 is a datetime: minus (-) does not take them together", 1, 53],
  // a time-bucket column is a Date at GRANULARITY 86400 (toDate(received)) (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (profiles) SELECT 1 AS w WHERE received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00') AND organization_id = 1 AND project_id = 1 AND isNotNull(device_locale) <= time GRANULARITY 86400`, "isNotNull(…) at line 1, column 180 is a small integer (UInt8) and column time at line 1, column 208 is a Date: lessOrEquals (<=) does not take them together", 1, 208],
  // a call an entity maps to a -Merge or -MergeIf call takes its argument count (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (generic_metrics_gauges) SELECT countIf(value) AS c WHERE ${METRICS}`, "countIf(…) at line 1, column 39 is sumMergeIf(count, condition) on this entity, and takes the value and a condition: 2 arguments, not 1", 1, 39],
  [`MATCH (generic_metrics_distributions) SELECT quantiles(0.5)(value, 1) AS q WHERE ${METRICS}`, "quantiles(…) at line 1, column 46 is quantilesMerge(percentiles) on this entity, and takes the value alone: 1 argument, not 2", 1, 46],
  [`MATCH (generic_metrics_distributions) SELECT plus(percentiles, 1) AS a WHERE ${METRICS}`, "column percentiles at line 1, column 51 is an aggregate state (AggregateFunction) and 1 at line 1, column 64 is a small integer (UInt8): plus (+) does not take them together as arguments 1 and 2", 1, 64],
  [`MATCH (events) SELECT array((\`x\`) -> equals(\`x\`, 'a'), tags.value) AS a WHERE ${R} AND project_id = 1`, "array at line 1, column 23 does not take a lambda (the one at line 1, column 29); functions that do: arrayAll", 1, 29],
  [`MATCH (events) SELECT multiIf((\`x\`) -> equals(\`x\`, 'a'), 1, 2) AS a WHERE ${R} AND project_id = 1`, "multiIf at line 1, column 23 does not take a lambda (the one at line 1, column 31)", 1, 31],
  // one lambda, first, with a parameter per array after it (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT arrayFilter((\`x\`) -> now(), (\`v\`) -> now(), tags.value) AS a WHERE ${R} AND project_id = 1`, "arrayFilter at line 1, column 23 takes one lambda, as its first argument, and arrays after it: the lambda at line 1, column 51 is argument 2", 1, 51],
  [`MATCH (events) SELECT arrayMap(tags.value, (\`v\`) -> now()) AS a WHERE ${R} AND project_id = 1`, "the lambda at line 1, column 44 is argument 2", 1, 44],
  [`MATCH (events) SELECT arrayCount((\`v\`, \`x\`) -> now(), tags.value) AS a WHERE ${R} AND project_id = 1`, "the lambda at line 1, column 34 takes 2 parameters, and arrayCount gives it one element of each array after it: 1 array, so 1 parameter", 1, 34],
  // after a lambda only arrays, which are never NULL
  [`MATCH (events) SELECT arrayExists((\`x\`) -> equals(\`x\`, 1), NULL) AS a WHERE ${R} AND project_id = 1`, "NULL at line 1, column 60 is NULL, and arrayExists takes only arrays after its lambda (argument 2)", 1, 60],
  [`MATCH (events) SELECT arrayMap((\`x\`) -> equals(\`x\`, 1), level) AS a WHERE ${R} AND project_id = 1`, "column level at line 1, column 57 is a string (Nullable), and arrayMap takes only arrays after its lambda", 1, 57],
  // a call of no arguments there, neither constant nor column to the pass (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT arrayFilter((\`x\`) -> equals(\`x\`, 1), now()) AS a WHERE ${R} AND project_id = 1`, "now(…) at line 1, column 60 is a datetime, and arrayFilter does not take a datetime after its lambda (argument 2)", 1, 60],
  [`MATCH (generic_metrics_counters) SELECT 10 AS ten, value AS level WHERE ${METRICS} ORDER BY level ASC`, "column level at line 1, column 231 is an aggregate state (AggregateFunction), and ORDER BY cannot compare aggregate states", 1, 231],
  // so is a tuple or an array holding one (found by the fuzz: code 44 in ClickHouse)
  [`MATCH (generic_metrics_counters) SELECT tuple('x', value, 3) AS level WHERE ${METRICS} ORDER BY level ASC`, "column level at line 1, column 235 holds column value at line 1, column 52, an aggregate state (AggregateFunction), and ORDER BY cannot compare aggregate states, inside a tuple or an array either", 1, 235],
  // ... also as an aggregate returning one of its rows' values returns it (seed 36)
  [`MATCH (generic_metrics_counters) SELECT count() AS c WHERE ${METRICS} ORDER BY argMax(tuple(value, 1), timestamp) ASC`, "argMax(…) at line 1, column 218 holds column value at line 1, column 231, an aggregate state (AggregateFunction), and ORDER BY cannot compare aggregate states, inside a tuple or an array either", 1, 218],
  // a Nullable number compared with a tuple (code 43 while planning; seed 36)
  [`MATCH (events) SELECT event_id WHERE ${R} AND project_id = 1 AND multiIf(TRUE, NULL, exception_main_thread) >= tuple(1, 2)`, "multiIf(…) at line 1, column 158 is a small integer (UInt8) (Nullable) and tuple(…) at line 1, column 204 a tuple: greaterOrEquals (>=) compares a tuple only with a tuple", 1, 158],
  // an array of mixed types is an Array(Variant(...)), which ClickHouse neither sorts nor groups by (found by the fuzz: code 44 in ClickHouse)
  [`MATCH (events) SELECT array(now(), 3, platform) AS a WHERE ${R} AND project_id = 1 ORDER BY a DESC`, "column a at line 1, column 185 is an array of mixed types (an Array(Variant(...))), and ORDER BY cannot use it as a key", 1, 185],
  [`MATCH (events) SELECT count() AS c BY array(title, 1) WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 39 is an array of mixed types (an Array(Variant(...))), and BY (GROUP BY) cannot use it as a key", 1, 39],
  [`MATCH (events) SELECT count() AS c BY array(array(user, 'a'), 'b') WHERE ${R} AND project_id = 1`, "array(…) at line 1, column 39 is an array of mixed types (an Array(Variant(...))), and BY (GROUP BY) cannot use it as a key", 1, 39],
  [`MATCH (events) SELECT title AS t WHERE ${R} AND project_id = 1 ORDER BY if(title = 'a', timestamp, 3) ASC`, "if(…) at line 1, column 165 is a value of mixed types (a Variant: its branches have no common type), and ORDER BY cannot use it as a key", 1, 165],
  [`MATCH (events) SELECT multiIf(level = 'a', title, level = 'b', 2, NULL) AS m WHERE ${R} AND project_id = 1 ORDER BY m ASC`, "column m at line 1, column 209 is a value of mixed types (a Variant", 1, 209],
  [`MATCH (events) SELECT title AS t WHERE ${R} AND project_id = 1 ORDER BY if(title = 'a', tags.key, 'x') ASC`, "if(…) at line 1, column 165 is a value of mixed types (a Variant", 1, 165],
  // so is ifNull or coalesce of a Nullable value and one of another family (found by the fuzz: code 44 in ClickHouse)
  [`MATCH (transactions) SELECT count() AS c BY coalesce(geo_city, TRUE) WHERE ${TX} AND project_id = 1`, "coalesce(…) at line 1, column 45 is a value of mixed types (a Variant", 1, 45],
  [`MATCH (events) SELECT title AS t WHERE ${R} AND project_id = 1 ORDER BY ifNull(location, 1.5) ASC`, "ifNull(…) at line 1, column 165 is a value of mixed types (a Variant", 1, 165],
  // an if with a NULL branch is a Nullable of its other branches' class, and greatest beside NULLs of its others' (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (events) SELECT max(timestamp) - greatest(NULL, NULL, 'info') AS d WHERE ${R} AND project_id = 1`, "greatest(…) at line 1, column 40 is a string (Nullable), and minus (-) does not take", 1, 40],
  [`MATCH (events) SELECT timestamp - multiIf(title = 'a', NULL, title = 'b', title, 'x') AS d WHERE ${R} AND project_id = 1`, "multiIf(…) at line 1, column 35 is a string (Nullable), and minus (-) does not take", 1, 35],
  [`MATCH (events) SELECT ifNull(NULL, title) * 2 AS d WHERE ${R} AND project_id = 1`, "ifNull(…) at line 1, column 23 is a string, and multiply (*) does not take", 1, 23],
  // a column the storage computes as NULL is such a NULL, and so is a comparison of one; and/or of a NULL and numbers is a Nullable(UInt8) (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (discover_transactions) SELECT 10 + greatest(exception_main_thread, transaction_name) AS d WHERE ${TX} AND project_id = 1`, "greatest(…) at line 1, column 43 is a string (Nullable), and plus (+) does not take", 1, 43],
  [`MATCH (events) SELECT upper(title = NULL AND project_id + 1) AS u WHERE ${R} AND project_id = 1`, "and(…) at line 1, column 42 is a small integer (UInt8) (Nullable), and upper does not take", 1, 42],
  // a number divided by an array of numbers, or multiplied with it by a float literal, is an Array(Float64) (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (transactions) SELECT 2 / measurements.value - 1 AS d WHERE ${TX} AND project_id = 1`, "divide(…) at line 1, column 31 is an Array(Float64) and 1 at line 1, column 54 is a small integer (UInt8): minus (-) does not take them together as arguments 1", 1, 54],
  [`MATCH (transactions) SELECT countIf(duration, measurements.value * 0.5) AS d WHERE ${TX} AND project_id = 1`, "multiply(…) at line 1, column 66 is an Array(Float64), and countIf does not take an Array(Float64) as argument 2 of 2", 1, 66],
  // a result of an argument's type keeps its variant (any of an Array(Float64) is one)
  [`MATCH (transactions) SELECT lower(any(measurements.value)) AS l WHERE ${TX} AND project_id = 1`, "any(…) at line 1, column 35 is an Array(Float64), and lower does not take", 1, 35],
  [`MATCH (events) SELECT project_id - anyLast(exception_frames.function) AS d WHERE ${R} AND project_id = 1`, "anyLast(…) at line 1, column 36 is an Array(Nullable(String)), and minus (-) does not take", 1, 36],
  // a function of such a Variant is applied to the alternative each row holds, and refused when it refuses any (found by the fuzz: codes 43, 386 and 53 in ClickHouse, on the rows holding it)
  [`MATCH (events) SELECT like(if(title = 'a', 0.95, timestamp), 'x%') AS l WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 28 is a Variant of a float or a datetime (its branches have no common type), and ClickHouse fails the query on any row that holds a float: if(…) at line 1, column 28 is a float, and like (LIKE) does not take a float as argument 1 of 2", 1, 28],
  [`MATCH (events) SELECT upper(multiIf(level = 'a', 1, level = 'b', timestamp, tags.key)) AS u WHERE ${R} AND project_id = 1`, "multiIf(…) at line 1, column 29 is a Variant of a small integer (UInt8), a datetime or an array of strings (its branches have no common type), and ClickHouse fails the query on any row that holds a small integer (UInt8)", 1, 29],
  [`MATCH (events) SELECT lower(if(title = 'a', title, timestamp)) AS s WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 29 is a Variant of a string or a datetime (its branches have no common type), and ClickHouse fails the query on any row that holds a datetime: if(…) at line 1, column 29 is a datetime, and lower does not take a datetime", 1, 29],
  [`MATCH (events) SELECT culprit WHERE ${R} AND project_id = 1 AND title = coalesce(location, 1.5)`, "coalesce(…) at line 1, column 165 is a Variant of a string or a float (its branches have no common type), and ClickHouse fails the query on any row that holds a float: column title at line 1, column 157 is a string and coalesce(…) at line 1, column 165 is a float: equals (=) does not take them together", 1, 165],
  // the clock's calls are constants to the engine, converted to the left's type as a set is; an IPv6 takes no number in its set (code 53)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND event_id IN now()`, "now(…) at line 1, column 174 is a datetime, and in (IN) looks for column event_id at line 1, column 162, a UUID, among its values: ClickHouse cannot convert a datetime to that type", 1, 174],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND attributes_bool NOT IN tuple(today(), 1)`, "today(…) at line 1, column 175 is a Date, and notIn (NOT IN) looks for column attributes_bool at line 1, column 146, a Map(String, Bool), among its values", 1, 175],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ip_address_v6 IN tuple(1, 2)`, "1 at line 1, column 185 is a small integer (UInt8), and in (IN) looks for column ip_address_v6", 1, 185],
  // ifNull of two Nullable strings is a Nullable(String), refused beside a Bool as `user = FALSE` is (ClickHouse fails on any row where user holds a value, code 386)
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND ifNull(user, user) = FALSE`, "ifNull(…) at line 1, column 168 is a string (Nullable) and false at line 1, column 189 is a boolean (Bool): equals (=) does not take them together", 1, 189],
  [`MATCH (events) SELECT culprit WHERE ${R} AND project_id = 1 AND coalesce(location, 1) = 'x'`, "coalesce(…) at line 1, column 157 is a Variant of a string or a small integer (UInt8) (its branches have no common type), and ClickHouse fails the query on any row that holds a small integer (UInt8): 'x' at line 1, column 181 is not an unsigned integer", 1, 181],
  // a comparison of a column discover lacks, in a condition, is its constant answer: a Bool (code 386 beside a String)
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND title != (exception_frames.stack_level = 0)`, "column title at line 1, column 164 is a string and equals(…) at line 1, column 203 is a boolean (Bool): notEquals (!=) does not take them together", 1, 203],
  // a value IN an if's Variant is compared as = compares it with the alternative each row holds (code 386)
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND duration IN if(duration > 1, transaction, 5)`, "if(…) at line 1, column 180 is a Variant of a string or a small integer (UInt8) (its branches have no common type), and ClickHouse fails the query on any row that holds a string: column duration at line 1, column 168 is an integer (UInt32) and if(…) at line 1, column 180 is a string: in (IN) does not take them", 1, 180],
  // a condition of unknown Nullability beside a string is a Variant's number
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND spans.exclusive_time_32 IN multiIf(duration > 1, transaction, user IN now())`, "multiIf(…) at line 1, column 195 is a Variant of a string or a small integer (UInt8) (its branches have no common type), and ClickHouse fails the query on any row that holds a string: column spans.exclusive_time_32 at line 1, column 168 is a float", 1, 195],
  // a call of a NULL is a Nothing, no array (code 43)
  [`MATCH (events) SELECT arrayFilter((\`k\`) -> isNull(\`k\`), now() * NULL) AS d WHERE ${R} AND project_id = 1`, "multiply(…) at line 1, column 63 is NULL (a call of a NULL), and arrayFilter takes only arrays after its lambda (argument 2)", 1, 63],
  // the quantiles of many levels are not the `nothing` aggregate: a NULL value or weight is refused (code 43)
  [`MATCH (events) SELECT quantiles(0.5)(NULL) AS q WHERE ${R} AND project_id = 1`, "NULL at line 1, column 38 is NULL, of type Nothing, and quantiles does not take it as argument 1", 1, 38],
  [`MATCH (transactions) SELECT quantilesTDigestWeighted(0.5)(duration, upper(NULL)) AS i WHERE ${TX} AND project_id = 1`, "upper(…) at line 1, column 69 is a call of a NULL, of type Nothing, and quantilesTDigestWeighted does not take it as argument 2", 1, 69],
  // `time AS time` selects the alias again: BY time groups by the aggregate (code 184), parenthesised or not
  [`MATCH (events) SELECT title, (argMax(title, received)) AS time, time AS time BY title, time WHERE ${R} AND project_id = 1`, "Aggregate function found in BY clause of query: 'argMax' at line 1, column 88", 1, 88],
  // a scalar IN a list holding an array: ClickHouse converts no array to a scalar (code 43)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND timestamp IN tuple(tags.key, project_id)`, "column tags.key at line 1, column 181 is an array, and in (IN) looks for column timestamp at line 1, column 162, a datetime, among the values listed with it", 1, 181],
  // greatest of integers of known types with a Boolean among them is their common type: a text must read as one (code 53)
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND greatest(TRUE, sample_weight, duration) > 'x'`, "'x' at line 1, column 206 is not an unsigned integer, and greater (>) compares it with greatest(…) at line 1, column 164, an integer (UInt32) (Nullable): ClickHouse cannot read it as one", 1, 206],
  // aggregates refuse a Variant as a whole (the probe's mixed variant)
  [`MATCH (events) SELECT argMin(project_id, if(title = 'a', timestamp, tags.key)) AS m WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 42 is a value of mixed types (a Variant: its branches have no common type), and argMin does not take", 1, 42],
  [`MATCH (events) SELECT max(if(title = 'a', title, 3)) AS m WHERE ${R} AND project_id = 1`, "is a value of mixed types (a Variant: its branches have no common type), and max does not take", 1, 27],
  [`MATCH (sessions) SELECT sessions WHERE started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1 AND sessions > 1`, "Aggregate function found in WHERE clause of query: column sessions at line 1, column 171 is the aggregate sumMerge(sessions_state); use HAVING", 1, 171],
  // through an alias SELECT reads again before WHERE (its type is read once; seed 42), and through an alias of it
  [`MATCH (sessions) SELECT (sessions_abnormal) AS users, users WHERE toStartOfDay(started) >= users AND started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1`, "Aggregate function found in WHERE clause of query: column sessions_abnormal at line 1, column 26 is the aggregate sumMerge(sessions_abnormal_state)", 1, 26],
  [`MATCH (sessions) SELECT sessions AS s, plus(s, 1) AS t, t WHERE t > 1 AND started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1`, "Aggregate function found in WHERE clause of query: column sessions at line 1, column 25 is the aggregate sumMerge(sessions_state)", 1, 25],
  // strings compared with values they cannot be read as (literal-texts.ts; ClickHouse's codes 53, 72, 41, 376 otherwise)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING c > 'abc'`, "'abc' at line 1, column 169 is not an integer, and greater (>) compares it with column c at line 1, column 165, an integer", 1, 169],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND toStartOfHour(timestamp) IN tuple('2024-01-01', 'yesterday')`, "'yesterday' at line 1, column 210 is not a datetime, and in (IN) compares it with toStartOfHour(…)", 1, 210],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'x' = length(title)`, "'x' at line 1, column 162 is not an unsigned integer, and equals (=) compares it with length(…) at line 1, column 168, an integer", 1, 162],
  // … with a boolean, an array, a map, a tuple, an IP address or a date (codes 467, 130, 27, 675, 676, 38), a datetime by its letters (41)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'production' = TRUE`, "'production' at line 1, column 162 is not a boolean (true, false, 1, 0, yes, no, on, off, ...), and equals (=) compares it with true at line 1, column 177, a boolean (Bool)", 1, 162],
  [`MATCH (discover) SELECT uniqExact('error' >= contexts.value) AS u WHERE ${R} AND project_id = 1`, "'error' at line 1, column 35 is not an array written as text ('[...]'), and greaterOrEquals (>=) compares it with column contexts.value at line 1, column 46, an array of strings", 1, 35],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'transaction' != _flags_hash_map`, "'transaction' at line 1, column 162 is not an array written as text ('[...]'), and notEquals (!=) compares it with column _flags_hash_map", 1, 162],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND attributes_int IN tuple('x', 'y')`, "'x' at line 1, column 170 is not a map written as text ('{...}'), and in (IN) compares it with column attributes_int at line 1, column 146, a Map(String, Int64)", 1, 170],
  [`MATCH (search_issues) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple('%a%', group_first_seen, user_email) = ('%a%')`, "'%a%' at line 1, column 215 is not a tuple written as text ('(...)'), and equals (=) compares it with tuple(…) at line 1, column 169, a tuple", 1, 215],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'anita@example.com' >= ip_address_v4`, "'anita@example.com' at line 1, column 162 is not an IPv4 address, and greaterOrEquals (>=) compares it with column ip_address_v4 at line 1, column 185, an IPv4 (Nullable)", 1, 162],
  [`MATCH (replays) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ip_address_v6 NOT IN tuple('x')`, "'x' at line 1, column 190 is not an IPv6 address, and notIn (NOT IN) compares it with column ip_address_v6", 1, 190],
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND toDate(message_timestamp) <= 'X1'`, "'X1' at line 1, column 197 is not a date, and lessOrEquals (<=) compares it with toDate(…) at line 1, column 168, a Date", 1, 197],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND now() = 'frontend@2.5.1'`, "'frontend@2.5.1' at line 1, column 170 is not a datetime, and equals (=) compares it with now(…) at line 1, column 162, a datetime", 1, 170],
  // a tuple or an array looked for in a computed scalar (code 43)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple(exception_stacks.value, transaction_hash) IN now()`, "tuple(…) at line 1, column 162 is a tuple, and in (IN) looks for it in now(…) at line 1, column 213, a datetime: ClickHouse looks for a tuple only in a list of tuples", 1, 162],
  // a conversion function given a text it cannot read (code 38)
  [`MATCH (events) SELECT toDate('production') AS d WHERE ${R} AND project_id = 1`, "'production' at line 1, column 30 is not a date: toDate cannot read it as one", 1, 30],
  // … and a text a call computes from a literal before any row is read (code 53)
  [`MATCH (sessions) SELECT duration_quantiles WHERE started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1 AND upper('production') < 10`, "upper(…) at line 1, column 181 (the text 'PRODUCTION') is not an unsigned integer, and less (<) compares it with 10 at line 1, column 203, a small integer (UInt8)", 1, 181],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND toString(1000) = TRUE`, "toString(…) at line 1, column 162 (the text '1000') is not a boolean", 1, 162],
  // columns typed from the storage (test/pipeline/column-types.test.ts): subscripts' values, literal-mapped and re-declared columns
  [`MATCH (metrics_counters) SELECT sum(value) AS v WHERE ${METRICS} AND lower(tags[1]) = 'a'`, "tags[1] at line 1, column 214 is an integer, and lower does not take an integer", 1, 214],
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND lower(measurements[lcp]) = 'a'`, "measurements[lcp] at line 1, column 174 is a float (Nullable), and lower does not take a float (Nullable)", 1, 174],
  [`MATCH (discover) SELECT group_id * 'a' AS a WHERE ${R} AND project_id = 1`, "'a' at line 1, column 36 is a string, and multiply (*) does not take a string as argument 2 of 2", 1, 36],
  [`MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 100 = title`, "100 at line 1, column 164 is a small integer (UInt8) and column title at line 1, column 170 is a string", 1, 170],
  [`MATCH (events) SELECT arrayCount((\`x\`) -> equals(\`x\`, 'a')) AS a WHERE ${R} AND project_id = 1`, "arrayCount at line 1, column 23 needs an array after its lambda", 1, 23],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING if(c, 1, 2) = 1`, "column c at line 1, column 168 is an integer, and if does not take an integer as argument 1 of 3; it takes a small integer (UInt8) or a boolean (Bool) there", 1, 168],
  // robust refusals: judged beside an argument of unknown type (ip_address_v4 is Nullable(IPv4), level Nullable(String))
  [`MATCH (events) SELECT if(title, ip_address_v4, 1) AS a WHERE ${R} AND project_id = 1`, "column title at line 1, column 26 is a string, and if does not take a string as argument 1 of 3; it takes a small integer (UInt8) or a boolean (Bool) there", 1, 26],
  [`MATCH (events) SELECT countIf(level, title) AS a WHERE ${R} AND project_id = 1`, "column title at line 1, column 38 is a string, and countIf does not take a string as argument 2 of 2", 1, 38],
  [`MATCH (events) SELECT minus(title, level) AS a WHERE ${R} AND project_id = 1`, "column title at line 1, column 29 is a string, and minus (-) does not take a string as argument 1 of 2", 1, 29],
  // Nullable arguments, on the refusals probed Nullable; a refusal that holds beside a NULL (aggregates judge every argument)
  [`MATCH (events) SELECT multiIf(level, 1, 2) AS a WHERE ${R} AND project_id = 1`, "column level at line 1, column 31 is a string (Nullable), and multiIf does not take a string (Nullable) as argument 1 of 3; it takes a small integer (UInt8) or a boolean (Bool) there", 1, 31],
  [`MATCH (events) SELECT sumIf(NULL, title) AS a WHERE ${R} AND project_id = 1`, "column title at line 1, column 35 is a string, and sumIf does not take a string as argument 2 of 2", 1, 35],
  // a constant beside a column: ClickHouse converts neither to the other's type
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 1 != tags[handled]`, "1 at line 1, column 162 is a small integer (UInt8) and tags[handled] at line 1, column 167 is a string: notEquals (!=) does not take them together as arguments 1 and 2", 1, 167],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND title = now()`, "column title at line 1, column 162 is a string and now(…) at line 1, column 170 is a datetime: equals (=) does not take them together", 1, 170],
  // what follows a lambda
  [`MATCH (events) SELECT arrayExists((\`x\`) -> equals(\`x\`, 'a'), 10) AS a WHERE ${R} AND project_id = 1`, "10 at line 1, column 62 is a small integer (UInt8), and arrayExists does not take a small integer (UInt8) after its lambda (argument 2); it takes arrays there", 1, 62],
  // aggregates where they are not allowed, conditions, aliases, lambdas, totals
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND count() > 1`, "Aggregate function found in WHERE clause of query: 'count'", 1, 157],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND c > 0`, "Aggregate function found in WHERE clause of query: 'count' at line 1, column 162", 1, 162],
  [`MATCH (events) SELECT count() BY count() WHERE ${R} AND project_id = 1`, "Aggregate function found in BY clause", 1, 34],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND level`, "WHERE expects conditions", 1, 157],
  [`MATCH (events) SELECT count() AS c, max(timestamp) AS c WHERE ${R} AND project_id = 1`, "Shadowing aliases detected for alias: c", 1, 37],
  // an alias given inside a clause names one expression across the query (found by the fuzz: code 179 in ClickHouse)
  [`MATCH (events) SELECT title AS c, count() AS n BY title WHERE ${R} AND project_id = 1 HAVING uniq(user) AS c > 1`, "Shadowing aliases detected for alias: c at line 1, column 186", 1, 186],
  [`MATCH (events) SELECT count() AS n WHERE ${R} AND project_id = 1 HAVING uniq(user) AS u > 1 ORDER BY uniq(title) AS u DESC`, "Shadowing aliases detected for alias: u", 1, 194],
  // a number or a DateTime looked for in a UUID column (found by the fuzz: code 48 in ClickHouse)
  [`MATCH (transactions) SELECT count() AS c WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1 AND 3 IN profile_id`, "3 at line 1, column 168 is a small integer (UInt8) and column profile_id at line 1, column 173 is a UUID (Nullable): in (IN) does not take them together as arguments 1 and 2", 1, 173],
  // a UUID looked for in a column of numbers or DateTimes, which is read as UUIDs (found by the fuzz: code 48 in ClickHouse)
  [`MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND profile_id IN duration`, "column profile_id at line 1, column 168 is a UUID (Nullable) and column duration at line 1, column 182 is an integer (UInt32): in (IN) does not take them together as arguments 1 and 2", 1, 182],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND event_id NOT IN timestamp`, "column event_id at line 1, column 162 is a UUID and column timestamp at line 1, column 178 is a datetime: notIn (NOT IN) does not take them together as arguments 1 and 2", 1, 178],
  // a number looked for in an IP column (found by the fuzz: code 48 in ClickHouse)
  [`MATCH (transactions) SELECT count() AS c WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1 AND duration IN ip_address_v6`, "column duration at line 1, column 168 is an integer (UInt32) and column ip_address_v6 at line 1, column 180 is an IPv6 (Nullable): in (IN) does not take them together as arguments 1 and 2", 1, 180],
  // a set of constants that cannot be converted to the left's type (found by the fuzz: code 53 in ClickHouse)
  [`MATCH (events) SELECT toDate(timestamp) IN tuple(1, 1.5) AS d WHERE ${R} AND project_id = 1`, "1.5 at line 1, column 53 is a float, and in (IN) looks for toDate(…) at line 1, column 23, a Date, among its values", 1, 53],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND event_id IN 3`, "3 at line 1, column 174 is a small integer (UInt8), and in (IN) looks for column event_id at line 1, column 162, a UUID, among its values", 1, 174],
  // a Variant with a DateTime64 alternative (found by the fuzz: code 43 in ClickHouse)
  [`MATCH (discover_events) SELECT if(title = 'a', geo_city, timestamp_ms) - _tags_hash_map AS x WHERE ${R} AND project_id = 1`, "if(…) at line 1, column 32 is a Variant of a string or a DateTime64", 1, 32],
  // one expression, one alias (Snuba's grammar has no second AS; found by the fuzz: codes 47 and 215 in ClickHouse)
  [`MATCH (events) SELECT upper(title) AS a AS title WHERE ${R} AND project_id = 1`, "syntax error at line 1, column 41 near 'AS': a already names this expression: give it one alias", 1, 41],
  [`MATCH (events) SELECT arrayExists((\`x\`) -> equals(\`y\`, 1), tags.value) WHERE ${R} AND project_id = 1`, "identifier(s) `y` not defined", 1, 51],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 TOTALS true`, "TOTALS true at line 1, column 153 needs a BY clause", 1, 153],
  // LIMIT, SAMPLE, GRANULARITY values
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 LIMIT 10001`, "queries cannot have a limit higher than 10000", 1, 153],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 LIMIT 20000 BY level`, "queries cannot have a limit higher than 10000", 1, 153],
  [`MATCH (events SAMPLE 1000) SELECT count() WHERE ${R} AND project_id = 1`, "invalid SAMPLE 1000 at line 1, column 15", 1, 15],
  [`MATCH (events SAMPLE 0.0) SELECT count() WHERE ${R} AND project_id = 1`, "invalid SAMPLE 0.0", 1, 15],
  [`MATCH (events) SELECT count() BY time WHERE ${R} AND project_id = 1 GRANULARITY 0`, "GRANULARITY must be a positive number of seconds", 1, 161],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE ${METRICS} GRANULARITY 7`, "Granularity must be multiple of one of (10, 60, 3600, 86400)", 1, 199],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE ${METRICS} AND granularity = 60 GRANULARITY 60`, "Granularities cannot be specified in both", 1, 220],
  // joins
  [`MATCH (e: events) -[owns]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "ParsingException: events does not have a join relationship -[owns]->", 1, 19],
  [`MATCH (e: events) -[assigned]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "ParsingException: -[assigned]-> cannot be used to join events to groupedmessage", 1, 19],
  [`MATCH (e: events) -[toString]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "does not have a join relationship -[toString]->", 1, 19],
  [`${JOIN} SELECT count() WHERE ${ER} AND project_id = 1`, "column project_id must be qualified in a join query", 1, 178],
  [`${JOIN} SELECT g.nope WHERE ${ER} AND e.project_id = 1`, "column 'g.nope' does not exist on entity 'groupedmessage'", 1, 59],
  [`${JOIN} SELECT count() WHERE e.project_id = 1`, "Missing >= condition with a datetime literal on column e.timestamp", 1, 8],
  [`${JOIN} SELECT count() WHERE ${ER}`, "missing required conditions for e.project_id", 1, 8],
  ["MATCH (e: events) SELECT count()", "entity alias 'e' at line 1, column 8 is only allowed in a join", 1, 8],
  // subqueries
  ["MATCH { MATCH (events) SELECT count() AS c WHERE project_id = 1 } SELECT c", "Missing >= condition", 1, 16],
  [`MATCH { MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 } SELECT d`, "column 'd' is not an output of the subquery at line 1, column 175 (did you mean 'c'?)", 1, 175],
  // syntax: clause order, missing direction, unterminated strings, lower-case keywords
  [`MATCH (events) SELECT count() BY project_id WHERE ${R} TOTALS true ORDER BY project_id ASC`, "syntax error at line 1, column 160 near 'ORDER'", 1, 160],
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 ORDER BY duration`, "unexpected end of query at line 1, column 176: expected one of: ASC, DESC", 1, 176],
  [`MATCH (events) SELECT f(a) WHERE ${R} AND x = 'open`, "unterminated string literal", 1, 139],
  ["MATCH (events) select count()", /syntax error at line 1, column 16 near 'select'.*write SELECT/, 1, 16],
  ["MATCH (events) SELECT count() WHERE a = 1 LIMIT 5 BY level LIMIT 2 BY level", "syntax error at line 1, column 68 near 'BY'", 1, 68],
  // an array of floats (one of an Array(Float64) and an Array(Float32)) compared with a map
  [`MATCH (eap_items) SELECT item_id WHERE ${R} AND array(server_sample_rate + 1) = attributes_int`, "array(…) at line 1, column 141 is an array of floats, and equals (=) at line 1, column 171 takes none of an Array(Float64) or an Array(Float32) there", 1, 173],
  // an IPv4 looked for among floats: ClickHouse cannot convert it (code 48)
  [`MATCH (transactions) SELECT has(array(0.5, duration / 2), ip_address_v4) AS x WHERE project_id = 1 AND ${TX}`, "array(…) at line 1, column 33 is an Array(Float64) and column ip_address_v4 at line 1, column 59 is an IPv4 (Nullable): has does not take them together as arguments 1 and 2", 1, 59],
  // a UInt128 minus an integer is a 128-bit integer, which LIKE does not take
  [`MATCH (eap_items) SELECT (item_id - 1) LIKE 'a' AS x WHERE ${R}`, "minus(…) at line 1, column 35 is a UInt128, and like (LIKE) does not take a UInt128 as argument 1 of 2", 1, 35],
  // seed 8's type errors: greatest of Nullable numbers and a Nested column read whole; tuples compared element by element;
  // an IPv4 looked for in a DateTime column (read as IPv4s); a number divided by an array of DateTime64s element by element;
  // an ifNull of a UUID and a tuple (a Variant of the two) compared with a number
  [`MATCH (discover_events) SELECT greatest(trace_sampled, span_id, tags) AS g WHERE project_id = 1 AND ${R}`, "column trace_sampled at line 1, column 41 is a small integer (UInt8) (Nullable) and column tags at line 1, column 65 is an array of tuples", 1, 65],
  [`MATCH (profiles) SELECT device_os_name WHERE received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00') AND organization_id = 1 AND project_id = 1 AND tuple(1, device_classification) < tuple(version_name, version_code)`, "less (<) at line 1, column 220 works on a tuple element by element, and refuses element 1: 1 at line 1, column 194 is a small integer (UInt8)", 1, 228],
  [`MATCH (search_issues) SELECT ip_address_v4 IN client_timestamp AS x WHERE project_id = 1 AND ${R}`, "column ip_address_v4 at line 1, column 30 is an IPv4 (Nullable) and column client_timestamp at line 1, column 47 is a datetime: in (IN) does not take them together as arguments 1 and 2", 1, 47],
  [`MATCH (search_issues) SELECT 1000 / groupUniqArray(timestamp_ms) AS t BY occurrence_type_id WHERE project_id = 1 AND ${R}`, "divide (/) at line 1, column 35 works element by element on groupUniqArray(…) at line 1, column 37, whose elements are each a DateTime64", 1, 37],
  [`MATCH (discover) SELECT 1 / groupUniqArray(array(level, tags_value, measurements[cls])) AS x WHERE project_id = 1 AND ${R}`, "divide (/) at line 1, column 27 works element by element on groupUniqArray(…) at line 1, column 29, whose elements are each an array of mixed types", 1, 29],
  [`MATCH (transactions) SELECT tags[url] WHERE project_id = 1 AND ${TX} AND ifNull(trace_id, tuple(36.49, platform, 0)) >= deleted`, "ifNull(…) at line 1, column 165 is a Variant of a UUID or a tuple (its branches have no common type)", 1, 212],
  // a NULL computed per row looked for in a column of aggregate states (read as a Nullable of a state)
  [`MATCH (generic_metrics_gauges) SELECT bucketed_time BY bucketed_time WHERE (max * NULL) IN sum_weighted AND project_id = 1 AND org_id = 1 AND ${R}`, "multiply(…) at line 1, column 81 is a NULL computed per row, and in (IN) looks for it in column sum_weighted at line 1, column 92, a column of aggregate states", 1, 81],
  // seed 9's type error: two arrays compared in their elements' common type, an Int64 and a UInt64 having none
  [`MATCH (metrics_counters) SELECT tags.key - tags.key <= tags.value AS x WHERE ${METRICS} LIMIT 1 GRANULARITY 60`, "minus(…) at line 1, column 42 is an Array(Int64) and column tags.value at line 1, column 56 an Array(UInt64): lessOrEquals (<=) compares two arrays in their elements' common type", 1, 56],
  // seed 10: an array(…) of a Nested column read whole is an array of values the pass names no array for, which LIKE refuses
  [`MATCH (events) SELECT title WHERE project_id = 1 AND ${R} AND 'yes' LIKE array(tags)`, "array(…) at line 1, column 166 is an array of values of a type the typing pass names no array for, and like (LIKE) at line 1, column 161 takes none of", 1, 166],
  // seed 10: a number minus the quantiles of a number (an array of numbers)
  [`MATCH (profiles) SELECT 100 - quantiles(0.5)(project_id) AS p95, version_code BY version_code WHERE received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00') AND organization_id = 1 AND project_id = 1`, "quantiles(…) at line 1, column 31 is an array of numbers whose type depends on the operands' exact types, and minus (-) at line 1, column 29 takes none of", 1, 31],
  // seed 10: an array of a Bool first beside a UInt8 is an Array(Bool), which no array of strings is compared with
  [`MATCH (generic_metrics_counters) SELECT value WHERE ${METRICS} AND array(use_case_id, '%a%') = array(FALSE, 2)`, "array(…) at line 1, column 206 is an array of strings and array(…) at line 1, column 234 is an Array(Bool)", 1, 234],
  // seed 11: an array(…) of an array variant knows its elements (a UInt64 divided by an Array(Nullable(String)), element by element)
  [`MATCH (transactions) SELECT transaction_hash / array(array(transaction_name, '%a%', geo_city)) AS p95 WHERE ${TX} AND project_id = 1`, "divide (/) at line 1, column 46 works element by element on array(…) at line 1, column 48, whose elements are each an Array(Nullable(String))", 1, 48],
  // seed 11: a coalesce of a condition of unknown Nullability and a UInt8 is a UInt8, which no array of tuples is compared with
  [`MATCH (discover_events) SELECT trace_id WHERE ${R} AND project_id = 1 AND (coalesce(http_method NOT IN geo_region, 2) = array(tuple(modules.version, contexts.key, message)))`, "coalesce(…) at line 1, column 168 is a small integer (UInt8) and array(…) at line 1, column 213 is an array of tuples (as a Nested column read whole is)", 1, 213],
  // seed 12: floats beside numbers a float holds are an array of floats, which plus takes beside no integer
  [`MATCH (eap_items) SELECT 1e+10 + attributes_int[level] + array(attributes_float[server_name], server_sample_rate, attributes_bool[browser]) AS time WHERE ${R}`, "array(…) at line 1, column 58 is an array of floats, and plus (+) at line 1, column 56 takes none of an Array(Float64) or an Array(Float32) there", 1, 58],
  // seed 12: arithmetic on an array of NULLs (discover_transactions stores no site)
  [`MATCH (discover_transactions) SELECT array(site) / measurements[cls] AS e WHERE project_id = 2 AND ${TX} LIMIT 1`, "array(…) at line 1, column 38 is an array of NULLs (an Array(Nullable(Nothing))), and divide (/) works element by element on it", 1, 38],
  // seed 12: a lambda returning a Nullable(String) where arrayExists takes a condition
  [`MATCH (discover) SELECT isNull(url) AS u WHERE project_id = 1 AND ${R} ORDER BY arrayExists((\`k\`) -> multiIf(primary_hash, geo_subdivision, tags_key), span_op_breakdowns.value) ASC LIMIT 10`, "the lambda at line 1, column 185 returns multiIf(…) at line 1, column 194, a string (Nullable), and arrayExists does not take a lambda that returns a string (Nullable)", 1, 194],
  // seed 12: an array variant's element beside a Nullable index is the element's Nullable
  [`MATCH (discover_events) SELECT not(arrayElement(exception_frames.filename, symbolicated_in_app)) AS x WHERE ${R} AND project_id = 1`, "arrayElement(…) at line 1, column 36 is a string (Nullable), and not does not take a string (Nullable) as argument 1 of 1", 1, 36],
  // seed 12: an -If aggregate takes its aggregate's arguments and the condition (sum takes one: code 42)
  [`MATCH (transactions) SELECT sumIf(duration, project_id = 1, 100) AS s WHERE ${TX} AND project_id = 1`, "sumIf at line 1, column 29 does not take 3 arguments: it takes 2 arguments", 1, 29],
  // seed 12: a lambda's parameter is an element of the array after it (a UInt64 of _flags_hash_map), so ifNull of it is a UInt64
  [`MATCH (events) SELECT arrayAll((\`x\`) -> ifNull(\`x\`, geo_city), _flags_hash_map) AS a WHERE project_id = 1 AND ${R}`, "the lambda at line 1, column 32 returns ifNull(…) at line 1, column 41, an integer, and arrayAll does not take a lambda that returns an integer", 1, 41],
  [`MATCH (events) SELECT arrayExists((\`k\`) -> equals(\`k\`, 2), tags.key) AS a WHERE project_id = 1 AND ${R}`, "the lambda's parameter `k` at line 1, column 51 is a string and 2 at line 1, column 56 is a small integer (UInt8): equals (=) does not take them together", 1, 56],
  // seed 12: a lambda returning a Date where arrayExists takes only conditions
  [`MATCH (events) SELECT arrayExists((\`x\`) -> toDate(\`x\`), tags.value) AS a WHERE project_id = 1 AND ${R}`, "the lambda at line 1, column 35 returns toDate(…) at line 1, column 44, a Date, and arrayExists does not take a lambda that returns a Date", 1, 44],
  // seed 13: a text compared with a DateTime64 (code 41), a text computed from literals looked for among aggregate states (53),
  // a UUID in a per-row list cast to the left's integer type (48), a float's text compared with an integer (53)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND ('production' <= timestamp_ms)`, "'production' at line 1, column 163 is not a datetime, and lessOrEquals (<=) compares it with column timestamp_ms", 1, 163],
  [`MATCH (metrics_sets) SELECT count() AS c WHERE ${METRICS} AND value IN upper('production')`, "upper(…) at line 1, column 210 (the text 'PRODUCTION') is not an aggregate state", 1, 210],
  [`MATCH (eap_items) SELECT 1000 IN tuple(server_sample_rate, TRUE, trace_id) AS total WHERE ${R}`, "in (IN) at line 1, column 31 reads column trace_id at line 1, column 66, a value read per row in its list, as the left's type", 1, 66],
  [`MATCH (metrics_counters) SELECT count() AS c WHERE ${METRICS} AND 2 = toString(0.5)`, "toString(…) at line 1, column 209 (the text '0.5') is not an unsigned integer", 1, 209],
  // seed 13: an if of an array of a Variant and a number is a Variant, which ORDER BY cannot sort by (code 44)
  [`MATCH (metrics_distributions) SELECT tags.key WHERE ${METRICS} ORDER BY if(0, length(use_case_id), array(use_case_id, 2, use_case_id)) ASC`, "if(…) at line 1, column 211 is a value of mixed types (a Variant: its branches have no common type), and ORDER BY cannot use it as a key", 1, 211],
  // seed 13: a tuple computed per row (greatest of one) on the right of IN is no list and no set (code 1)
  [`MATCH (discover_transactions) SELECT exception_frames.filename WHERE ${TX} AND project_id IN tuple(1, 2, 3) AND (NULL IN greatest ( tuple ( offset , primary_hash , 1.5e-7 ) )) LIMIT 100`, "greatest(…) at line 1, column 213 is a tuple computed per row, and in (IN) looks in it", 1, 213],
  // seed 14: a text no UInt64 reads (user_hash), an array known only as one of several beside scalars (a mixed array, ORDER BY),
  // an array of Nullable DateTimes (no array variant names it) in arithmetic, whole and element by element (seed 12's too)
  [`MATCH (transactions) SELECT TRUE AS t, message_timestamp WHERE (toString ( - 1000 ) = user_hash) AND project_id = 1 AND ${TX} LIMIT 100`, "toString(…) at line 1, column 65 (the text '-1000') is not an unsigned integer, and equals (=) compares it with column user_hash", 1, 65],
  [`MATCH (eap_items) SELECT array ( TRUE , ( project_id ) , array ( attributes_bool ) ) AS p95 WHERE ${R} ORDER BY p95 DESC LIMIT 10`, "column p95 at line 1, column 205 is an array of mixed types (an Array(Variant(...))), and ORDER BY cannot use it as a key", 1, 205],
  [`MATCH (eap_items) SELECT sampling_factor, item_type + array ( NULL , timestamp , timestamp ) AS x WHERE ${R} LIMIT 10`, "array(…) at line 1, column 55 is an Array(Nullable(DateTime)), and plus (+) at line 1, column 53 takes none of", 1, 55],
  [`MATCH (events) SELECT modulo(array(NULL, timestamp), 2) AS x WHERE ${R} AND project_id = 1`, "modulo at line 1, column 23 works element by element on array(…) at line 1, column 30, whose elements are each a datetime (Nullable): ClickHouse does that only on elements of no Nullable type", 1, 30],
  // seed 14: two arrays of a Variant of other families compared (code 43)
  [`MATCH (discover) SELECT exception_frames.stack_level WHERE (0.5 IS NULL AND array ( contexts[trace.trace_id] , tags[browser] IN tuple('error') , '%a%' ) = array ( profiler_id , measurements.value NOT LIKE exception_frames.module , environment )) AND project_id IN tuple(1, 2, 3) AND ${R} LIMIT 100`, "array(…) at line 1, column 77 is an array of strings and numbers (an Array(Variant(...))) and array(…) at line 1, column 156 one of UUIDs and numbers and strings", 1, 156],
  // seed 14: arithmetic with an IPv4 is a Nullable(UInt64), which an -If aggregate does not take as its condition (code 43)
  [`MATCH (events) SELECT uniqIf ( 0 , length ( user_email ) + ip_address_v4 ) AS c WHERE ${R} AND project_id = 1`, "plus(…) at line 1, column 58 is an integer (Nullable), and uniqIf does not take an integer (Nullable) as argument 2 of 2", 1, 58],
  // a text inside a tuple is read as the other element's type (code 53), as beside it alone
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND tuple(project_id, 1) < tuple('abc', 2)`, "less (<) at line 1, column 183 works on a tuple element by element, and refuses element 1: 'abc' at line 1, column 191 is not an unsigned integer", 1, 191],
  // seed 15: greatest of a UInt16 and a UInt128 is a UInt128, which toStartOfHour does not take (43); an array beside a Nullable
  // integer in two tuples compared (43); an arrayMap of a body reading a column is an array, which a DateTime minus refuses (43)
  [`MATCH (eap_items) SELECT count ( ) AS x_1 WHERE ${R} AND (toStartOfHour ( greatest ( downsampled_retention_days , item_id ) ) IS NULL)`, "greatest(…) at line 1, column 167 is a UInt128, and toStartOfHour does not take a UInt128", 1, 167],
  [`MATCH (discover_events) SELECT 'Chrome' , transaction_hash WHERE (( 'x' = platform AND tuple ( contexts.key ) AS p95 = tuple ( num_processing_errors ) ) <= transaction_source) AND project_id IN tuple(1, 2, 3) AND ${R} LIMIT 10`, "refuses element 1: column contexts.key at line 1, column 96 is an array and column num_processing_errors at line 1, column 128 an integer (Nullable)", 1, 128],
  [`MATCH (metrics_counters) SELECT tags.key , granularity , ( bucketed_time ) - arrayMap ( ( \`v\` ) -> divide ( granularity , TRUE ) AS level , tags.value ) AS a.b:c-d WHERE ${METRICS} LIMIT 1000`, "arrayMap(…) at line 1, column 78 is an array arrayMap makes (of values whose exact type the typing pass does not know), and minus (-) at line 1, column 76 takes none of", 1, 78],
  // seed 14: an ifNull of an if whose NULL condition (group_ids, stored as NULL on discover_events) picks an array for every row (386)
  [`MATCH (discover_events) SELECT contexts[trace.op] WHERE ${R} AND project_id = 1 AND tags[environment] = ifNull(if(group_ids, 'transaction', exception_stacks.mechanism_type), now())`, "ifNull(…) at line 1, column 197 is a Variant of a string, an Array(Nullable(String)) or a datetime (its branches have no common type), and its conditions pick the branch of an Array(Nullable(String)) for every row", 1, 197],
  // seed 15: a coalesce of a tuple is that tuple, and a DateTime minus it works element by element (43)
  [`MATCH (search_issues) SELECT receive_timestamp - coalesce(tuple(TRUE, geo_subdivision, occurrence_id), 'node-api-a') AS d WHERE ${R} AND project_id = 1`, "minus (-) at line 1, column 48 of a date and a tuple subtracts its elements in turn, and refuses element 2 on what the ones before left: column geo_subdivision at line 1, column 71 is a string (Nullable)", 1, 71],
  // seed 17: a UUID compared with an if whose constant condition picks its NULL branch (url is NULL on discover): a Nullable(UInt8), refused at analysis (43)
  [`MATCH (discover) SELECT num_processing_errors AS c WHERE ${R} AND project_id = 2 AND profiler_id = if(100, url, 1)`, "column profiler_id at line 1, column 178 is a UUID (Nullable) and if(…) at line 1, column 192 is a small integer (UInt8) (Nullable): equals (=) does not take them together", 1, 192],
  // seed 17: toString of a float written with an exponent is its text as ClickHouse writes it, which no integer reads as (53)
  [`MATCH (generic_org_metrics_counters) SELECT value AS a WHERE metric_id = toString(1.5e-7) AND ${R}`, "toString(…) at line 1, column 74 (the text '1.5e-7') is not an unsigned integer", 1, 74],
  // seed 18: topK's load factor is a number from 1 (code 70 for a text)
  [`MATCH (search_issues) SELECT count(), topK(TRUE, 'G<')(offset) AS level BY receive_timestamp WHERE project_id IN tuple(1, 2, 3) AND ${R}`, "parameter 2 of topK(…) at line 1, column 50, 'G<', is the load factor, and must be a number from 1 to 16777215", 1, 50],
  // seed 18: index 0 (1.5e-7 truncated) of a Nullable string with a constant length: refused on the first row holding a value (135)
  [`MATCH (discover_events) SELECT substring(environment, 1.5e-7, multiIf(10, 18446744073709551616, measurements.key)) AS s WHERE ${R} AND project_id IN tuple(1, 2, 3) LIMIT 10`, "1.5e-7 at line 1, column 55 is index 0, and substring counts a string's characters from 1: ClickHouse refuses 0 on the first row that holds a value", 1, 55],
  // seed 18: a number divided by an array of Nested columns read whole, element by element: by arrays of tuples (43)
  [`MATCH (replays) SELECT tags[handled] AS level WHERE ${R} AND project_id = 1 AND tags[sentry:user] = divide(10, array(tags))`, "works element by element on array(…) at line 1, column 204, whose elements are each an array of tuples", 1, 204],
  // seed 18: an if picking its NULL branch, a Nullable(String), looked for in an array of integers: no common type, with no row read (386)
  [`MATCH (discover) SELECT group_ids WHERE ${R} AND project_id = 2 AND (if(FALSE, dist, level LIKE exception_frames.module) NOT IN group_ids)`, "if(…) at line 1, column 162 is a string (Nullable) and column group_ids at line 1, column 221 is an array of integers: notIn (NOT IN) does not take them together", 1, 221],
  // seed 18: coalesce skips a column the entity stores as NULL (site on transactions): the text compared with a DateTime (41)
  [`MATCH (discover_transactions) SELECT tags[sentry:user] AS c WHERE coalesce(site, 'production') = now() AND project_id = 1 AND ${TX}`, "coalesce(…) at line 1, column 67 (the text 'production') is not a datetime", 1, 67],
  // seed 18: a constant computed from a column on the right of IN is no set, compared as = compares (72)
  [`MATCH (replays) SELECT os_name WHERE ('staging' IN coalesce(0.5, user_email)) AND project_id = 2 AND ${R}`, "'staging' at line 1, column 39 is not a number, and in (IN) compares it with coalesce(…) at line 1, column 52, a float", 1, 39],
  // seed 19: a lambda given to an aggregate the entity maps to its -Merge form (code 1)
  [`MATCH (generic_metrics_gauges) SELECT sumIf(value, (\`x\`) -> now()) AS total, tags.raw_value BY tags.raw_value WHERE project_id IN tuple(1, 2, 3) AND org_id = 1 AND metric_id = 1 AND ${R} LIMIT 1000`, "sumIf at line 1, column 39 does not take a lambda (the one at line 1, column 52)", 1, 52],
  // seed 19: a comparison with NULL (transaction_hash on discover) of an arrayJoin is not folded (215)
  [`MATCH (discover) SELECT count() AS c, tags_value <= transaction_hash AS p WHERE ${R} AND project_id = 2`, "column tags_value at line 1, column 39 is neither a BY key nor inside an aggregate", 1, 39],
  // seed 19: coalesce of a UInt16 (abs of one) and a Bool is a UInt16, and a text on the left of IN is compared with it as = compares (53)
  [`MATCH (replays) SELECT count() AS c WHERE project_id = 1 AND lower('$",') IN coalesce(abs(segment_id), FALSE) AND ${R}`, "lower(…) at line 1, column 62 (the text '$\",') is not an unsigned integer, and in (IN) compares it with coalesce(…) at line 1, column 78, an integer", 1, 62],
  // seed 19: a tuple a float times a tuple makes, times a UInt128, element by element: a Float64 times a UInt128 (43)
  [`MATCH (eap_items) SELECT server_sample_rate * tuple(organization_id, organization_id, server_sample_rate) * item_id AS p WHERE ${R}`, "multiply (*) at line 1, column 107 works on a tuple element by element, and refuses element 1: multiply(…) at line 1, column 45 is a float and column item_id at line 1, column 109 is a UInt128", 1, 109],
  // seed 19: a Nullable(String) beside a UUID in two tuples compared: compared as the pair alone is (386 on a row holding a value)
  [`MATCH (discover_transactions) SELECT spans.exclusive_time WHERE ${TX} AND project_id = 2 AND (tuple(group_id, dist, release) != tuple(user_hash, replay_id, 100))`, "notEquals (!=) at line 1, column 217 works on a tuple element by element, and refuses element 2: column dist at line 1, column 202 is a string (Nullable) and column replay_id at line 1, column 237 is a UUID (Nullable)", 1, 237],
  // seed 20: a comparison with NULL (num_processing_errors on discover_transactions) of a Variant is not folded (215)
  [`MATCH (discover_transactions) SELECT num_processing_errors = ifNull(ip_address, 1.5e-7 / 0) AS e, count() AS c WHERE ${TX} AND project_id = 2`, "column ip_address at line 1, column 69 is neither a BY key nor inside an aggregate", 1, 69],
  // seed 19: a text compared with the time column in WHERE is read strictly by the partition index ('31' is a day of the month to the comparison alone; code 41)
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND '31' != timestamp`, "'31' at line 1, column 162 is compared in WHERE with column timestamp at line 1, column 170, which the table's time index covers", 1, 162],
  // seed 20: now() written as a text is 'YYYY-MM-DD hh:mm:ss', which no number reads (53)
  [`MATCH (replays) SELECT tags[environment] AS p95 WHERE ${R} AND project_id IN tuple(1, 2, 3) AND (toString(now()) > 2)`, "toString(…) at line 1, column 190 (the text '", 1, 190],
  [`MATCH (transactions) SELECT geo_country_code AS p WHERE ${TX} AND project_id = 3 AND (concat('x', now()) = span_op_breakdowns[ops.db])`, "concat(…) at line 1, column 178 (the text 'x", 1, 178],
  // seed 20: greatest of a Boolean and a NULL is a Bool, and a string column is read as Booleans to look for it (467)
  [`MATCH (discover_transactions) SELECT version, count() AS a BY version WHERE project_id = 3 AND ${TX} ORDER BY min(greatest(FALSE, num_processing_errors) IN transaction_source) ASC LIMIT 1`, "greatest(…) at line 1, column 206 is a boolean, and in (IN) looks for it in column transaction_source", 1, 206],
  // seed 20: an if whose constant condition picks an IPv4 beside a float: converted to a Float64 (48)
  [`MATCH (transactions) SELECT if(2, ip_address_v4, 0.5) AS n WHERE ${TX} AND project_id = 2`, "column ip_address_v4 at line 1, column 35 is an IPv4, and if may return it beside 0.5 at line 1, column 50, a float", 1, 35],
  // seed 20: topK's size now(), a DateTime read as its seconds, is past the most topK keeps (69)
  [`MATCH (discover_transactions) SELECT topK(now())(tuple(10)) AS t, contexts[os.name] AS o BY contexts[os.name] WHERE ${TX} AND project_id IN tuple(1, 2, 3)`, "parameter 1 of topK(…) at line 1, column 43, now(…), must be a number from 1 to 16777215", 1, 43],
  // seed 20: toString(0 IS NULL) is '0', which a DateTime bucket does not read (41)
  [`MATCH (generic_org_metrics_counters) SELECT org_id AS c WHERE ${R} AND (bucketed_time = toString(0 IS NULL))`, "toString(…) (the text '0') is not a datetime, and column bucketed_time holds datetimes", 1, 181],
  // seed 21: an AND of constants that is NULL decides nothing: offset, beside it in HAVING, is read (215)
  [`MATCH (discover_transactions) SELECT any(spans.group) AS g WHERE project_id = 2 AND ${TX} HAVING version <= contexts[trace.op] AND (logger) IS NULL AND offset IN tuple(300, 1000)`, "column offset at line 1, column 244", 1, 244],
  // seed 21: IS NOT NULL of a Nullable comparison is computed per row (environment is Nullable on profiles: 215)
  [`MATCH (profiles) SELECT argMax(now(), time) AS a, isNotNull(concat(environment, version_name) > transaction_name) AS n WHERE project_id = 1 AND organization_id = 1 AND received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00')`, "column environment at line 1, column 68", 1, 68],
  // seed 21: lower changes ASCII letters alone, and 'p😀' is no number (53)
  [`MATCH (metrics_sets) SELECT -100 AS e WHERE (lower('P😀') = not(1)) AND project_id IN tuple(1, 2, 3) AND org_id = 1 AND ${R}`, "lower(…) at line 1, column 46 (the text 'p😀') is not an unsigned integer", 1, 46],
  // seed 22: toDate reads a date written year first, or eight digits; '9' is none (38)
  [`MATCH (transactions) SELECT array(toDate('9'), 'x') AS a WHERE project_id = 1 AND ${TX}`, "'9' at line 1, column 42 is not a date: toDate cannot read it as one", 1, 42],
  // seed 22: a parameter computed beside a column is no constant to the analyzer, whatever its value (36)
  [`MATCH (search_issues) SELECT quantiles(coalesce(1000, geo_region))(0.5) AS p95 WHERE project_id = 3 AND ${R}`, "parameter 1 of quantiles(…) at line 1, column 40, coalesce(…), must be a constant", 1, 40],
  // seed 22: discover's logger is NULL, and an array of a NULL and an array is an Array(Variant(Array(String))) (GROUP BY, 44)
  [`MATCH (discover) SELECT argMin(now(), abs(sample_weight)) AS time BY array(logger, tags.key) WHERE project_id = 3 AND ${R} ORDER BY time DESC LIMIT 1`, "array(…) at line 1, column 70 is an array of mixed types", 1, 70],
  // seed 22: greatest of texts compares their UTF-8 bytes, past ASCII too; 'Y ' is no number (72)
  [`MATCH (discover_transactions) SELECT count() AS c WHERE project_id = 3 AND ${TX} AND (greatest('\\,\\ü', '\\Y ') IN span_op_breakdowns[ops.db])`, "(the text 'Y ') is not a number", 1, 178],
  // seed 22: spans.op IS NULL on discover_events, which lacks spans, is the rewrite's false, which decides no OR: tags[runtime] is read outside BY (215)
  [`MATCH (discover_events) SELECT contexts[runtime.name] AS users, max(transaction_op) AS m BY contexts[runtime.name] WHERE project_id = 1 AND ${R} HAVING spans.op IS NULL OR tags[runtime] IN tuple('%a%') LIMIT 10`, "column tags[runtime] at line 1, column 265 is neither a BY key nor inside an aggregate", 1, 265],
  // seed 22: a mapped -If's condition that is no UInt8 (an Array(Variant(String, UInt8)), code 43)
  [`MATCH (generic_metrics_sets) SELECT uniqIf(value, array(10, 1, 'x')) AS \`weird alias\` BY now() WHERE org_id = 1 AND project_id = 1 AND ${R}`, "array(…) at line 1, column 51 is an array of mixed types (an Array(Variant(...))), and uniqIf does not take it as its condition", 1, 51],
  // seed 23: an if of two aggregate states of different types is a Variant, whatever picks the branch: no GROUP BY key (44)
  [`MATCH (metrics_distributions) SELECT tags.value AS level, timestamp, count() BY tags.value, timestamp, if(100, sum, avg) AS n, percentiles WHERE ${R} AND org_id = 1 AND project_id = 2`, "if(…) at line 1, column 104 is a value of mixed types", 1, 104],
  // seed 23: arrayFilter returns its array, an Array(Float64) here, which a DateTime is not compared with (43)
  [`MATCH (generic_metrics_distributions) SELECT count() AS total WHERE (now() < arrayFilter((\`v\`) -> isNull(\`v\`), tags.key / (100))) AND project_id = 3 AND org_id = 1 AND ${R}`, "now(…) at line 1, column 70 is a datetime and arrayFilter(…) at line 1, column 78 is an Array(Float64)", 1, 78],
  // seed 22: an alias on the right of IN is what it names, a subscript here, compared as = compares (386)
  [`MATCH (discover_events) SELECT tags[transaction] AS level WHERE ${R} AND project_id = 2 AND (0 NOT IN level) LIMIT 10`, "0 at line 1, column 186 is a small integer (UInt8) and column level at line 1, column 195 is a string", 1, 195],
  // seed 22: substring of a text is a text, '' here, which no integer reads (32)
  [`MATCH (generic_metrics_sets) SELECT metric_id AS total BY metric_id WHERE ${R} AND org_id = 1 AND project_id = 1 AND (tags.key != substring('production', 1000, FALSE))`, "substring(…) at line 1, column 223 (the text '') is not an integer", 1, 223],
  // seed 24: an if of an Array(Nullable(String)) and an Array(String) is an Array(Nullable(String)), compared with an Array(Nullable(UInt32)) (43)
  [`MATCH (discover_events) SELECT avg(2) AS users WHERE if(0, exception_frames.filename, contexts.key) = exception_frames.colno AND project_id = 2 AND ${R}`, "if(…) at line 1, column 54 is an Array(Nullable(String)) and column exception_frames.colno", 1, 103],
  // seed 24: an if of constant texts picked by a constant condition is its branch's text, 'error' here, which no float reads (72)
  [`MATCH (discover_transactions) SELECT span_op_breakdowns[ops.http] WHERE (0.5 != if(10, 'error', 'production')) AND project_id = 2 AND ${TX}`, "if(…) at line 1, column 81 (the text 'error') is not a number", 1, 81],
  // seed 24: concat writes a float as toString does: 'true1e23' is no DateTime (41)
  [`MATCH (events) SELECT environment AS c WHERE ${R} AND project_id IN tuple(1, 2, 3) AND (concat(TRUE, 99999999999999999999999) = now()) LIMIT 100`, "(the text 'true1e23') is not a datetime", 1, 181],
  // seed 24: a state looked for in a set computed from constants, which converts to no state (53)
  [`MATCH (generic_metrics_gauges) SELECT org_id AS c WHERE (count NOT IN isNotNull(0)) AND project_id = 1 AND org_id = 1 AND ${R}`, "isNotNull(…) at line 1, column 71 is a small integer (UInt8), not an aggregate state", 1, 71],
  // seed 24: an element of a Nested column read whole is a tuple, compared with a number (43)
  [`MATCH (org_metrics_counters) SELECT 0.95 - granularity AS g WHERE ${R} AND (arrayElement(tags, org_id) <= 3)`, "arrayElement(…) at line 1, column 169 is a tuple and 3", 1, 199],
  // seed 25: a comparison of contexts.value's elements given a NULL (measurements.value, which discover_events lacks) is the rewrite's arrayExists, which reads the column outside BY (215)
  [`MATCH (discover_events) SELECT exception_frames.module, count() AS c BY exception_frames.module, http_referer WHERE project_id = 3 AND ${R} HAVING contexts.value >= measurements.value`, "column contexts.value at line 1, column 240 is neither a BY key nor inside an aggregate", 1, 240],
  // a join: a conjunct reading one side alone is pushed down to that side's table, whose time index reads the text strictly (41)
  [`${JOIN} SELECT count() WHERE ${ER} AND e.project_id = 1 AND g.project_id = 1 AND toStartOfHour(e.timestamp) = toString(1)`, "toString(…) (the text '1') at line 1, column 249 is compared in WHERE with toStartOfHour(…)", 1, 249],
  // a number with a fraction compared with a DateTime is read as a day and a month: '0.95' is day 95 of January (41)
  [`MATCH (events) SELECT '0.95' < timestamp AS d WHERE project_id = 1 AND ${R}`, "'0.95' at line 1, column 23 is not a datetime, and less (<) compares it with column timestamp", 1, 23],
  // seed 26: a state repeated a constant number of times is still its state, which plus adds to one of another function (421)
  [`MATCH (generic_metrics_distributions) SELECT percentiles_weighted + max * 10 AS x WHERE ${METRICS}`, "and multiply(…) at line 1, column 73 one of AggregateFunction(max, Float64): plus (+) merges states of one function over one type only", 1, 73],
  // seed 26: isNull of a column that is never NULL is folded to 0, an index arrayElement refuses (135)
  [`MATCH (transactions) SELECT contexts.key WHERE contexts.key IN arrayElement(tags.value, timestamp IS NULL) AND project_id = 1 AND ${TX}`, "isNull(…) (0: its column is never NULL) at line 1, column 99 is index 0", 1, 99],
  // seed 41's run: isNull of a call never NULL (now()) is folded to 0 too (135)
  [`MATCH (replays) SELECT substring(user_geo_city, now() IS NULL, 0) AS level WHERE project_id = 2 AND ${R}`, "isNull(…) (0: its argument is never NULL) at line 1, column 55 is index 0", 1, 55],
  // seed 44: a date minus a tuple takes the elements in turn; a DateTime minus a DateTime is a number, which a DateTime is not taken from (43)
  [`MATCH (events) SELECT timestamp - tuple(project_id, now(), timestamp) AS d WHERE project_id = 1 AND ${R}`, "of a date and a tuple subtracts its elements in turn, and refuses element 3 on what the ones before left: minus(…) at line 1, column 53 is an integer and column timestamp at line 1, column 60 is a datetime", 1, 60],
  // seed 45: an IPv4 column converts to unsigned integers only, not to a negative literal's type (48)
  [`MATCH (discover_events) SELECT event_id WHERE (-2 IN ip_address_v4) AND project_id = 1 AND ${R}`, "-2 at line 1, column 49 is a signed integer, and in (IN) looks for it in column ip_address_v4 at line 1, column 54, an IPv4 column", 1, 49],
  // seed 45: a map keyed by strings looked up by a number (43, with rows or none)
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND arrayElement(attributes_int, sampling_weight) = 1`, "column sampling_weight at line 1, column 175 is an integer, and column attributes_int at line 1, column 159 is a Map(String, Int64), keyed by strings", 1, 175],
  // seed 45: an if of an Array(UInt64) and an Array(Float32) is a Variant of the two, which plus takes beside no number (43)
  [`MATCH (discover_transactions) SELECT span_op_breakdowns[ops.db] + if(group_id, group_ids, spans.exclusive_time_32) AS x WHERE project_id = 1 AND ${TX}`, "if(…) at line 1, column 67 is a Variant of an array of integers or an Array(Float32) (its branches have no common type)", 1, 67],
  // seed 45: a condition in an array of a Variant is a UInt8, which 0.95's Variant does not hold (43)
  [`MATCH (discover_events) SELECT event_id WHERE ${R} AND project_id = 2 AND array(dist, round(span_id) IN 2) >= array(0.95, release)`, "array(…) at line 1, column 167 is an array of a Variant holding a UInt8", 1, 203],
  // seed 44: a date computed once moved past 2^63 overflows while the query is planned (407)
  [`MATCH (replays) SELECT url AS c, 99999999999999999999999 + now() AS n WHERE project_id = 2 AND ${R}`, "99999999999999999999999 at line 1, column 34 lies past 2^63, and plus (+) moves now(…) at line 1, column 60, a date computed once", 1, 34],
  // seed 47: an -If aggregate with a Nullable condition is of the type a plain one gives (a UInt64), which a DateTime is not taken from (43)
  [`MATCH (replays) SELECT sumIf(tags[server_name] != tags[environment], 10 IN device_model) - now() AS total WHERE project_id = 2 AND ${R}`, "sumIf(…) at line 1, column 24 is an integer and now(…) at line 1, column 92 is a datetime", 1, 92],
  // seed 47: 10 is written as a UInt8, which no float element of the other array is (43)
  [`MATCH (transactions) SELECT contexts[runtime.name] AS users WHERE array(http_method, geo_region, measurements[lcp]) = array(10, 'error') AND project_id = 1 AND ${TX}`, "array(…) at line 1, column 119 is an array of a Variant holding a UInt8, and array(…) at line 1, column 67 one of a Variant that cannot hold one", 1, 119],
  // seed 47: an array of tuples collected divided by a number divides each tuple element by element, a String among them (43)
  [`MATCH (metrics_counters) SELECT groupUniqArray(tuple(org_id, '', bucketed_time)) / count(now()) AS x WHERE ${METRICS}`, "works on an array of tuples element by element, and refuses element 2 of tuple(…) at line 1, column 48: '' at line 1, column 62 is a string", 1, 62],
  // seed 50: a pair of constants in compared tuples is compared first, the text read as the number's type (53)
  [`MATCH (transactions) SELECT duration WHERE tuple(spans.group, 'http.server') = tuple(geo_subdivision, 1e+10) AND project_id = 1 AND ${TX}`, "refuses element 2: 'http.server' at line 1, column 63 is not an unsigned integer", 1, 63],
  // seed 50: toString of a tuple of numbers is its text in parentheses, which no DateTime reads (41)
  [`MATCH (generic_metrics_counters) SELECT count() AS c, bucketed_time BY bucketed_time WHERE (toString(tuple(10)) >= now()) AND ${METRICS}`, "toString(…) at line 1, column 93 (the text '(10)') is not a datetime", 1, 93],
  // seed 51: an array of tuples looked for among NULLs alone (url is NULL on discover_transactions: 43)
  [`MATCH (discover_transactions) SELECT tags.value AS v, title WHERE ${TX} AND project_id = 1 AND (tags IN (url))`, "column tags at line 1, column 188 is an array of tuples, and in (IN) looks for it among NULLs alone (column url at line 1, column 197)", 1, 197],
  // seed 51: a level computed as greatest of two numbers written out is read as its value, 10 (12)
  [`MATCH (events) SELECT title, quantileExact(greatest(2, 10))(now()) AS time BY title WHERE ${R} AND project_id = 1`, "parameter 1 of quantileExact(…) at line 1, column 44, greatest(…), must be a level between 0 and 1", 1, 44],
  // seed 26: isNotNull of a column the SQL computes, Nullable, beside an aggregate reads it (215)
  [`MATCH (search_issues) SELECT ip_address IS NOT NULL AND uniqExact(tags.key) AS c WHERE project_id = 2 AND ${R}`, "column ip_address at line 1, column 30 is neither a BY key nor inside an aggregate", 1, 30],
  // seed 26: an array of UInt128s knows its elements: a Float64 times it is a Float64 times UInt128s (43)
  [`MATCH (eap_items) SELECT avg(TRUE) * groupUniqArray(item_id) AS level WHERE ${R}`, "whose elements are each a UInt128; taken as one element", 1, 38],
  // seed 26: a tuple plus a date is the date's type (its elements added as intervals): a DateTime compared with a String (386)
  [`MATCH (profiles) SELECT transaction_name AS p95 WHERE version_name != plus(tuple(3, organization_id, organization_id), time) AND project_id = 1 AND organization_id = 1 AND received >= toDateTime('2024-01-01T00:00:00') AND received < toDateTime('2024-01-02T00:00:00')`, "column version_name at line 1, column 55 is a string and plus(…) at line 1, column 71 is a datetime", 1, 71],
  // seed 26: a literal looked for in a literal is false, which decides no OR: contexts.key's elements are read outside an aggregate (215)
  [`MATCH (discover_events) SELECT 0.000001 AS level, count() AS x_1 WHERE project_id IN tuple(1, 2, 3) AND ${R} HAVING 'x' IN 'error' OR contexts.key LIKE '%error%' ORDER BY level DESC`, "column contexts.key at line 1, column 227 is neither a BY key nor inside an aggregate", 1, 227],
  // seed 27: texts compared in order are folded by their bytes: true decides no AND, so user is read outside BY (215)
  [`MATCH (replays) SELECT argMax(tags_value, timestamp) AS a, segment_names BY segment_names WHERE project_id = 2 AND ${R} HAVING user != click_text AND 'production' > 'backend@1.2.0'`, "column user at line 1, column 220 is neither a BY key nor inside an aggregate", 1, 220],
  // seed 27: an if of numbers under a constant condition keeps their common type, a Float64 an IPv4 is not divided by (43)
  [`MATCH (transactions) SELECT ip_address_v4 / if(2, 99999999999999999999999, duration) AS x_1 WHERE project_id = 3 AND ${TX}`, "is an IPv4 (Nullable) and if(…) at line 1, column 45 is a float: divide (/) does not take them together", 1, 45],
  // seeds 26 and 27: a substring's length past Int64, with the offset read per row, overflows on the first row (69)
  [`MATCH (transactions) SELECT substring(contexts[os.name], deleted, 18446744073709551616) AS total WHERE project_id IN tuple(1, 2, 3) AND ${TX}`, "18446744073709551616 at line 1, column 67 is a length that converts to Int64's least value", 1, 67],
  // seed 29: multiIf counts its arguments before it looks at a NULL (42)
  [`MATCH (search_issues) SELECT tags[server_name], multiIf(contexts[device.family], NULL < TRUE) AS m WHERE ${R} AND project_id = 3 LIMIT 1`, "multiIf at line 1, column 49 does not take 2 arguments", 1, 49],
  // seed 29: timestamp is finish_ts on discover_transactions, which the time index covers: '1000' is read strictly (41)
  [`MATCH (discover_transactions) SELECT transaction_name AS t WHERE ${TX} AND project_id = 1 AND (toString(1000) <= timestamp) LIMIT 1`, "toString(…) (the text '1000') at line 1, column 187 is compared in WHERE with column timestamp", 1, 187],
  // seed 29: BY toHour(bucketed_time) makes neither the bucket nor its column a key (215)
  [`MATCH (metrics_counters) SELECT uniq(bucketed_time) AS u BY toHour(bucketed_time), project_id WHERE ${METRICS} ORDER BY bucketed_time DESC LIMIT 100`, "column bucketed_time at line 1, column 259 is neither a BY key", 1, 259],
  // seed 30: a Variant inside a sorting key's tuple (an array of mixed types) is refused too (44)
  [`MATCH (events) SELECT 0, user_name AS equation[0], tags[level] WHERE project_id = 3 AND ${R} ORDER BY tuple(contexts.key, array(TRUE, environment, 'error'), tags) ASC`, "tuple(…) at line 1, column 195 holds array(…) at line 1, column 215, an array of mixed types", 1, 195],
  // seed 30: a tuple divided by a Nullable number is a Nullable tuple, which toStartOfHour refuses as a tuple (43)
  [`MATCH (discover) SELECT 0.95 WHERE ${R} AND project_id IN tuple(1, 2, 3) AND (toStartOfHour(tuple(exception_frames.package) / span_op_breakdowns[ops.http]) = now())`, "divide(…) at line 1, column 217 is a tuple, and toStartOfHour does not take a tuple", 1, 217],
  // seed 31: a LIKE pattern ending in a backslash that escapes nothing (25, answered as a 500 then)
  [`MATCH (discover_transactions) SELECT like(environment, '\\\\') / trace_sampled AS c WHERE ${TX} AND project_id = 2 LIMIT 1`, "'\\' at line 1, column 56 ends in a backslash that escapes nothing", 1, 56],
  // seed 31: min of a float is folded to the float in a query with BY, which AND cannot read as a condition (70)
  [`MATCH (metrics_counters) SELECT tags.value AS p95/2, tags.key IS NULL AND min(18446744073709551616) BY tags.value WHERE ${METRICS} LIMIT 100`, "18446744073709551616 at line 1, column 79 is a float other than 0 or 1, and and (AND) converts it", 1, 79],
  // arrayConcat takes its arrays in their elements' common type: an Array(UInt64) and an Array(Int64) have none (code 386)
  [`MATCH (metrics_counters) SELECT arrayConcat(tags.key, tags.key - tags.key) AS x WHERE ${METRICS} LIMIT 1 GRANULARITY 60`, "column tags.key at line 1, column 45 is an Array(UInt64) and minus(…) at line 1, column 64 an Array(Int64): arrayConcat takes its arrays in their elements' common type", 1, 64],
];

function failure(text: string): QueryServiceError {
  try {
    prepareSnqlQuery(registry, text, false);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryServiceError);
    return error as QueryServiceError;
  }
  throw new Error(`expected the query to fail: ${text}`);
}

/**
 * Calls the typing pass must let through: the engine takes them (a Nullable column, a NULL
 * beside a refused class, a lambda over an array). The probe's test checks the engine side.
 */
const ACCEPTED: readonly string[] = [
  // texts compared in order, false, decide an AND in HAVING: user is not read
  `MATCH (replays) SELECT argMax(tags_value, timestamp) AS a, segment_names BY segment_names WHERE project_id = 2 AND ${R} HAVING user != click_text AND 'production' < 'backend@1.2.0'`,
  // an index that is isNull of a Nullable column is read per row, and taken
  `MATCH (events) SELECT arrayElement(tags.value, isNull(environment)) AS a WHERE ${R} AND project_id = 1`,
  // an index of 0 with a length read per row: the engine checks it per row only, and takes it
  `MATCH (events) SELECT substring(title, 0, length(title)) AS s, substring(title, 0.5, length(title)) AS t WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT if(isNull(level), NULL, 1) AS a WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT minus(level, NULL) AS a WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT plus(NULL, title) AS a WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT arrayExists((\`x\`) -> equals(\`x\`, 'a'), tags.key) AS a WHERE ${R} AND project_id = 1`,
  // states of one function and type added; a state repeated a constant number of times
  `MATCH (metrics_distributions) SELECT sum + sum AS t, 2 * count AS c WHERE ${METRICS}`,
  // a text on the left: a datetime or a Unix time the time index reads, any text IN a number or UUID column (the column is the set)
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND '2024-01-01T01:00:00' <= timestamp AND '1700000000' > timestamp AND '1' = project_id`,
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'x' IN (project_id) AND 'x' NOT IN (event_id)`,
  // an array of a UInt8 first beside a Bool is an Array(UInt8), compared with one as the engine does
  `MATCH (generic_metrics_counters) SELECT value WHERE ${METRICS} AND array(2, FALSE) = array(1)`,
  // index 0 of a constant array or string is computed first, and taken
  `MATCH (events) SELECT arrayElement(array('a'), 0) AS k, substring('abc', 0, 1) AS s WHERE ${R} AND project_id = 1`,
  // an array beside a text written as one, or beside an array; a bare column on the right of IN is a set
  `MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND array(title) = '[\\'a\\']' AND array(1, 2) != array(3)`,
  `MATCH (org_metrics_counters) SELECT count() AS c WHERE org_id = 1 AND project_id = 1 AND ${R} AND '2024-01-01 00:00:00' IN bucketed_time`,
  // a Variant of if's or coalesce's branches, given to a function that takes all its alternatives, or to an aggregate that takes any; a text every alternative reads
  `MATCH (events) SELECT toString(if(title = 'a', title, timestamp)) AS s, count(if(title = 'a', 0.95, timestamp)) AS c, any(if(title = 'a', title, 3)) AS a BY title, timestamp WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT title AS s WHERE ${R} AND project_id = 1 AND coalesce(location, 1) = '1' AND notEmpty(toString(coalesce(location, now()))) = 1 LIMIT 1 BY if(title = 'a', title, 3)`,
  // the constant answer of a comparison of a column discover lacks beside a number; a value IN an if of one family
  `MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND (exception_frames.stack_level = 0) = 1 AND (exception_frames.lineno != NULL) = 1`,
  `MATCH (transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND duration IN if(duration > 1, 7.5, 5) AND transaction IN if(duration > 1, transaction, user)`,
  // an -If's NULL condition is taken by the quantiles of many levels too
  `MATCH (transactions) SELECT quantilesIf(0.5)(duration, NULL) AS i WHERE ${TX} AND project_id = 1`,
  // a string IN a list read per row takes an array there (read as its text)
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND title IN tuple(tags.key, title)`,
  // a text that reads as one of the types such a value may have
  `MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND greatest(TRUE, sample_weight, duration) > '1' AND (title IN now()) = '1'`,
  // ifNull and coalesce of columns the storage computes as NULL, all of them: a Nothing (a crash of the typing pass, a 500, found by the 1,000,000-input run)
  `MATCH (discover) SELECT ifNull(logger, version) AS v, coalesce(site, url, NULL) AS w WHERE ${R} AND project_id = 1`,
  `MATCH (discover_transactions) SELECT count() AS c WHERE ${TX} AND project_id = 1 AND 0 <= coalesce(site, location)`,
  // an if of a literal condition on the right of IN is folded to its branch, a set; a NULL length checks no index; topK counted
  `MATCH (replays) SELECT os_name WHERE ('staging' IN if(1, 0.5, user_email)) AND ('0.5' IN coalesce(0.5, user_email)) AND project_id = 2 AND ${R}`,
  `MATCH (events) SELECT substring(any(title), 0, if(0, 5, NULL)) AS s, topK(10, 3, 'counts')(title) AS t WHERE ${R} AND project_id = 1`,
  // a constant condition picks one branch for every row: a call that takes one alternative is taken (the engine answers `lower(if(FALSE, timestamp, title))`)
  `MATCH (events) SELECT lower(if(FALSE, timestamp, title)) AS s WHERE ${R} AND project_id = 1 AND title = if(FALSE, 1, title)`,
  // strings that read as the value they are compared with
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 HAVING c > '10'`,
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND toStartOfHour(timestamp) = '2024-01-01 00:00:00'`,
  `MATCH (transactions) SELECT toFloat64(project_id) AS a WHERE ${TX} AND project_id = 1 AND a != 'nan' AND a > '1e3' AND a < '-inf'`,
  // a string on the left of IN: the set is converted to a string (found by the fuzz)
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'production' IN project_id`,
  // an array column compares its elements in conditions only, and an array-joined one is an element everywhere
  `MATCH (events) SELECT tags.key = tags.key AS same WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT lower(tags.key) AS k ARRAY JOIN tags.key WHERE ${R} AND project_id = 1 AND lower(tags.key) = 'a'`,
  `MATCH (sessions) SELECT sessions, release BY release WHERE started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1 HAVING sessions > 1`,
  // curried calls with the counts ClickHouse takes; a NULL where it is taken
  `MATCH (transactions) SELECT quantiles(0.5, 0.9)(duration) AS q, quantile()(duration) AS m, topK(5)(transaction) AS t, quantilesIf(0.5)(duration, 1) AS i WHERE ${TX} AND project_id = 1`,
  `MATCH (events) SELECT has(tags.key, NULL) AS h, indexOf(tags.key, NULL) AS i WHERE ${R} AND project_id = 1`,
  // a Nullable condition is taken, and ifNull/coalesce/isNull do not keep Nullable (not in nullableResults)
  `MATCH (transactions) SELECT if(isNull(lower(user)), 1, 2) AS a, if(notEmpty(coalesce(user, 'x')), 1, 2) AS b, if(lower(user) = 'a', 1, 2) AS c WHERE ${TX} AND project_id = 1`,
  // array variants where arrays are taken, and compared by their elements in conditions
  `MATCH (discover_events) SELECT has(exception_frames.module, 'x') AS h, arrayMax(exception_frames.lineno) AS s, length(exception_frames.in_app) + 1 AS n WHERE ${R} AND project_id = 1 AND exception_frames.module = 'x' AND exception_frames.lineno > 5`,
  `MATCH (transactions) SELECT arrayJoin(measurements.value) + 1 AS v, arrayMax(measurements.value) AS m WHERE ${TX} AND project_id = 1`,
  // tuples where the engine takes them: arithmetic and comparison of two, a set for IN, an array of them; a UInt128 in arithmetic
  `MATCH (events) SELECT plus(tuple(1, 2), tuple(3, 4)) AS t, tuple(1, 'a') = tuple(2, 'b') AS e, has(array(tuple(1, 2)), tuple(1, 2)) AS h WHERE ${R} AND title IN tuple('a', 'b') AND project_id IN tuple(1, 2)`,
  `MATCH (events) SELECT tuple(1, 2) * 3 AS m, tuple(project_id, 1.5) / 2 AS d, timestamp - tuple(1, 2) AS t, tuple(1, 2) + timestamp AS p, tuple(1, 2) * tuple(project_id, 2) AS dot, modulo(tuple(5, 6), 4) AS r WHERE ${R} AND project_id = 1`,
  // arrays of DateTimes and UUIDs, which the probe's robust refusals never met (has took them)
  `MATCH (events) SELECT has(groupArray(timestamp), now()) AS g, indexOf(groupArray(event_id), event_id) AS i BY event_id WHERE ${R} AND project_id = 1`,
  `MATCH (replays) SELECT toDate(replay_start_timestamp) = today() AS t, toDate(replay_start_timestamp) + 1 AS d WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT has(array(timestamp), now()) AS h, has(array(event_id), event_id) AS u, now() IN array(timestamp, received) AS i, has(array(received), timestamp) AS r WHERE ${R} AND project_id = 1`,
  `MATCH (metrics_sets) SELECT (project_id IN use_case_id) + 1 AS i, toString(project_id NOT IN org_id) AS s WHERE ${METRICS}`,
  `MATCH (eap_items) SELECT item_id + 1 AS i WHERE ${R} AND organization_id = 1 AND project_id = 1`,
  // greatest and least of classes with a common type, beside such a column
  `MATCH (discover_events) SELECT greatest(1, 2, transaction_status) AS g, least(title, 'a', transaction_status) AS l WHERE ${R} AND project_id = 1`,
  // a number plus a DateTime is a DateTime, a number divided by a number a Float64
  `MATCH (metrics_counters) SELECT plus(1, now()) AS p, granularity / 2 + 1 AS q WHERE ${METRICS}`,
  // count, uniq and isNull of a column the storage computes as NULL are numbers
  `MATCH (discover_transactions) SELECT count(received) + 1 AS c, uniq(received) * 2 AS u, isNull(received) AS n WHERE ${TX} AND project_id = 1`,
  // an array on the right of IN is a set of values; strings of Nullable or plain columns in an array; integers up to UInt64's and Int64's ends
  `MATCH (events) SELECT has(array(title, message), 'x') AS h, arrayStringConcat(array(contexts[a], contexts[b])) AS s WHERE ${R} AND project_id = 1 AND 'a' IN array(1, 2) AND title NOT IN array(1, 2)`,
  `MATCH (events) SELECT bitAnd(9999999999999999999, 1) AS b, bitAnd(-9223372036854775000, 1) AS n WHERE ${R} AND project_id = 1`,
  // a bare column on the right of IN is a set of one, converted to the left's type (group_id IN project_id, or a string column and a number); computed values of a common type
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND group_id IN project_id AND platform IN project_id AND tags[level] IN tags[server_name] AND group_id IN plus(project_id, 1) AND 'error' IN tags[level] AND title NOT IN lower(message)`,
  `MATCH (events) SELECT upper(toString(tags[sentry:user] IN tuple('error'))) AS p, (project_id IN tuple(1, 2)) + 1 AS q, level IN array('a') AS l WHERE ${R} AND project_id = 1 AND (title IN tuple('a')) = 1`,
  `MATCH (events) SELECT has(array(title, level), 'x') AS h, arrayStringConcat(array(title, level, 'a')) AS s, length(array(level, title)) + 1 AS n WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT arrayMap((\`k\`, \`v\`) -> concat(\`k\`, \`v\`), tags.key, tags.value) AS a, arrayFilter((\`x\`) -> equals(\`x\`, 'a'), tags.value) AS b WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT if(NULL, 1, 2) + 1 AS a, concat(if(equals(level, title), level, platform), title) AS b, multiIf(isNull(level), title, platform) AS c WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT toDate(timestamp) + 1 AS d, toMonday(timestamp) AS m, dateDiff('day', toDate(timestamp), today()) AS dd, toDate(timestamp) - toDate(now()) AS df WHERE ${R} AND project_id = 1 AND toDate(timestamp) >= toDate(now()) AND toStartOfMonth(timestamp) <= today() AND toDate(timestamp) > '2020-01-01' AND toDate(timestamp) IN tuple('2024-01-01') AND greatest(toDate(timestamp), today()) = today() AND toYear(toDate(timestamp)) > 2000 AND toDate(timestamp) < timestamp`,
  // a Nested column read whole where arrays of tuples are taken; a Nullable condition beside a NULL; a mapped -If's UInt8 condition
  `MATCH (events) SELECT length(tags) AS n, notEmpty(contexts) AS e, arrayJoin(tags) AS t, tags = tags AS s, has(tags, tuple('a', 'b')) AS h WHERE ${R} AND project_id = 1 AND notEmpty(tags) = 1 AND length(exception_stacks) > 0`,
  `MATCH (discover_transactions) SELECT sumIf(duration, environment = 'prod') AS n, if(isNull(http_method), 1, duration) AS m BY http_method, duration WHERE ${TX} AND project_id = 1`,
  `MATCH (metrics_sets) SELECT uniqIf(value, org_id = 1) AS u, uniqIf(value, 1) AS w, uniqIf(value, NULL) AS x WHERE ${METRICS}`,
  // a mixed array where the engine takes one (its length, its elements, itself, a LIMIT BY key); arrays of one type as keys
  `MATCH (events) SELECT title AS t WHERE ${R} AND project_id = 1 ORDER BY array(title, 'b') ASC LIMIT 1 BY array(title, 1)`,
  `MATCH (events) SELECT count() AS c BY array(title, level) WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT count() AS c BY if(isNull(level), title, level), multiIf(level = 'a', 1, level = 'b', 2.5, TRUE) WHERE ${R} AND project_id = 1`,
  `MATCH (events) SELECT title AS t WHERE ${R} AND project_id = 1 ORDER BY if(level = 'a', title, NULL) ASC LIMIT 1 BY if(level = 'a', title, 1)`,
  `MATCH (events) SELECT length(array(title, 1)) AS n, arrayJoin(array(now(), title)) AS j, array(title, 1) AS a, notEmpty(array(now(), 'a')) AS e WHERE ${R} AND project_id = 1 AND array(title, 1) = array(title, 1) AND length(array(level, 1)) > 0`,
  // IN where the engine takes it: a bare column, an array (its elements), a set; one-element tuples compared with tuples
  `MATCH (events) SELECT title IN upper(title) AS a, title NOT IN tags[server_name] AS b, toHour(timestamp) IN tuple(1, 2) AS c, 'x' IN tags.value AS d, tuple(title) = tuple('a') AS e, tuple(title) AS f WHERE ${R} AND project_id = 1 AND title IN tuple('a')`,
  // tuples and arrays with a NULL among their elements, where the engine takes them
  `MATCH (events) SELECT tuple(NULL, 1) AS t, tuple(NULL, 1) * 2 AS m, length(array(NULL, title)) AS n, array(NULL, title) AS a WHERE ${R} AND project_id = 1`,
  // Nullable pairs the engine takes; lambdas that return what their function takes, or a column
  `MATCH (discover_events) SELECT arrayCount((\`x\`) -> isNull(\`x\`), tags.value) AS b, arrayMap((\`x\`) -> now(), tags.value) AS m, arrayFilter((\`x\`) -> equals(\`x\`, 'a'), tags.value) AS f WHERE ${R} AND project_id = 1 AND trace_sampled = trace_sampled AND trace_id = trace_id AND exception_main_thread < trace_sampled`,
  // an if of a constant condition with a NULL branch: no row holds a value of its other branch (found by the census: a false refusal)
  `MATCH (discover) SELECT equals(geo_country_code, multiIf(100, version, measurements[cls])) AS e, equals(geo_country_code, if(1 = 1, NULL, measurements[cls])) AS f WHERE ${R} AND project_id = 1`,
  // greatest and least beside a NULL where the engine takes them
  `MATCH (events) SELECT greatest(project_id, 3, NULL) + 1 AS g, least(NULL, title, 'a') AS l, greatest(TRUE, 1, NULL) AS b WHERE ${R} AND project_id = 1 AND greatest(project_id, NULL) > 5`,
  // folded results where the engine takes them
  `MATCH (events) SELECT greatest(project_id, 10, 1000) + 1 AS g, least(1, 2, project_id) * 2 AS l, concat(title, 'a', title) AS s, greatest(TRUE, 1, 2) AS b WHERE ${R} AND project_id = 1 AND greatest(project_id, 10, 1000) > 5`,
  // variants beside a NULL where the engine takes them
  `MATCH (discover_transactions) SELECT multiIf(1, sdk_version, logger) AS m, multiIf(isNull(sdk_version), spans.exclusive_time_32, NULL) AS n WHERE ${TX} AND project_id = 1`,
  // spans.exclusive_time is read from spans.exclusive_time_32: an Array(Float32)
  `MATCH (transactions) SELECT arrayMax(spans.exclusive_time) * 1.5 AS m, spans.exclusive_time AS e WHERE ${TX} AND project_id = 1`,
  // greatest and least of three whose each two have a common type (the pairs probed at three arguments stood beside the probe's own third)
  `MATCH (events) SELECT greatest(toDate(timestamp), timestamp, timestamp) AS g, least(ip_address_v4, ip_address_v4, ip_address_v4) AS l WHERE ${R} AND project_id = 1`,
  // an if whose conditions pick a branch a call takes
  `MATCH (events) SELECT upper(if(NULL, project_id, title)) AS u, if(0, project_id, title) = title AS e, multiIf(NULL, title, 0, title, project_id) + 1 AS m WHERE ${R} AND project_id = 1`,
  // fixed result classes of values of no class where the engine takes them
  `MATCH (events) SELECT toString(tuple(title, 1)) = title AS t, length(exception_frames.filename) + 1 AS l WHERE ${R} AND project_id = 1`,
  // a tuple holding a state where it is taken whole
  `MATCH (metrics_counters) SELECT any(tuple(granularity, value)) AS a, count(tuple(value)) AS n WHERE ${METRICS}`,
  // an array of NULLs where an array is taken, or looked in for anything
  `MATCH (events) SELECT has(array(NULL), title) AS h, has(array(NULL), tags.key) AS k, length(array(NULL, NULL)) AS l, arrayConcat(array(NULL), tags.key) AS a WHERE ${R} AND project_id = 1`,
  // an array of Nullable numbers where it is taken
  `MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND has(array(exception_main_thread, 1), 1) = 1 AND length(array(NULL, 0.5)) = 2`,
  // comparisons of values of no class used as numbers
  `MATCH (eap_items) SELECT project_id, (item_id < attributes_float[runtime]) + 1 AS x WHERE ${R} AND (item_id = item_id) = 1`,
  // an integer beside an IP
  `MATCH (events) SELECT project_id / ip_address_v4 AS d WHERE ${R} AND project_id = 1`,
  // a day's bucket looked for a Date or a DateTime in
  `MATCH (metrics_sets) SELECT count() AS c WHERE ${METRICS} AND toDate(timestamp) IN bucketed_time AND timestamp IN bucketed_time GRANULARITY 86400`,
  // an element of an array of two families that a constant index picks, where the call takes it
  `MATCH (events) SELECT upper(arrayElement(array(title, 1), -2)) AS b, arrayElement(array(title, 1), 2) + 1 AS n WHERE ${R} AND project_id = 1`,
  // an if whose constant condition picks its NULL branch holds no value: nothing is converted or read per row (the engine answers NULL)
  `MATCH (events) SELECT if(0, 'x', NULL) = 5 AS e, multiIf(100, NULL, title) = 1.5 AS f, length(if(1, NULL, event_id)) AS l WHERE ${R} AND project_id = 1`,
  // given a NULL, an aggregate is ClickHouse's nothing aggregate, which checks no count (found by the fuzz)
  `MATCH (transactions) SELECT sum(duration, NULL) AS s, quantile()(duration, NULL, duration) AS q WHERE ${TX} AND project_id = 1`,  // a tuple times a UInt128 is a tuple of UInt128s
  `MATCH (eap_items) SELECT tuple(1, organization_id) * item_id AS t, item_id * tuple(2, 3) AS u WHERE ${R}`,
  // a UInt128 divided is a float; concat of anything but arrays a string
  `MATCH (eap_items) SELECT item_id / 2 + 1 AS x, upper(concat(attributes_int, 1)) AS u, concat(tuple(1), tuple('a')) AS t WHERE ${R}`,
  // the greatest of a UInt128 and unsigned integers compared with a number
  `MATCH (eap_items) SELECT greatest(item_id, 1) = item_id AS g, least(item_type, item_id) < 5 AS l WHERE ${R}`,
  // a string looked for in a Nullable string column the storage computes
  `MATCH (discover) SELECT count() AS c WHERE ${R} AND project_id = 1 AND 'a' IN user AND title NOT IN user`,
  // a NULL looked for in a constant set is a NULL: nothing beside it is judged
  `MATCH (discover_events) SELECT substring(isNotNull(profile_id), duration IN tuple(1, 2), project_id) AS s WHERE ${R} AND project_id = 1`,
  // an array of NULLs looked in for a map or a UInt128
  `MATCH (eap_items) SELECT has(array(NULL), attributes_int) AS h, indexOf(array(NULL, NULL), item_id) AS i WHERE ${R}`,
  // a function of a condition of no known type where it takes each result
  `MATCH (discover_transactions) SELECT toString(now() IN num_processing_errors) = 'a' AS s, greatest(now() IN num_processing_errors) + 1 AS g WHERE ${TX} AND project_id = 1`,
  // a DateTime plus an alias of a tuple of numbers (intervals of seconds)
  `MATCH (search_issues) SELECT message_timestamp + level AS n, tuple(1, 2) AS level WHERE ${R} AND project_id = 3`,
  // an array of IPs and strings where an array is taken
  `MATCH (replays) SELECT length(array(dist, ip_address_v6, click_testid)) AS n WHERE ${R} AND project_id IN tuple(1, 2, 3)`,
  // a call given an if's Variant where the one result is taken
  `MATCH (events) SELECT upper(if(0, project_id, title)) LIKE 'a%' AS u, if(1, project_id, title) * 3 + 1 AS n WHERE ${R} AND project_id = 1`,
  // concat of two arrays of one type where an array is taken
  `MATCH (events) SELECT length(concat(exception_stacks.mechanism_handled, exception_frames.in_app)) AS n WHERE ${R} AND project_id = 1`,
  // an IP plus an integer where an integer is taken
  `MATCH (events) SELECT (ip_address_v4 + 1) * 2 AS x, toString(ip_address_v6 - 1) AS s WHERE ${R} AND project_id = 1`,
  // greatest of an integer narrower than 64 bits and a float, of a UInt64 and a signed integer (two plain arguments, or a UInt64 literal)
  `MATCH (replays) SELECT greatest(retention_days, 0.95) AS g, greatest(count_urls, offset - 3) AS h, greatest(4294967296, offset - 3, -1) AS i, greatest(toStartOfDay(timestamp) - now(), 1.5) AS j WHERE project_id = 1 AND ${R}`,
  // an array of arrays looked in for an array, or taken whole
  `MATCH (replays) SELECT has(groupUniqArray(segment_names), array('a')) AS h, length(groupArray(segment_names)) AS l, arrayFlatten(array(segment_names)) AS f BY segment_names WHERE ${R} AND project_id IN tuple(1, 2, 3)`,
  // two arrays of numbers added or subtracted element by element, an array of floats compared with one of narrow integers
  `MATCH (transactions) SELECT measurements.value + spans.exclusive_time AS a, array(duration) - measurements.value AS b WHERE project_id = 1 AND ${TX}`,
  `MATCH (transactions) SELECT groupArray(duration / 2) = groupArray(toUInt16(duration)) AS c WHERE project_id = 1 AND ${TX}`,
  // two arrays of integers whose elements have a common type, and two integers of none compared alone
  `MATCH (metrics_counters) SELECT tags.key <= tags.value AS a, tags.key + tags.key = tags.value AS b, (tags.key - tags.key) = array(1, 2) AS c WHERE ${METRICS} LIMIT 1 GRANULARITY 60`,
];

describe("calls the typing pass lets through", () => {
  it.each(ACCEPTED)("%s", (text) => {
    expect(prepareSnqlQuery(registry, text, false).sql).toContain("SELECT");
  });
});

describe("invalid SnQL corpus", () => {
  it.each(CORPUS)("%s", (text, message, line, column) => {
    const error = failure(text);
    expect(error.type).toBe("invalid_query");
    expect(error.httpStatus).toBe(400);
    if (typeof message === "string") expect(error.message).toContain(message);
    else expect(error.message).toMatch(message);
    expect(error.position).toEqual({ line, column });
  });
});
