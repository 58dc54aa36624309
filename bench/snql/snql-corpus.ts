/** Realistic SnQL queries for the front-end bench, the kinds Sentry's product sends. */

const RANGE = "timestamp >= toDateTime('2026-11-10T00:00:00') AND timestamp < toDateTime('2026-11-22T00:00:00')";
const TX_RANGE = "finish_ts >= toDateTime('2026-11-10T00:00:00') AND finish_ts < toDateTime('2026-11-22T00:00:00')";

export const SNQL_CORPUS: readonly string[] = [
  `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1`,
  `MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2, 3)`,
  `MATCH (events) SELECT count() AS c, uniq(user) AS users BY level WHERE ${RANGE} AND project_id IN tuple(1, 2, 3) ORDER BY c DESC LIMIT 10`,
  `MATCH (events) SELECT event_id, title, culprit, timestamp WHERE ${RANGE} AND project_id = 2 AND level = 'error' ORDER BY timestamp DESC LIMIT 50`,
  `MATCH (events) SELECT count() AS c BY tags[browser] WHERE ${RANGE} AND project_id = 1 AND tags[environment] = 'production' ORDER BY c DESC LIMIT 5`,
  `MATCH (events) SELECT count() AS c BY time WHERE ${RANGE} AND project_id = 1 GRANULARITY 3600`,
  `MATCH (events) SELECT count() AS c BY time, release WHERE ${RANGE} AND project_id IN tuple(1, 2) AND environment != 'staging' GRANULARITY 86400`,
  `MATCH (events) SELECT max(timestamp) AS last_seen, min(timestamp) AS first_seen, count() AS times BY group_id WHERE ${RANGE} AND project_id = 3 HAVING times > 10 ORDER BY last_seen DESC LIMIT 100`,
  `MATCH (events) SELECT uniq(user) AS users BY contexts[browser.name] WHERE ${RANGE} AND project_id = 1 AND message LIKE '%timeout%'`,
  `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1 AND (level = 'error' OR level = 'fatal') AND user_email IS NOT NULL`,
  `MATCH (transactions) SELECT quantile(0.95)(duration) AS p95 BY transaction WHERE ${TX_RANGE} AND project_id = 1 ORDER BY p95 DESC LIMIT 20`,
  `MATCH (transactions) SELECT quantile(0.5)(duration) AS p50, quantile(0.99)(duration) AS p99, count() AS n BY time WHERE ${TX_RANGE} AND project_id IN tuple(1, 2) GRANULARITY 60`,
  `MATCH (transactions) SELECT avg(duration) AS avg, max(duration) AS max BY transaction_op WHERE ${TX_RANGE} AND project_id = 2 AND duration > 1000`,
  `MATCH (transactions) SELECT count() AS n BY tags[environment], platform WHERE ${TX_RANGE} AND project_id = 3 AND transaction_status = 0 ORDER BY n DESC`,
  `MATCH (transactions) SELECT sum(duration) / count() AS mean WHERE ${TX_RANGE} AND project_id = 1 AND transaction_name IN tuple('GET /api/0/projects/', 'POST /api/0/events/')`,
];
