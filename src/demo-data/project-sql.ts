/**
 * SQL lookups of per-project vocabulary, indexed by a `project_id` expression (ids 1..3 are
 * the positions in DEMO_PROJECTS), and the user / client attributes shared by events,
 * transactions and EAP items.
 */
import {
  BROWSERS,
  CLIENT_OSES,
  DEMO_PROJECTS,
  FIRST_NAMES,
  LAST_NAMES,
  SERVER_OS,
  USERS_PER_PROJECT,
  type DemoProject,
} from "./demo-vocabulary.js";
import {
  DEMO_SEED,
  hash,
  numberArray,
  skewedIndex,
  stringArray,
  stringArrayArray,
  weightedIndex,
} from "./random-sql.js";

DEMO_PROJECTS.forEach((project, index) => {
  if (project.id !== index + 1) throw new Error("DEMO_PROJECTS must be ordered by id, starting at 1");
});

/** A per-project string: `arrayElement([...], <project>)`. */
export function projectString(field: (p: DemoProject) => string | null, projectExpr: string): string {
  return `arrayElement(${stringArray(DEMO_PROJECTS.map((p) => field(p) ?? ""))}, ${projectExpr})`;
}

/** A per-project array of strings. */
export function projectStrings(field: (p: DemoProject) => readonly string[], projectExpr: string): string {
  return `arrayElement(${stringArrayArray(DEMO_PROJECTS.map(field))}, ${projectExpr})`;
}

/** A per-project number. */
export function projectNumber(field: (p: DemoProject) => number, projectExpr: string): string {
  return `arrayElement(${numberArray(DEMO_PROJECTS.map(field))}, ${projectExpr})`;
}

/** `''` -> NULL, for Nullable(String) columns. */
export function nullIfEmpty(expr: string): string {
  return `nullIf(${expr}, '')`;
}

/** The release of a project at a 0-based release index. */
export function releaseSql(projectExpr: string, releaseIndexExpr: string): string {
  return `arrayElement(${projectStrings((p) => p.releases, projectExpr)}, ${releaseIndexExpr} + 1)`;
}

/**
 * A server name of the project: an HTTP host, or a worker host when `isTaskExpr` holds; ''
 * for the frontend (it has none).
 */
export function serverNameSql(projectExpr: string, isTaskExpr: string, salt: number, key = "number"): string {
  const names = `if(${isTaskExpr}, ${projectStrings((p) => p.serverNames.task, projectExpr)}, ${projectStrings((p) => p.serverNames.http, projectExpr)})`;
  return `arrayElement(${names}, 1 + ${hash(salt, key)} % greatest(1, length(${names})))`;
}

/**
 * Variables describing the row's user, as `[alias, expression]` for a plan's inner SELECT.
 * The user number `<project> * 100000 + index` keys everything else, so one user always has
 * the same id, name, e-mail, IP address, browser and OS.
 */
export function userVariables(projectExpr: string, hasUserExpr: string, salt: number, key = "number"): [string, string][] {
  const user = "u_num";
  return [
    ["u_has", hasUserExpr],
    ["u_num", `toUInt64(${projectExpr} * 100000 + ${skewedIndex(String(USERS_PER_PROJECT), 2.2, salt, key)})`],
    ["u_first", `arrayElement(${stringArray(FIRST_NAMES)}, 1 + cityHash64(${user}, ${DEMO_SEED}, 1) % ${FIRST_NAMES.length})`],
    ["u_last", `arrayElement(${stringArray(LAST_NAMES)}, 1 + cityHash64(${user}, ${DEMO_SEED}, 2) % ${LAST_NAMES.length})`],
    ["u_name", "concat(lower(u_first), '.', lower(replaceAll(u_last, ' ', '')))"],
    ["u_email", `concat(u_name, '.', toString(${user}), '@example.com')`],
    [
      "u_ip",
      `toIPv4(toUInt32((11 + cityHash64(${user}, ${DEMO_SEED}, 3) % 200) * 16777216 + cityHash64(${user}, ${DEMO_SEED}, 4) % 16777216))`,
    ],
    ["u_browser", weightedIndex(BROWSERS.map((b) => b.weight), `cityHash64(${user}, ${DEMO_SEED}, 5)`)],
    ["u_os", weightedIndex(CLIENT_OSES.map((o) => o.weight), `cityHash64(${user}, ${DEMO_SEED}, 6)`)],
  ];
}

/** Columns derived from `userVariables`. */
export const USER_SQL = {
  /** `id:<n>` as Sentry's `sentry:user` tag, '' without a user. */
  user: "if(u_has, concat('id:', toString(u_num)), '')",
  userId: "if(u_has, toString(u_num), NULL)",
  userName: "if(u_has, u_name, NULL)",
  userEmail: "if(u_has, u_email, NULL)",
  browserName: `arrayElement(${stringArray(BROWSERS.map((b) => b.name))}, u_browser)`,
  browserVersion: `arrayElement(${stringArray(BROWSERS.map((b) => b.version))}, u_browser)`,
  osName: `arrayElement(${stringArray(CLIENT_OSES.map((o) => o.name))}, u_os)`,
  osVersion: `arrayElement(${stringArray(CLIENT_OSES.map((o) => o.version))}, u_os)`,
  deviceFamily: `arrayElement(${stringArray(CLIENT_OSES.map((o) => o.device))}, u_os)`,
} as const;

/** Browser / OS / runtime attributes of a row of project `p` (browser ones only for the frontend). */
export function clientSql(projectExpr: string): {
  browserName: string;
  browserVersion: string;
  browser: string;
  osName: string;
  osVersion: string;
  os: string;
  deviceFamily: string;
  runtimeName: string;
  runtimeVersion: string;
  runtime: string;
} {
  const isFrontend = `(${projectExpr} = 2)`;
  const osName = `if(${isFrontend}, ${USER_SQL.osName}, '${SERVER_OS.name}')`;
  const osVersion = `if(${isFrontend}, ${USER_SQL.osVersion}, '${SERVER_OS.version}')`;
  const runtimeName = projectString((p) => p.runtime?.name ?? "", projectExpr);
  const runtimeVersion = projectString((p) => p.runtime?.version ?? "", projectExpr);
  return {
    browserName: `if(${isFrontend}, ${USER_SQL.browserName}, '')`,
    browserVersion: `if(${isFrontend}, ${USER_SQL.browserVersion}, '')`,
    browser: `if(${isFrontend}, concat(${USER_SQL.browserName}, ' ', ${USER_SQL.browserVersion}), '')`,
    osName,
    osVersion,
    os: `trimRight(concat(${osName}, ' ', ${osVersion}))`,
    deviceFamily: `if(${isFrontend}, ${USER_SQL.deviceFamily}, '')`,
    runtimeName,
    runtimeVersion,
    runtime: `trimRight(concat(${runtimeName}, ' ', ${runtimeVersion}))`,
  };
}
