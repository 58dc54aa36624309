/**
 * Realistic SnQL queries for the front-end bench, the kinds Sentry's product sends: simple
 * filters, aggregations with BY, tags, GRANULARITY time series, joins, subqueries, metrics and
 * direct storage reads. Every query is valid (the bench checks nothing fails).
 */

const RANGE = "timestamp >= toDateTime('2026-11-10T00:00:00') AND timestamp < toDateTime('2026-11-22T00:00:00')";
const TX_RANGE = "finish_ts >= toDateTime('2026-11-10T00:00:00') AND finish_ts < toDateTime('2026-11-22T00:00:00')";
const JOIN_RANGE = "e.timestamp >= toDateTime('2026-11-10T00:00:00') AND e.timestamp < toDateTime('2026-11-22T00:00:00')";
const METRICS = `org_id = 1 AND project_id IN tuple(1, 2) AND ${RANGE}`;

const SIMPLE_FILTERS = [
  `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1`,
  `MATCH (events) SELECT event_id, title, culprit, timestamp WHERE ${RANGE} AND project_id = 2 AND level = 'error' ORDER BY timestamp DESC LIMIT 50`,
  `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1 AND (level = 'error' OR level = 'fatal') AND user_email IS NOT NULL`,
  `MATCH (events) SELECT event_id, message WHERE ${RANGE} AND project_id = 1 AND message LIKE '%timeout%' AND environment != 'staging' ORDER BY timestamp DESC LIMIT 100`,
  `MATCH (events) SELECT event_id WHERE ${RANGE} AND project_id IN tuple(1, 2, 3) AND group_id IN tuple(100, 101, 102, 103) ORDER BY timestamp DESC LIMIT 25 OFFSET 25`,
  `MATCH (events) SELECT event_id, platform, release WHERE ${RANGE} AND project_id = 4 AND release NOT IN tuple('backend@1.0.0', 'backend@1.0.1') AND platform = 'python'`,
  `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1 AND user NOT LIKE '%bot%' AND http_method = 'POST'`,
  `MATCH (transactions) SELECT event_id, duration WHERE ${TX_RANGE} AND project_id = 1 AND duration > 1000 ORDER BY duration DESC LIMIT 10`,
  `MATCH (transactions) SELECT count() WHERE ${TX_RANGE} AND project_id = 2 AND transaction_status != 0 AND transaction_op = 'http.server'`,
  `MATCH (transactions) SELECT event_id, transaction, duration WHERE ${TX_RANGE} AND project_id = 1 AND transaction IN tuple('GET /api/0/projects/', 'POST /api/0/events/') ORDER BY finish_ts DESC LIMIT 20`,
];

const AGGREGATIONS = [
  `MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2, 3)`,
  `MATCH (events) SELECT count() AS c, uniq(user) AS users BY level WHERE ${RANGE} AND project_id IN tuple(1, 2, 3) ORDER BY c DESC LIMIT 10`,
  `MATCH (events) SELECT max(timestamp) AS last_seen, min(timestamp) AS first_seen, count() AS times BY group_id WHERE ${RANGE} AND project_id = 3 HAVING times > 10 ORDER BY last_seen DESC LIMIT 100`,
  `MATCH (events) SELECT count() AS c, uniq(user) AS users BY release, environment WHERE ${RANGE} AND project_id = 1 ORDER BY c DESC LIMIT 20 TOTALS true`,
  `MATCH (events) SELECT countIf(level = 'error') AS errors, count() AS total, divide(countIf(level = 'error'), count()) AS ratio BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2)`,
  `MATCH (events) SELECT count() AS c BY group_id WHERE ${RANGE} AND project_id = 1 ORDER BY c DESC LIMIT 3 BY group_id LIMIT 50`,
  `MATCH (events) SELECT uniq(user) AS users, any(title) AS title BY group_id WHERE ${RANGE} AND project_id = 5 HAVING users >= 2 ORDER BY users DESC, group_id ASC LIMIT 25`,
  `MATCH (transactions) SELECT quantile(0.95)(duration) AS p95 BY transaction WHERE ${TX_RANGE} AND project_id = 1 ORDER BY p95 DESC LIMIT 20`,
  `MATCH (transactions) SELECT avg(duration) AS avg, max(duration) AS max BY transaction_op WHERE ${TX_RANGE} AND project_id = 2 AND duration > 1000`,
  `MATCH (transactions) SELECT sum(duration) / count() AS mean WHERE ${TX_RANGE} AND project_id = 1 AND transaction_name IN tuple('GET /api/0/projects/', 'POST /api/0/events/')`,
  `MATCH (transactions) SELECT quantiles(0.5, 0.75, 0.95, 0.99)(duration) AS q, count() AS n BY transaction, transaction_op WHERE ${TX_RANGE} AND project_id IN tuple(1, 2, 3) ORDER BY n DESC LIMIT 50`,
  `MATCH (transactions) SELECT countIf(duration > 300) AS slow, count() AS n, uniq(user) AS users BY platform WHERE ${TX_RANGE} AND project_id = 1`,
];

