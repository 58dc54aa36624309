/**
 * The admin UI in a real browser: Debian's chromium (the test setup installs it) driven by
 * playwright-core. Every page loads without console errors, a SnQL time series draws a chart,
 * an invalid query marks its position in the editor, and the query log shows the query just
 * run. Screenshots of each page are kept under .cache/admin-screenshots/ (not committed).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAdminServer, type AdminServer } from "../../src/admin/admin-server.js";
import { renderBrowsableForm } from "../../src/server/browsable-form.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

const SCREENSHOTS = join(import.meta.dirname, "../../.cache/admin-screenshots");

let server: FixtureServer;
let admin: AdminServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  server = await startFixtureServer();
  admin = await startAdminServer({
    host: "127.0.0.1",
    port: 0,
    queryUrl: server.baseUrl,
    columnstore: server.columnstore,
    registry: server.definitions,
    // What a running errors consumer reports (serve-consumers.test.ts reads the real one through /api/admin/system).
    consumerStatuses: () => [
      {
        storage: "errors",
        state: "running",
        groupId: "snuba-consumers",
        topic: "events",
        partitions: [{ partition: 0, committed: "1200", highWatermark: "1250", lagMessages: 50, lagSeconds: 3.25, heldRows: 50, closedRanges: 1, paused: true, failing: true }],
        heldRows: 50,
        heldBytes: 51_200,
        lastWriteAt: Date.UTC(2026, 0, 1),
        error: null,
        lastWriteError: "Code: 60. Table default.errors_local does not exist",
      },
    ],
  });
  base = `http://127.0.0.1:${admin.port}`;
  browser = await chromium.launch({ executablePath: inject("chromiumPath"), headless: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await admin?.close();
  await server?.close();
});

/** A page whose console errors and uncaught exceptions are collected. */
async function open(hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${base}/${hash}`);
  return { page, errors };
}

const TIME_SERIES = `MATCH (events) SELECT count() AS count BY time, project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY time ASC GRANULARITY 3600`;

describe("admin UI in chromium", () => {
  it("draws a SnQL time series as a chart, one series per group, with the SQL beside it", async () => {
    const { page, errors } = await open("#/query");
    await page.locator("#query").fill(TIME_SERIES);
    await page.locator("#run").click();
    await page.locator("#chart canvas").waitFor({ timeout: 15_000 });
    // uPlot's legend names every group: project 1 and project 2.
    const legend = await page.locator("#chart .u-legend").innerText();
    expect(legend).toContain("1");
    expect(legend).toContain("2");
    // The canvas has drawn points: some pixels are neither blank nor transparent.
    const painted = await page.locator("#chart canvas").evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext("2d")!;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count++;
      return count;
    });
    expect(painted).toBeGreaterThan(100);
    expect(await page.locator("#sql").innerText()).toContain("toStartOfHour(timestamp, 'Universal')");
    // One row per (hour, project): 01:00/1 (two events), 02:00/1, 03:00/2, 04:00/2.
    expect(await page.locator("#rows tbody tr").count()).toBe(4);
    await page.screenshot({ path: join(SCREENSHOTS, "query.png") });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("marks an invalid query at its line and column in the editor", async () => {
    const { page, errors } = await open("#/query");
    await page.locator("#query").fill("MATCH (events)\nSELEC count()");
    // The browser logs the query's 400 answer itself; that is the expected answer, not a page error.
    const answered400 = (message: string) => message.includes("status of 400");
    await page.locator("#run").click();
    await page.locator("#error-position").waitFor();
    expect(await page.locator("#error").innerText()).toContain("invalid_query");
    expect(await page.locator("#error-position").innerText()).toContain("line 2, column 1");
    // The editor selects the character the error points at.
    const selected = await page.locator("#query").evaluate((editor: HTMLTextAreaElement) => [editor.selectionStart, editor.value.slice(editor.selectionStart, editor.selectionEnd)]);
    expect(selected).toEqual([15, "S"]);
    expect(await page.locator("#query").getAttribute("class")).toContain("has-error");
    expect(errors.filter((message) => !answered400(message))).toEqual([]);
    await page.close();
  });

  it("lists the query just run in the query log, and a click opens it in the Query page", async () => {
    const { page, errors } = await open("#/querylog");
    await page.locator("#filter-referrer").fill("admin.query");
    let found = false;
    for (let attempt = 0; attempt < 30 && !found; attempt++) {
      await page.locator("#apply").click();
      await page.waitForTimeout(200);
      found = (await page.locator("#querylog").innerText()).includes("GRANULARITY 3600");
    }
    expect(found).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, "querylog.png") });
    await page.locator("#querylog tr.clickable", { hasText: "GRANULARITY 3600" }).first().click();
    await page.locator("#query").waitFor();
    expect(await page.locator("#query").inputValue()).toBe(TIME_SERIES);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the browsable form at GET /{dataset}/snql submits and draws a time series as lines, linking to the admin Query page", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    // Console errors too: a browser logs one for a resource it fetches on its own, the favicon among them.
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${server.baseUrl}/events/snql`);
    await page.locator("#body").fill(JSON.stringify({ query: TIME_SERIES, tenant_ids: { organization_id: 1, referrer: "test.form" } }));
    await page.locator("#run").click();
    await page.waitForFunction(() => (document.getElementById("result") as HTMLTextAreaElement).value.startsWith("200"));
    expect(await page.locator("#chart").isVisible()).toBe(true);
    // Two groups (projects 1 and 2): two lines, each through its own buckets.
    expect(await page.locator("#chart polyline").count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
    expect(renderBrowsableForm("events", "http://127.0.0.1:1219")).toContain('href="http://127.0.0.1:1219/#/query?dataset=events"');
    expect(renderBrowsableForm("events")).not.toContain("admin-link");
  });

  it("creates a subscription from the Subscriptions page, charts its recent results and deletes it", async () => {
    const { page, errors } = await open("#/subscriptions");
    await page.locator("#subscriptions-empty").waitFor();
    await page.locator("#new-target").selectOption("events/events");
    await page.locator("#create-subscription").click();
    await page.locator("#subscriptions tbody tr").first().waitFor();
    const id = (await page.locator("#subscriptions tbody tr td").nth(2).innerText()).trim();
    expect(id).toMatch(/^\d+\/[0-9a-f]{32}$/);
    // Three windows' results, as the scheduler writes them to the results storage.
    const base = Math.floor(Date.now() / 1000 / 60) * 60;
    await server.columnstore.client.insert({
      table: "subscription_results_local",
      format: "JSONEachRow",
      values: [3, 2, 1].map((ago, i) => ({
        subscription_id: id,
        entity: "events",
        project_id: 1,
        timestamp: base - ago * 60,
        published_at: (base - ago * 60) * 1000,
        topic: "events-subscription-results",
        result_rows: 1,
        payload: JSON.stringify({ version: 3, payload: { subscription_id: id, result: { data: [{ count: [5, 7, 6][i] }], meta: [] }, timestamp: "", entity: "events" } }),
      })),
    });
    await page.locator("#subscriptions tbody tr").first().click();
    await page.locator("#results-chart canvas").waitFor({ timeout: 15_000 });
    expect(await page.locator("#results-chart").innerText()).toContain("3 results");
    await page.screenshot({ path: join(SCREENSHOTS, "subscriptions.png") });
    await page.locator("#delete-subscription").click();
    await page.locator("#subscriptions-empty").waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the system figures without console errors", async () => {
    for (const name of ["system"]) {
      const { page, errors } = await open(`#/${name}`);
      await page.locator("h2").waitFor();
      await page.waitForFunction(() => !document.body.innerText.includes("loading…"));
      if (name === "system") {
        const tables = await page.locator("#tables").innerText();
        expect(tables).toMatch(/errors_local\s+6\s/);
        expect(await page.locator("main").innerText()).toContain("cache hit rate");
        const consumers = await page.locator("#consumers").innerText();
        expect(consumers).toMatch(/errors\s+running\s+events\s+snuba-consumers\s+0\s+1200\s+50\s+3\.3\s+50\s+writes failing: Code: 60/);
      }
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
