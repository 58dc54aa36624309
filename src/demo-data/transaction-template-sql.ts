/**
 * Picking a transaction (endpoint / page / task) of a project in SQL, and reading its fields.
 * Used by events (the transaction an error happened in), transactions and EAP spans.
 */
import { DEMO_PROJECTS, ISSUE_TEMPLATES, TRANSACTION_TEMPLATES, type TransactionTemplate } from "./demo-vocabulary.js";
import { hash, numberArray, numberArrayArray, stringArray, weightedIndexByGroup } from "./random-sql.js";

const TEMPLATE_INDICES_BY_PROJECT = DEMO_PROJECTS.map((p) =>
  TRANSACTION_TEMPLATES.map((t, i) => [t, i + 1] as const)
    .filter(([t]) => t.project === p.id)
    .map(([, i]) => i),
);
const WEIGHTS_BY_PROJECT = DEMO_PROJECTS.map((p) =>
  TRANSACTION_TEMPLATES.filter((t) => t.project === p.id).map((t) => t.weight),
);

/** A 1-based index into TRANSACTION_TEMPLATES: a template of the project, weighted by traffic. */
export function transactionTemplateSql(projectExpr: string, salt: number, key = "number"): string {
  const local = weightedIndexByGroup(WEIGHTS_BY_PROJECT, projectExpr, hash(salt, key));
  return `arrayElement(arrayElement(${numberArrayArray(TEMPLATE_INDICES_BY_PROJECT)}, ${projectExpr}), ${local})`;
}

/** Per issue template (1-based), the 1-based transaction template it happens in, 0 for "any". */
const ISSUE_TRANSACTIONS = ISSUE_TEMPLATES.map((issue) => {
  if (issue.transaction === null) return 0;
  const index = TRANSACTION_TEMPLATES.findIndex((t) => t.project === issue.project && t.name === issue.transaction);
  if (index < 0) throw new Error(`issue template names unknown transaction '${issue.transaction}'`);
  return index + 1;
});

/** The transaction of an issue template (1-based `issueExpr`), else a random one of the project. */
export function issueTransactionSql(issueExpr: string, projectExpr: string, salt: number): string {
  const fixed = `arrayElement(${numberArray(ISSUE_TRANSACTIONS)}, ${issueExpr})`;
  return `if(${fixed} > 0, ${fixed}, ${transactionTemplateSql(projectExpr, salt)})`;
}

/** Whether the template (1-based index expression) is a background task rather than a request / page. */
export function isTaskSql(indexExpr: string): string {
  return `(${transactionField((t) => t.op, indexExpr)} IN ('task', 'queue.process', 'db'))`;
}

/** A string field of the template at a 1-based index expression. */
export function transactionField(field: (t: TransactionTemplate) => string | null, indexExpr: string): string {
  return `arrayElement(${stringArray(TRANSACTION_TEMPLATES.map((t) => field(t) ?? ""))}, ${indexExpr})`;
}

/** A numeric field of the template at a 1-based index expression. */
export function transactionNumber(field: (t: TransactionTemplate) => number, indexExpr: string): string {
  return `arrayElement(${numberArray(TRANSACTION_TEMPLATES.map(field))}, ${indexExpr})`;
}

/**
 * The full URL of a request to the template (frontend page URL, backend API URL; '' for tasks),
 * `{id}` replaced by a number from `idExpr`.
 */
export function transactionUrlSql(indexExpr: string, idExpr: string): string {
  const raw = transactionField((t) => t.url, indexExpr);
  const withHost = `if(${raw} = '' OR startsWith(${raw}, 'http'), ${raw}, concat(if(${transactionNumber((t) => t.project, indexExpr)} = 3, 'https://hooks.example.com', 'https://api.example.com'), ${raw}))`;
  return `replaceAll(${withHost}, '{id}', toString(${idExpr}))`;
}
