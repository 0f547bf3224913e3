// GET /dashboard in a real browser (Debian's chromium through playwright-core, headless, offline):
// against a running node, the height on the page advances and the vote grid fills in from the
// WebSocket subscriptions. The screenshot is kept in test/output/dashboard/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const CHROMIUM = "/usr/bin/chromium";
const OUTPUT = fileURLToPath(new URL("../output/dashboard/", import.meta.url));

test("the dashboard's height advances and its vote grid fills in", { timeout: 120_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: the pretest step installs Debian's chromium`);
  const home = await initFastHome({ timeout_commit: "500ms" }, "rxbft-dashboard-");
  const node = new NodeProcess(home);
  after(() => node.kill("SIGKILL"));
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server");
  const page0 = await fetch(`${node.rpcUrl}/dashboard`);
  assert.equal(page0.status, 200);
  assert.match(page0.headers.get("content-type") ?? "", /^text\/html/);
  const html = await page0.text();
  assert.ok(html.length < 20_000, `the page is small (${html.length} bytes)`);
  assert.doesNotMatch(
    html,
    /<script[^>]+src=|<link[^>]+href=["']?https?:/,
    "nothing is loaded from elsewhere",
  );

  const profile = mkdtempSync(join(tmpdir(), "rxbft-chromium-"));
  // A fresh profile directory: playwright passes it as --user-data-dir.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 800 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const offsite: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(node.rpcUrl!) && !r.url().startsWith(node.rpcUrl!.replace("http", "ws")))
        offsite.push(r.url());
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${node.rpcUrl}/dashboard`);
    // Expressions run in the page (this file is type-checked without the DOM's types).
    await page.waitForFunction(`/^\\d+$/.test(document.getElementById("height").textContent)`, null, {
      timeout: 20_000,
    });
    const first = Number(await page.textContent("#height"));
    await page.waitForFunction(
      `Number(document.getElementById("height").textContent) >= ${first + 2}`,
      null,
      {
        timeout: 30_000,
      },
    );
    // A row per validator with a precommit cell filled for a block.
    await page.waitForSelector("#votes td.addr", { timeout: 10_000 });
    await page.waitForSelector("#votes .c.block", { timeout: 10_000 });
    const rows = await page.locator("#votes td.addr").count();
    assert.equal(rows, 1, "one validator, one row");
    assert.match(
      (await page.textContent("#step")) ?? "",
      /^(NewHeight|NewRound|Propose|Prevote|PrevoteWait|Precommit|PrecommitWait|Commit)$/,
    );
    assert.match((await page.textContent("#proposer")) ?? "", /^#0 [0-9A-F]{12}$/);
    assert.match((await page.textContent("#mempool")) ?? "", /^\d+$/);
    assert.ok((await page.locator("#timeline li").count()) > 0, "the timeline lists steps");
    await page.waitForSelector("#interval-chart path", { state: "attached", timeout: 10_000 });
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "dashboard.png") });
    assert.deepEqual(errors, [], "no script error");
    assert.deepEqual(offsite, [], "no request leaves the node");
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0);
});
