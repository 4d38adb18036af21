/**
 * The viewer in a real browser: Debian's Chromium driven by playwright-core (.ci/run installs
 * it). Every page loads without console errors; filters, sorting and step navigation work; the
 * static export opens from file://. Screenshots of the main pages go to artifacts/screenshots/
 * (git-ignored) for a person to look at once per change.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRunDirs, RunCatalog, startViewer, type ViewerServer } from "../src/web/index.ts";
import { hasChromium, launchChromium } from "./support/browser.ts";
import { longhaul } from "./support/run-cli.ts";
import { makeViewerRuns, type ViewerRuns } from "./support/viewer-runs.ts";

const SHOTS = join(import.meta.dirname, "..", "artifacts", "screenshots");

let runs: ViewerRuns;
let viewer: ViewerServer;
let browser: { context: BrowserContext; close(): Promise<void> };
/** Console errors and page errors of every page, by page. */
const problems: string[] = [];

async function open(url: string): Promise<Page> {
  const page = await browser.context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning")
      problems.push(`${url}: ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${url}: ${e.message}`));
  await page.goto(url);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe.skipIf(!hasChromium)("the viewer in Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    runs = await makeViewerRuns();
    viewer = await startViewer(new RunCatalog(findRunDirs([runs.parent])));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
  });

  it("lists the runs", async () => {
    const page = await open(viewer.url);
    await page.waitForSelector("#runs tbody tr");
    expect(await page.locator("#runs tbody tr").count()).toBe(3);
    await shot(page, "runs");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("filters and sorts the episode table, and keeps the state in the address", async () => {
    const page = await open(`${viewer.url}#/run/1`);
    await page.waitForSelector("#episodes tbody tr");
    const rows = () => page.locator("#episodes tbody tr").count();
    const total = await rows();
    expect(total).toBe(3);
    await page.selectOption("#filter-tag-condition", "i1");
    await page.waitForFunction('document.querySelectorAll("#episodes tbody tr").length === 1');
    expect(page.url()).toContain("tag.condition=i1");
    expect(await page.textContent("#matched")).toBe("1 of 3 episodes");
    await page.click("#filter-clear");
    await page.waitForFunction('document.querySelectorAll("#episodes tbody tr").length === 3');
    // Sorting by steps, twice: descending.
    await page.click('th[data-key="steps"]');
    await page.click('th[data-key="steps"]');
    await page.waitForURL(/sort=-steps/);
    const steps = await page.locator("#episodes tbody tr td:nth-child(6)").allTextContents();
    expect(steps.map(Number)).toEqual([...steps.map(Number)].sort((a, b) => b - a));
    // A score range.
    await page.selectOption("#filter-metric", "sr");
    await page.fill("#filter-min", "50");
    await page.press("#filter-min", "Enter");
    await page.waitForURL(/min=50/);
    // The random agent reaches no success: SR >= 50 keeps nothing, and the table says so.
    await page.waitForSelector("#episodes tr.empty");
    expect(await page.textContent("#matched")).toBe("0 of 3 episodes");
    await shot(page, "episodes");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("shows the report with its figures", async () => {
    const page = await open(`${viewer.url}#/run/2/report`);
    await page.waitForSelector("#figure-fig2a-accuracy-by-context-length svg", { timeout: 30_000 });
    expect(await page.locator("#report figure").count()).toBeGreaterThanOrEqual(9);
    await shot(page, "report");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("steps through an episode with the keyboard, the scene graph following", async () => {
    const page = await open(`${viewer.url}#/run/0`);
    await page.click("#episodes tbody tr:first-child a");
    await page.waitForSelector("#scene-graph");
    const current = () => page.locator("#steps li.current").getAttribute("data-step");
    expect(await current()).toBe("0");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await current()).toBe("2");
    expect(page.url()).toContain("step=2");
    expect(await page.textContent("#step-detail h2")).toBe("Step 2");
    await page.keyboard.press("ArrowLeft");
    expect(await current()).toBe("1");
    await page.keyboard.press("End");
    expect(await page.textContent("#step-detail h2")).toBe("Final observation");
    await page.keyboard.press("Home");
    expect(await current()).toBe("0");
    await page.click('#steps li[data-step="3"]');
    expect(await current()).toBe("3");
    expect(await page.locator("#scene-graph g.node.visible").count()).toBeGreaterThan(0);
    await shot(page, "episode-robograph");
    // ] goes to the next episode of the run.
    const before = page.url();
    await page.keyboard.press("]");
    await page.waitForURL((url) => url.href !== before);
    await page.waitForSelector("#scene-graph");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("marks the wrong records of a transduction document", async () => {
    const page = await open(`${viewer.url}#/run/2`);
    await page.click("#episodes tbody tr:first-child a");
    await page.waitForSelector("#comparison");
    expect(await page.locator("#compared-rows .wrong").count()).toBeGreaterThan(0);
    await page.check("#only-errors");
    const all = await page.locator("#compared-rows > div").count();
    expect(all).toBe(await page.locator("#compared-rows .wrong").count());
    await shot(page, "episode-transduction");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("diffs one episode of two runs", async () => {
    const page = await open(viewer.url);
    await page.waitForSelector("#diff-go");
    await page.click("#diff-go");
    await page.waitForSelector("#shared a");
    await page.click("#shared a >> nth=0");
    await page.waitForSelector("#diff-steps");
    expect(await page.locator("#diff-steps tr.differs").count()).toBeGreaterThan(0);
    await shot(page, "diff");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("opens the static export from file:// without a server", async () => {
    const out = `${runs.parent}-export`;
    const r = await longhaul("view", runs.parent, "--export", out);
    expect(r.code).toBe(0);
    const page = await open(pathToFileURL(join(out, "index.html")).href);
    await page.waitForSelector("#runs tbody tr");
    await page.click("#runs tbody tr:nth-child(3) a");
    await page.click("#episodes tbody tr:first-child a");
    await page.waitForSelector("#comparison");
    await page.goto(`${pathToFileURL(join(out, "index.html")).href}#/run/0/report`);
    await page.waitForSelector("#report figure svg");
    await shot(page, "export-report");
    await page.close();
    expect(problems).toEqual([]);
  });
});
