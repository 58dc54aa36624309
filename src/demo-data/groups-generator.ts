/**
 * The issue tables the `events` entity joins to (`grouped`, `assigned`, `attributes`): one row
 * per issue (project_id, group_id) that the demo error events use, derived from those events
 * inside ClickHouse, so joins on the demo data find their partner rows.
 *
 * Each issue's status and assignee come from a hash of its id (deterministic): 60% unresolved,
 * 20% resolved, 20% ignored (Sentry's 0/1/2); 40% assigned to one of five users.
 */
import { quoteIdentifier } from "../clickhouse/escaping.js";

export interface GroupTables {
  readonly groupedMessage: string;
  readonly groupAssignee: string;
  readonly groupAttributes: string;
}

/** Sentry's GroupStatus for a group id: 0 unresolved, 1 resolved, 2 ignored. */
const STATUS = "multiIf(cityHash64(group_id) % 10 < 6, 0, cityHash64(group_id) % 10 < 8, 1, 2)";
const ASSIGNED = "cityHash64(group_id, 'assignee') % 10 < 4";
const ASSIGNEE = "1 + cityHash64(group_id, 'assignee') % 5";

/** One INSERT per table, each reading the issues from the errors table. */
export function groupTablesSql(errorsTable: string, tables: GroupTables): { table: string; sql: string }[] {
  const issues = `SELECT project_id, group_id, min(timestamp) AS first_seen, max(timestamp) AS last_seen FROM ${quoteIdentifier(errorsTable)} WHERE group_id != 0 GROUP BY project_id, group_id`;
  return [
    {
      table: tables.groupedMessage,
      sql: `INSERT INTO ${quoteIdentifier(tables.groupedMessage)} (offset, record_deleted, project_id, id, status, last_seen, first_seen, active_at)
SELECT 1, 0, project_id, group_id, ${STATUS}, last_seen, first_seen, first_seen FROM (${issues})`,
    },
    {
      table: tables.groupAssignee,
      sql: `INSERT INTO ${quoteIdentifier(tables.groupAssignee)} (offset, record_deleted, project_id, group_id, date_added, user_id)
SELECT 1, 0, project_id, group_id, first_seen, ${ASSIGNEE} FROM (${issues}) WHERE ${ASSIGNED}`,
    },
    {
      table: tables.groupAttributes,
      sql: `INSERT INTO ${quoteIdentifier(tables.groupAttributes)} (project_id, group_id, group_status, group_first_seen, group_num_comments, assignee_user_id, deleted, message_timestamp, partition, offset)
SELECT project_id, group_id, ${STATUS}, first_seen, cityHash64(group_id, 'comments') % 7, if(${ASSIGNED}, ${ASSIGNEE}, NULL), 0, last_seen, 0, 1 FROM (${issues})`,
    },
  ];
}