const TAGS = [
  `MATCH (events) SELECT count() AS c BY tags[browser] WHERE ${RANGE} AND project_id = 1 AND tags[environment] = 'production' ORDER BY c DESC LIMIT 5`,
  `MATCH (events) SELECT uniq(user) AS users BY contexts[browser.name] WHERE ${RANGE} AND project_id = 1 AND message LIKE '%timeout%'`,
  `MATCH (events) SELECT count() AS c BY tags[sentry:release], tags[device] WHERE ${RANGE} AND project_id = 2 AND tags[level] IN tuple('error', 'fatal') ORDER BY c DESC LIMIT 10`,
  `MATCH (events) SELECT count() AS c BY tags_key WHERE ${RANGE} AND project_id = 1 ORDER BY c DESC LIMIT 20`,
  `MATCH (events) SELECT count() AS c BY tags.key ARRAY JOIN tags.key WHERE ${RANGE} AND project_id = 1 ORDER BY c DESC LIMIT 20`,
  `MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 3 AND has(tags.key, 'customer') = 1 AND tags[customer] != ''`,
  `MATCH (events) SELECT arrayExists((\`k\`, \`v\`) -> and(equals(\`k\`, 'browser'), equals(\`v\`, 'Chrome')), tags.key, tags.value) AS chrome, count() AS c BY geo_country_code, chrome WHERE ${RANGE} AND project_id = 1`,
  `MATCH (transactions) SELECT count() AS n BY tags[environment], platform WHERE ${TX_RANGE} AND project_id = 3 AND transaction_status = 0 ORDER BY n DESC`,
  `MATCH (transactions) SELECT avg(measurements[lcp]) AS lcp, avg(measurements[fcp]) AS fcp BY transaction WHERE ${TX_RANGE} AND project_id = 1 AND measurements[lcp] IS NOT NULL ORDER BY lcp DESC LIMIT 10`,
  `MATCH (transactions) SELECT count() AS n BY contexts[trace.op] WHERE ${TX_RANGE} AND project_id = 2 AND tags[http.status_code] = '500'`,
];

