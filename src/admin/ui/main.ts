/** The admin single-page app: a page per hash route, rendered into #page. */
import { el } from "./dom.js";
import { queryPage } from "./query-page.js";
import { queryLogPage } from "./querylog-page.js";
import { subscriptionsPage } from "./subscriptions-page.js";
import { systemPage } from "./system-page.js";

const PAGES: Record<string, { title: string; render: (root: HTMLElement, params: URLSearchParams) => Promise<void> }> = {
  query: { title: "Query", render: queryPage },
  querylog: { title: "Query log", render: queryLogPage },
  subscriptions: { title: "Subscriptions", render: subscriptionsPage },
  system: { title: "System", render: systemPage },
};

async function route(): Promise<void> {
  const [path, query] = location.hash.replace(/^#\/?/, "").split("?") as [string, string | undefined];
  const name = PAGES[path] ? path : "query";
  const nav = document.getElementById("nav")!;
  nav.replaceChildren(...Object.entries(PAGES).map(([key, page]) => el("a", { href: `#/${key}`, ...(key === name ? { class: "active" } : {}) }, page.title)));
  const root = document.getElementById("page")!;
  root.replaceChildren(el("p", { class: "muted" }, "loading…"));
  try {
    await PAGES[name]!.render(root, new URLSearchParams(query ?? ""));
  } catch (reason) {
    root.replaceChildren(el("div", { class: "error" }, `this page failed to load: ${reason instanceof Error ? reason.message : String(reason)}`));
  }
}

window.addEventListener("hashchange", () => void route());
void route();
