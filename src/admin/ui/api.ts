/**
 * The admin UI's calls: `/api/admin/*` are the admin server's read-only figures, every other
 * `/api/*` path is the query server's own route (the same operations any client uses).
 */
export interface ApiAnswer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field by the pages
  readonly json: any;
}

export async function getJson(path: string): Promise<ApiAnswer> {
  const response = await fetch(`/api${path}`);
  return { status: response.status, json: await response.json() };
}

export async function postJson(path: string, body: unknown): Promise<ApiAnswer> {
  const response = await fetch(`/api${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

export async function getText(path: string): Promise<string> {
  const response = await fetch(`/api${path}`);
  return response.text();
}

export interface Overview {
  readonly datasets: readonly { readonly name: string; readonly entities: readonly string[] }[];
  readonly subscribable: readonly { readonly dataset: string; readonly entity: string }[];
  readonly queryUrl: string;
}

let overview: Promise<Overview> | undefined;

export function loadOverview(): Promise<Overview> {
  overview ??= getJson("/admin/overview").then((answer) => answer.json as Overview);
  return overview;
}