const TIME_SERIES = [
  `MATCH (events) SELECT count() AS c BY time WHERE ${RANGE} AND project_id = 1 GRANULARITY 3600`,
  `MATCH (events) SELECT count() AS c BY time, release WHERE ${RANGE} AND project_id IN tuple(1, 2) AND environment != 'staging' GRANULARITY 86400`,
  `MATCH (events) SELECT count() AS c, uniq(user) AS users BY time WHERE ${RANGE} AND project_id = 1 AND level = 'error' ORDER BY time ASC GRANULARITY 60`,
  `MATCH (events) SELECT count() AS c BY time, project_id WHERE ${RANGE} AND project_id IN tuple(1, 2, 3, 4) ORDER BY time ASC LIMIT 10000 GRANULARITY 300`,
  `MATCH (transactions) SELECT quantile(0.5)(duration) AS p50, quantile(0.99)(duration) AS p99, count() AS n BY time WHERE ${TX_RANGE} AND project_id IN tuple(1, 2) GRANULARITY 60`,
  `MATCH (transactions) SELECT count() AS n, avg(duration) AS avg BY time, transaction_op WHERE ${TX_RANGE} AND project_id = 1 ORDER BY time ASC GRANULARITY 3600`,
  `MATCH (metrics_counters) SELECT sum(value) AS total BY bucketed_time WHERE ${METRICS} AND metric_id = 7 ORDER BY bucketed_time ASC GRANULARITY 3600`,
  `MATCH (metrics_distributions) SELECT quantiles(0.5, 0.95)(value) AS q, max(value) AS worst BY bucketed_time WHERE ${METRICS} AND metric_id = 11 GRANULARITY 60`,
  `MATCH (metrics_sets) SELECT uniq(value) AS users BY bucketed_time, tags[3] WHERE ${METRICS} AND metric_id = 12 GRANULARITY 86400`,
  `MATCH (generic_metrics_counters) SELECT sum(value) AS total BY bucketed_time WHERE ${METRICS} AND metric_id = 21 GRANULARITY 3600`,
];

const JOINS = [
  `MATCH (e: events) -[grouped]-> (g: groupedmessage) SELECT count() AS c BY g.status WHERE ${JOIN_RANGE} AND e.project_id = 1 AND g.project_id = 1`,
  `MATCH (e: events) -[assigned]-> (a: groupassignee) SELECT count() AS c BY a.user_id WHERE ${JOIN_RANGE} AND e.project_id = 2 AND a.project_id = 2 ORDER BY c DESC LIMIT 10`,
  `MATCH (e: events) -[attributes]-> (a: group_attributes) SELECT uniq(e.user) AS users BY e.group_id, a.group_status WHERE ${JOIN_RANGE} AND e.project_id = 1 AND a.project_id = 1 LIMIT 100`,
  `MATCH (e: events) -[grouped]-> (g: groupedmessage), (e: events) -[assigned]-> (a: groupassignee) SELECT count() AS c BY g.status, a.team_id WHERE ${JOIN_RANGE} AND e.project_id = 3 AND g.project_id = 3 AND a.project_id = 3`,
  `MATCH (e: events) -[attributes_inner]-> (a: group_attributes) SELECT e.event_id, e.title WHERE ${JOIN_RANGE} AND e.project_id = 1 AND a.project_id = 1 AND a.group_status = 0 ORDER BY e.timestamp DESC LIMIT 50`,
];

const SUBQUERIES = [
  `MATCH { MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2, 3) } SELECT max(c) AS busiest, avg(c) AS mean`,
  `MATCH { MATCH (events) SELECT uniq(user) AS users BY group_id WHERE ${RANGE} AND project_id = 1 } SELECT count() AS groups WHERE users > 10`,
  `MATCH { MATCH (transactions) SELECT quantile(0.95)(duration) AS p95 BY transaction WHERE ${TX_RANGE} AND project_id = 1 } SELECT transaction, p95 ORDER BY p95 DESC LIMIT 5`,
  `MATCH { MATCH (events) SELECT count() AS c BY time WHERE ${RANGE} AND project_id = 1 GRANULARITY 3600 } SELECT max(c) AS peak, min(c) AS trough`,
];

const STORAGES = [
  `MATCH STORAGE(errors) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2)`,
  `MATCH STORAGE(errors) SELECT event_id, tags.key WHERE ${RANGE} AND project_id = 1 AND deleted = 0 LIMIT 10`,
];

export const SNQL_CORPUS: readonly string[] = [...SIMPLE_FILTERS, ...AGGREGATIONS, ...TAGS, ...TIME_SERIES, ...JOINS, ...SUBQUERIES, ...STORAGES];
