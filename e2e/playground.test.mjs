// End-to-end test of the built playground: serves ../dist on 127.0.0.1, drives headless
// Chromium (the system one, never a downloaded browser) and saves screenshots to ../artifacts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { artifacts, here, start, watchConsole } from "./harness.mjs";

let base, browser, stop;

before(async () => {
  ({ base, browser, stop } = await start());
});

after(async () => {
  await stop?.();
});

/** Records the page's Content-Security-Policy violations in window.__csp (every document). */
async function watchCsp(context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
}

async function assertNoCspViolations(page) {
  assert.deepEqual(await page.evaluate(() => window.__csp), [], "no Content-Security-Policy violations");
}

async function ready(page) {
  await page.waitForSelector(".status.ok", { timeout: 60_000 });
}

/** A new browser context with the playground loaded and run; console errors collected. */
async function openPlayground(options = { viewport: { width: 1920, height: 1080 } }) {
  // Dark unless a test asks for light (Chromium here would otherwise report a light preference).
  const context = await browser.newContext({ colorScheme: "dark", ...options });
  await watchCsp(context);
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(base);
  await ready(page);
  return { context, page, errors };
}

test("notebook preset: run to the end, two preemptions explained, no console errors", async () => {
  const { context, page, errors } = await openPlayground();
  assert.match(await page.locator(".preset-info h2").innerText(), /notebook/i);
  await page.getByRole("button", { name: "jump to end" }).click();
  const end = await page.locator("input.scrubber").getAttribute("max");
  assert.equal(await page.locator("[data-now]").getAttribute("data-now"), end);

  const markers = page.locator(".timeline path.marker");
  assert.equal(await markers.count(), 2, "two preemptions on the timeline");
  const ticksBefore = await page.locator(".chart .tick").allInnerTexts();
  await page.getByRole("button", { name: "zoom in around the current instant" }).click();
  await page.getByRole("button", { name: "zoom in around the current instant" }).click();
  assert.notDeepEqual(await page.locator(".chart .tick").allInnerTexts(), ticksBefore, "zooming changes the time axis");
  await page.getByRole("button", { name: "show the whole run" }).click();
  assert.deepEqual(await page.locator(".chart .tick").allInnerTexts(), ticksBefore);
  await page.locator('.timeline path.marker[data-pre="0"]').click();
  const drawer = page.locator(".drawer");
  await drawer.waitFor();
  let text = await drawer.innerText();
  assert.match(text, /qs1_job_med was preempted/);
  assert.match(text, /qs2_job/);
  assert.match(text, /R18/);
  assert.match(text, /candidates considered/i);
  await page.screenshot({ path: join(artifacts, "desktop.png"), fullPage: false });
  await page.screenshot({ path: join(artifacts, "desktop-full.png"), fullPage: true });

  await page.locator('.timeline path.marker[data-pre="1"]').focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector(".drawer")?.innerText.includes("qs1_job_high"));
  text = await drawer.innerText();
  assert.match(text, /In-share|in-share/);
  assert.match(text, /R20/);
  await page.keyboard.press("Escape");
  await drawer.waitFor({ state: "detached" });

  // A waiting job explains itself (R17): qs1_job_med waits at the end of the run? Use the start.
  await page.getByRole("button", { name: "jump to start" }).click();
  await page.getByRole("button", { name: "step to next event" }).click();
  await page.locator(".waiting-job").first().click();
  text = await drawer.innerText();
  assert.match(text, /reason now|waits|waiting/i);
  // Its wait over the run, split by cause: a stacked bar whose causes are named with their times.
  const bar = drawer.locator(".cause-bar");
  await bar.waitFor();
  assert.match(await bar.getAttribute("aria-label"), /^wait by cause: .+ \d/);
  assert.ok((await drawer.locator(".cause-legend li").count()) >= 1);
  assert.match(await drawer.locator(".breakdown h4").innerText(), /its wait over the run, by cause: /i);
  await drawer.screenshot({ path: join(artifacts, "wait-breakdown-1440.png") });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, "laptop.png"), fullPage: false });
  await page.keyboard.press("Escape");
  await page.screenshot({ path: join(artifacts, "laptop-full.png"), fullPage: true });
  // The per-share table's wait by cause: hidden until asked for, one click.
  const causeCols = page.locator("table.metrics th.cause-col");
  assert.equal(await causeCols.count(), 3, "the causes some share waited for: pool, preemption in progress, behind");
  assert.equal(await causeCols.first().isVisible(), false);
  await page.getByRole("button", { name: "Wait by cause" }).click();
  assert.deepEqual(await causeCols.allInnerTexts(), ["pool in use", "preemption in progress", "behind its share's first job"]);
  const qs1 = await page.locator("table.metrics tbody tr").first().locator("td.cause-col").allInnerTexts();
  assert.equal(qs1.length, 3);
  assert.ok(qs1.every((t) => t && t !== "–"), qs1.join());
  await page.locator("section.card", { has: page.locator("#per-share-h") }).screenshot({ path: join(artifacts, "wait-by-cause-1280.png") });
  await page.getByRole("button", { name: "Hide wait by cause" }).click();
  assert.equal(await causeCols.first().isVisible(), false);
  assert.deepEqual(errors, [], "no console errors");
  await assertNoCspViolations(page);
  await context.close();
});

test("compare mode, sweep and workload generator: what a policy choice needs, at 1440, 1280 and 390 px", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.locator(".top-actions").getByRole("button", { name: "Compare", exact: true }).click();
  const compare = page.locator("section.compare");
  await compare.waitFor();
  assert.match(await compare.innerText(), /B is the same as A/);
  await page.getByRole("tab", { name: "Shares" }).click();
  await page.locator("article.share-card label.check", { hasText: "In-share preemption (R20)" }).first().locator("input").click();
  await page.waitForFunction(() => document.querySelector("ul.changed-jobs")?.innerText.includes("no longer preempted"));
  assert.match(await page.locator("ul.change-list").innerText(), /qs1 inSharePreemption: ENABLED → DISABLED/);
  assert.match(await compare.locator(".stats").innerText(), /A 2 → B 1/);
  await compare.scrollIntoViewIfNeeded();
  await compare.screenshot({ path: join(artifacts, "compare-1440.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  await compare.screenshot({ path: join(artifacts, "compare-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await compare.screenshot({ path: join(artifacts, "compare-390.png") });

  await page.setViewportSize({ width: 1440, height: 900 });
  const sweep = page.locator("details.sweep");
  await sweep.locator("summary").click();
  await sweep.getByRole("button", { name: "Run sweep" }).click();
  await page.waitForFunction(() => /^\d+ rows/.test(document.querySelector("details.sweep p[role=status]")?.innerText ?? ""));
  assert.match(await sweep.locator("p[role=status]").innerText(), /^15 rows, [1-9]\d* on the front/);
  await sweep.scrollIntoViewIfNeeded();
  await sweep.screenshot({ path: join(artifacts, "sweep-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await sweep.screenshot({ path: join(artifacts, "sweep-390.png") });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("tab", { name: "Jobs" }).click();
  const gen = page.locator("details.generator");
  await gen.locator("summary").click();
  await gen.getByRole("button", { name: "Generate", exact: true }).click();
  await page.waitForFunction(() => /generated jobs \(seed 1\)/.test(document.querySelector(".gen-status")?.innerText ?? ""));
  await gen.getByRole("button", { name: "Another seed" }).click();
  await page.waitForFunction(() => /\(seed 2\)/.test(document.querySelector(".gen-status")?.innerText ?? ""));
  await gen.scrollIntoViewIfNeeded();
  await gen.screenshot({ path: join(artifacts, "generator-1280.png") });
  await page.waitForSelector(".status.ok", { timeout: 60_000 });
  assert.deepEqual(errors, [], "no console errors");
  await assertNoCspViolations(page);
  await context.close();
});

test("edits survive a reload and travel in the link", async () => {
  const { context, page, errors } = await openPlayground();
  await page.getByLabel("scenario name").fill("my what-if");
  await page.waitForFunction(() => location.hash.startsWith("#s=") && location.hash.length > 100);
  await page.waitForTimeout(600);
  const url = page.url();
  await page.reload();
  await ready(page);
  assert.equal(await page.getByLabel("scenario name").inputValue(), "my what-if");
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await ready(other);
  assert.equal(await other.getByLabel("scenario name").inputValue(), "my what-if");
  const broken = await fresh.newPage();
  await broken.goto(base + "#s=not-a-real-link");
  await ready(broken);
  assert.match(await broken.locator(".notice").innerText(), /could not be read/);
  await fresh.close();
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("invalid input is flagged next to its field and not run", async () => {
  const { context, page, errors } = await openPlayground();
  const count = page.getByLabel("instance count of job 2");
  await count.fill("0");
  await page.waitForSelector(".status.err");
  const cell = page.locator('td.cell.invalid:has([data-path="jobs[1].instanceCount"])');
  assert.match(await cell.innerText(), /instanceCount/);
  await page.getByRole("tab", { name: /Settings/ }).click();
  await page.locator(".problem.error button").first().click();
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-path") === "jobs[1].instanceCount");
  await count.fill("1");
  await ready(page);
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("10,000-job generated scenario: time to re-run in the page (reported, not asserted)", async () => {
  const { context, page, errors } = await openPlayground();
  const t0 = Date.now();
  await page.getByLabel("load a preset scenario").selectOption("generated-10k");
  await page.waitForFunction(() => document.querySelector(".status.ok")?.textContent.includes("10000 jobs"), null, { timeout: 180_000 });
  const wall = Date.now() - t0;
  const engineMs = await page.locator(".status.ok").getAttribute("data-run-ms");
  console.log(`10,000-job scenario: run + sampling ${Number(engineMs).toFixed(0)} ms in the page; ${wall} ms from selecting the preset to charts drawn`);
  await page.getByRole("button", { name: "jump to end" }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(artifacts, "10k-jobs.png"), fullPage: false });
  // Only preempted jobs, all of the run at once: no two clickable markers overlap (closer ones
  // are one group marker that opens a list).
  await page.getByLabel("only preempted jobs").check();
  const boxes = await page.locator(".timeline path.marker, .timeline g.marker-group").evaluateAll((els) =>
    els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
  assert.ok(boxes.length > 0, "markers are drawn");
  for (let i = 0; i < boxes.length; i++) {
    for (let k = i + 1; k < boxes.length; k++) {
      const [a, b] = [boxes[i], boxes[k]];
      const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 2 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 2;
      assert.ok(!overlap, `markers ${i} and ${k} overlap: ${a} / ${b}`);
    }
  }
  const groups = await page.locator(".timeline g.marker-group").count();
  console.log(`10,000-job scenario, preempted jobs' first lanes: ${boxes.length} markers, ${groups} of them groups`);
  if (groups > 0) {
    await page.locator(".timeline g.marker-group").first().click();
    assert.match(await page.locator(".marker-list").innerText(), /preemptions here/);
    await page.locator(".timeline").screenshot({ path: join(artifacts, "10k-marker-group.png") });
    await page.getByRole("button", { name: "close the list" }).click();
  }
  await page.getByLabel("only preempted jobs").uncheck();
  // Re-run after an edit: a shorter grace period.
  await page.getByRole("tab", { name: "Settings" }).click();
  const t1 = Date.now();
  const measured = await page.evaluate(() => performance.getEntriesByName("quotasim:edit-to-render").length);
  await page.getByLabel("Preemption grace (s, R21)").fill("60");
  await page.waitForFunction((n) => performance.getEntriesByName("quotasim:edit-to-render").length > n, measured, { timeout: 180_000 });
  await ready(page);
  const rerunWall = Date.now() - t1;
  const rerunMs = await page.locator(".status.ok").getAttribute("data-run-ms");
  console.log(`10,000-job scenario re-run after an edit: ${Number(rerunMs).toFixed(0)} ms in the page; ${rerunWall} ms from the keystroke to charts drawn, as the test driver sees it`);
  await page.getByRole("button", { name: "jump to start" }).click();
  await page.getByRole("button", { name: "play" }).click();
  await page.waitForTimeout(1000);
  await page.getByRole("button", { name: "pause" }).click();
  assert.notEqual(await page.locator("[data-now]").getAttribute("data-now"), "0", "playback advanced");
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

/** A scenario of `n` jobs in four teams' shares, the same every time (like `quotasim generate`). */
function generatedScenario(n) {
  let x = 12345;
  const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const teams = [["team-a", "LEND_AND_BORROW", 24], ["team-b", "LEND", 16], ["team-c", "RESERVE", 16], ["team-d", "LEND_AND_BORROW", 8]];
  const quotaShares = teams.map(([name, strategy, q]) => ({
    quotaShareName: name,
    capacityLimits: [{ capacityUnit: "ml.p4d.24xlarge", maxCapacity: q }],
    resourceSharingConfiguration: strategy === "LEND_AND_BORROW" ? { strategy, borrowLimit: 200 } : { strategy },
    preemptionConfiguration: { inSharePreemption: name === "team-a" ? "ENABLED" : "DISABLED" },
  }));
  const jobs = [];
  const at = teams.map(() => 0);
  for (let i = 0; i < n; i++) {
    const t = i % teams.length;
    at[t] += Math.floor(-Math.log(1 - rand()) * 240);
    jobs.push({
      jobName: `${teams[t][0]}-${String(i).padStart(7, "0")}`,
      quotaShareName: teams[t][0],
      schedulingPriority: Math.floor(rand() * 3) * 10,
      instanceType: "ml.p4d.24xlarge",
      instanceCount: 1 + Math.floor(rand() * 4),
      submitAt: at[t],
      durationSeconds: 300 + Math.floor(600 / Math.pow(1 - rand() * 0.999, 1 / 1.5)),
      checkpointIntervalSeconds: rand() < 0.8 ? 900 : null,
    });
  }
  return {
    formatVersion: 1,
    name: `${n} generated jobs`,
    instanceTypes: [{ name: "ml.p4d.24xlarge", gpus: 8 }],
    serviceEnvironment: { serviceEnvironmentName: "perf", capacityLimits: [{ capacityUnit: "ml.p4d.24xlarge", maxCapacity: 64 }] },
    quotaShares,
    jobs,
  };
}

test("responsiveness at 10,000 and 50,000 jobs: long tasks, edit and import to redrawn charts, memory (measured, written to artifacts/performance.json)", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  });
  const now = () => page.evaluate(() => performance.now());
  const longest = (from, to) => page.evaluate(([a, b]) => Math.max(0, ...window.__longtasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d)), [from, to]);
  const entries = (name) => page.evaluate((n) => performance.getEntriesByName(n).map((e) => ({ start: e.startTime, duration: e.duration, detail: e.detail })), name);
  const waitForEntry = async (name, count) => {
    await page.waitForFunction(([n, c]) => performance.getEntriesByName(n).length > c, [name, count], { timeout: 300_000 });
    return (await entries(name)).at(-1);
  };
  const report = {};
  const dir = await mkdtemp(join(tmpdir(), "quotasim-perf-"));
  for (const n of [10_000, 50_000]) {
    const file = join(dir, `generated-${n}.json`);
    await writeFile(file, JSON.stringify(generatedScenario(n)));
    // Import the file: from choosing it to the charts drawn.
    await page.getByRole("button", { name: "Import / Export" }).click();
    const imports = (await entries("quotasim:import-to-render")).length;
    const t0 = await now();
    await page.locator(".modal input[type=file]").first().setInputFiles(file);
    const imported = await waitForEntry("quotasim:import-to-render", imports);
    await page.waitForFunction((k) => document.querySelector(".status.ok")?.textContent.includes(`${k} jobs`), n, { timeout: 300_000 });
    await page.keyboard.press("Escape");
    await page.waitForTimeout(1000); // the autosave, after its pause
    const importLongest = await longest(t0, await now());
    const firstMemory = (await entries("quotasim:wasm-memory")).at(-1).detail;
    // Edits: each from the keystroke to the charts drawn again.
    await page.getByRole("tab", { name: "Settings" }).click();
    const edits = [];
    let editLongest = 0;
    for (const grace of [60, 90, 120, 150, 180, 210]) {
      const count = (await entries("quotasim:edit-to-render")).length;
      const t1 = await now();
      await page.getByLabel("Preemption grace (s, R21)").fill(String(grace));
      edits.push((await waitForEntry("quotasim:edit-to-render", count)).duration);
      await page.waitForTimeout(700); // the autosave, after its pause
      editLongest = Math.max(editLongest, await longest(t1, await now()));
    }
    // Three exports, then one more edit: what the memory is after all that.
    await page.getByRole("button", { name: "Import / Export" }).click();
    for (let i = 0; i < 3; i++) {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Scenario JSON", exact: true }).click()]);
      assert.equal(JSON.parse(await readFile(await download.path(), "utf8")).jobs.length, n);
    }
    await page.keyboard.press("Escape");
    const count = (await entries("quotasim:edit-to-render")).length;
    await page.getByLabel("Preemption grace (s, R21)").fill("120");
    await waitForEntry("quotasim:edit-to-render", count);
    const lastMemory = (await entries("quotasim:wasm-memory")).at(-1).detail;
    const sorted = [...edits].sort((a, b) => a - b);
    report[n] = {
      importToRenderMs: Math.round(imported.duration),
      longestTaskWhileImportingMs: Math.round(importLongest),
      editToRenderMs: edits.map(Math.round),
      editToRenderMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)]),
      longestTaskOnEditsMs: Math.round(editLongest),
      wasmMemoryAfterFirstRunMiB: +(firstMemory / 2 ** 20).toFixed(1),
      wasmMemoryAfterEditsAndExportsMiB: +(lastMemory / 2 ** 20).toFixed(1),
      memoryGrowth: +(lastMemory / firstMemory).toFixed(2),
    };
    console.log(`${n} jobs: ${JSON.stringify(report[n])}`);
    if (n === 50_000) {
      // Too large for a link: the page says so and offers the file, at every width.
      await page.getByRole("button", { name: "Copy share link" }).click();
      assert.match(await page.locator(".notice-text").innerText(), /50,000 jobs\) is too large for a link/);
      for (const width of [1440, 1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.locator(".notice").screenshot({ path: join(artifacts, `too-large-link-${width}.png`) });
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      const [file] = await Promise.all([page.waitForEvent("download"), page.locator(".notice").getByRole("button", { name: "Download scenario JSON" }).click()]);
      assert.equal(JSON.parse(await readFile(await file.path(), "utf8")).jobs.length, n);
      // Saved in the browser (IndexedDB) all the same: a reload brings it back.
      await page.waitForTimeout(1500);
      assert.equal(await page.evaluate(() => localStorage.getItem("quotasim-playground-large-v1")), "1");
      await page.reload();
      await page.waitForFunction((k) => document.querySelector(".status.ok")?.textContent.includes(`${k} jobs`), n, { timeout: 300_000 });
      assert.equal(await page.getByLabel("scenario name").inputValue(), `${n} generated jobs`);
    }
    assert.ok(edits.length === 6 && edits.every((d) => d > 0), "every edit is measured");
    assert.ok(firstMemory > 0 && lastMemory >= firstMemory, "the page records its WebAssembly memory");
  }
  await writeFile(join(artifacts, "performance.json"), JSON.stringify(report, null, 2) + "\n");
  await rm(dir, { recursive: true, force: true });
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Compare mode on the scenario on screen (`n` listed jobs): enter it, then change the first
 * share's strategy in B; each time wait for the comparison to be drawn and for the autosave of
 * both scenarios, and take the longest task. Leaves compare mode with the edit kept.
 */
async function compareFigures(page, n, { now, longest }) {
  const compare = page.locator("section.compare");
  const shown = (re) => page.waitForFunction((src) => new RegExp(src, "i").test(document.querySelector("section.compare")?.innerText ?? ""), re.source, { timeout: 300_000 });
  const t0 = await now();
  await page.locator(".top-actions").getByRole("button", { name: "Compare", exact: true }).click();
  // (Headings are upper case on screen, so innerText has them so: the patterns ignore case.)
  await shown(/B is the same as A[\s\S]*Jobs whose fate changed \(0\)/);
  const enterToDrawn = (await now()) - t0;
  await page.waitForTimeout(1000); // the autosave, after its pause
  const enterLongest = await longest(t0, await now());
  await page.getByRole("tab", { name: "Shares" }).click();
  const select = page.locator("select[data-path='quotaShares[0].resourceSharingConfiguration.strategy']");
  const from = await select.inputValue();
  const to = from === "RESERVE" ? "LEND_AND_BORROW" : "RESERVE";
  const t1 = await now();
  await select.selectOption(to);
  await shown(new RegExp(`strategy: ${from} → ${to}[\\s\\S]*Jobs whose fate changed \\([1-9]`));
  const editToDrawn = (await now()) - t1;
  await page.waitForTimeout(1000); // the autosave, after its pause
  const editLongest = await longest(t1, await now());
  const text = await compare.innerText();
  assert.doesNotMatch(text, /B is the same as A/);
  const changed = Number(/Jobs whose fate changed \((\d+)\)/i.exec(text)[1]);
  assert.ok(changed > 0 && changed <= n, `${changed} jobs changed of ${n}`);
  await page.locator(".top-actions").getByRole("button", { name: "Leave compare" }).click();
  await compare.waitFor({ state: "detached" });
  return {
    enterToDrawnMs: Math.round(enterToDrawn),
    enterLongestTaskMs: Math.round(enterLongest),
    editToDrawnMs: Math.round(editToDrawn),
    editLongestTaskMs: Math.round(editLongest),
    jobsChanged: changed,
  };
}

test("compare mode at 10,000, 50,000 and 100,000 listed jobs: entering it and an edit of B, long tasks and time to drawn, linear in the jobs (measured, written to artifacts/compare-performance.json)", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  });
  const now = () => page.evaluate(() => performance.now());
  const longest = (from, to) => page.evaluate(([a, b]) => Math.max(0, ...window.__longtasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d)), [from, to]);
  const report = {};
  const dir = await mkdtemp(join(tmpdir(), "quotasim-compare-"));
  for (const n of [10_000, 50_000, 100_000]) {
    // Listed jobs, as an imported AWS history or trace gives them.
    const file = join(dir, `generated-${n}.json`);
    await writeFile(file, JSON.stringify(generatedScenario(n)));
    await page.getByRole("button", { name: "Import / Export" }).click();
    await page.locator(".modal input[type=file]").first().setInputFiles(file);
    await page.waitForFunction((k) => document.querySelector(".status.ok")?.textContent.includes(`${k} jobs`), n, { timeout: 300_000 });
    await page.keyboard.press("Escape");
    await page.waitForTimeout(1500); // the autosave, after its pause
    report[n] = await compareFigures(page, n, { now, longest });
    console.log(`compare mode, ${n} listed jobs: ${JSON.stringify(report[n])}`);
  }
  await writeFile(join(artifacts, "compare-performance.json"), JSON.stringify(report, null, 2) + "\n");
  await rm(dir, { recursive: true, force: true });
  // Timings are measured and reported (README, artifacts/compare-performance.json), never
  // asserted: a machine's load decides them. Twice the jobs should take about twice the time.
  for (const k of ["enterToDrawnMs", "editToDrawnMs"]) {
    console.log(`${k}: 100,000 jobs take ${(report[100_000][k] / report[50_000][k]).toFixed(2)}x the time of 50,000`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("every preset loads, runs and explains itself without console errors", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  const ids = await page.locator("select[aria-label='load a preset scenario'] option").evaluateAll((os) => os.map((o) => o.value).filter((v) => v && v !== "generated-10k"));
  assert.ok(ids.length >= 7, `presets: ${ids}`);
  for (const id of ids) {
    await page.getByLabel("load a preset scenario").selectOption(id);
    await page.waitForFunction(() => document.querySelector(".status.ok"), null, { timeout: 60_000 });
    assert.ok((await page.locator(".preset-info p").innerText()).length > 100, `${id} has an explanation`);
    await page.getByRole("button", { name: "jump to end" }).click();
    const markers = page.locator(".timeline path.marker");
    if ((await markers.count()) > 0) {
      await markers.first().click();
      await page.locator(".drawer").waitFor();
      assert.match(await page.locator(".drawer").innerText(), /R\d+/);
      await page.keyboard.press("Escape");
    }
  }
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("import and export: scenario JSON round-trips, bad JSON is reported and kept", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await page.getByRole("button", { name: "Import / Export" }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Scenario JSON", exact: true }).click()]);
  const raw = await readFile(await download.path(), "utf8");
  assert.ok(!raw.includes("\n "), "exports are compact JSON");
  const exported = JSON.parse(raw);
  assert.equal(exported.quotaShares.length, 3);
  assert.ok(!JSON.stringify(exported).includes("colors"), "colours stay out of the scenario");
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Jobs CSV" }).click()]);
  assert.match(await readFile(await csv.path(), "utf8"), /^jobName,quotaShareName,status/);
  const [sum] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Summary CSV" }).click()]);
  const sumText = await readFile(await sum.path(), "utf8");
  assert.match(sumText, /^quotaShareName,jobs,succeeded,utilization,.*gpuHoursLent/);
  assert.equal(sumText.trim().split("\n").length, 5, "three shares and overall");
  const box = page.locator(".modal textarea");
  await box.fill('{"formatVersion": 1, "serviceEnvironment": {"capacityLimits": []}, "quotaShares": [], "jobz": []}');
  await page.getByRole("button", { name: "Load pasted text" }).click();
  assert.match(await page.locator(".msg.err").innerText(), /jobz/);
  assert.match(await box.inputValue(), /jobz/, "the pasted text is kept");
  exported.name = "imported copy";
  await box.fill(JSON.stringify(exported));
  await page.getByRole("button", { name: "Load pasted text" }).click();
  await page.locator(".msg.ok").waitFor();
  await page.keyboard.press("Escape");
  await ready(page);
  assert.equal(await page.getByLabel("scenario name").inputValue(), "imported copy");
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("bridges in the page: AWS outputs and a real trace are recognised, configuration merges, the three deploy exports download", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // At 1280 px every column of the per-share table fits its card (no hidden "stuck" column).
  const fit = await page.evaluate(() => {
    const t = document.querySelector("table.metrics");
    const shown = [...t.querySelectorAll("thead th")].filter((th) => !th.hidden);
    return { table: t.scrollWidth, card: t.parentElement.clientWidth, last: shown.at(-1).textContent };
  });
  assert.ok(fit.table <= fit.card, `per-share table ${fit.table} px in ${fit.card} px`);
  assert.equal(fit.last, "stuck");
  await page.getByRole("button", { name: "Import / Export" }).click();
  // Three deploy formats, named as AWS and Kueue name them.
  const grab = async (name) => {
    const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name }).click()]);
    return readFile(await d.path(), "utf8");
  };
  const cfn = JSON.parse(await grab("CloudFormation template"));
  const kinds = Object.values(cfn.Resources).map((r) => r.Type);
  assert.ok(kinds.includes("AWS::Batch::QuotaShare") && kinds.includes("AWS::Batch::ServiceEnvironment"), kinds.join());
  assert.match(await grab("aws-cli script"), /aws batch create-quota-share/);
  assert.match(await grab("Kueue YAML"), /kind: ClusterQueue/);
  // AWS configuration alone (a service environment and a share, two files at once) merges when
  // Merge is chosen (on the preset as it ships, Replace is the default: import.test.mjs).
  await page.getByRole("radio", { name: "Merge" }).check();
  const env = { serviceEnvironments: [{ serviceEnvironmentName: "prod", capacityLimits: [{ capacityUnit: "ml.g5.xlarge", maxCapacity: 5 }] }] };
  const share = { quotaShareName: "team-new", jobQueue: "q", capacityLimits: [{ capacityUnit: "ml.g5.xlarge", maxCapacity: 2 }],
    resourceSharingConfiguration: { strategy: "LEND" }, preemptionConfiguration: { inSharePreemption: "DISABLED" }, state: "ENABLED" };
  await page.locator(".modal input[type=file]").setInputFiles([
    { name: "env.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(env)) },
    { name: "share.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(share)) },
  ]);
  await page.locator(".msg.ok").waitFor();
  const merged = await page.locator(".msg.ok").innerText();
  assert.match(merged, /service environment capacity: 5 ml\.g5\.xlarge/);
  assert.match(merged, /quota share team-new added/);
  assert.match(await page.locator(".import-report").innerText(), /env\.json: 1 describe-service-environments/);
  await page.locator(".modal").screenshot({ path: join(artifacts, "import-merge-1280.png") });
  // A real job log (the first 300 pods of the openb trace) becomes a new scenario.
  await page.locator(".modal input[type=file]").setInputFiles(join(here, "..", "tests", "fixtures", "openb-excerpt.csv"));
  await page.locator(".msg.ok").filter({ hasText: "new scenario" }).waitFor();
  const report = await page.locator(".import-report").innerText();
  assert.match(report, /openb-excerpt\.csv: 300 rows/);
  assert.match(report, /rows ask for no GPU/);
  await page.screenshot({ path: join(artifacts, "import-1280.png") });
  await page.keyboard.press("Escape");
  await ready(page);
  assert.match(await page.getByLabel("scenario name").inputValue(), /imported trace/);
  // The trace's listed jobs become a fitted workload section (replicates, forecasts' arrivals).
  await page.getByRole("tab", { name: "Jobs" }).click();
  const gen = page.locator("details.generator");
  await gen.locator("summary").click();
  await gen.getByRole("button", { name: "Fit a workload to the listed jobs" }).click();
  await page.waitForFunction(() => /listed jobs are now a workload section fitted to them/.test(document.querySelector(".gen-status")?.innerText ?? ""));
  const fitted = await gen.locator(".gen-status").innerText();
  assert.match(fitted, /The 260 listed jobs .* \(4 shares; .*per hour of the day/);
  assert.match(fitted, /260 generated jobs \(seed 0\)/);
  assert.ok(await gen.getByRole("button", { name: "Fit a workload to the listed jobs" }).isDisabled());
  // Another seed is another history like it: the same 260 jobs per share, drawn again.
  await gen.getByRole("button", { name: "Another seed" }).click();
  await page.waitForFunction(() => /260 generated jobs \(seed 1\): LS 104, Burstable 7, BE 148, Guaranteed 1/.test(document.querySelector(".gen-status")?.innerText ?? ""));
  await gen.scrollIntoViewIfNeeded();
  await gen.screenshot({ path: join(artifacts, "fit-workload-1280.png") });
  await ready(page);
  // With a workload on both sides, compare mode runs replicates: overall, then per share.
  await page.locator(".top-actions").getByRole("button", { name: "Compare", exact: true }).click();
  await page.getByRole("tab", { name: "Shares" }).click();
  await page.locator("article.share-card label.check", { hasText: "In-share preemption (R20)" }).first().locator("input").click();
  const reps = page.locator("section.compare .replicates");
  await reps.getByRole("button", { name: "Run both on these seeds" }).click();
  await reps.locator("tbody.share-group").first().waitFor();
  assert.equal(await reps.locator("tbody.share-group").count(), 4, "a group per share");
  assert.match(await reps.locator("tbody.share-group tr.group-row").first().innerText(), /wait p95 Δ .*\/5 /);
  for (const width of [1440, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await reps.scrollIntoViewIfNeeded();
    await reps.screenshot({ path: join(artifacts, `replicates-per-share-${width}.png`) });
  }
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("reading why: rule chips open the rule, borrowing is the share's band, every lending flow has its own key", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1280, height: 900 } });
  // The first Tab reaches a skip link that takes the keyboard to the player.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Skip to the player");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "player");
  await page.locator(".timeline path.marker[data-pre='0']").click();
  await page.locator(".drawer button.rule", { hasText: "R19" }).click();
  assert.match(await page.locator(".rule-text").innerText(), /^R19 Victim choice\./);
  assert.equal(await page.locator(".drawer button.rule", { hasText: "R19" }).getAttribute("aria-expanded"), "true");
  await page.locator(".drawer").screenshot({ path: join(artifacts, "rule-chip-1280.png") });
  await page.keyboard.press("Escape");
  // qs1 borrows as a share: a band along its lanes ending at 7:47, while qs1_job_med runs to 8:22.
  const bands = await page.locator(".timeline rect.borrow-band title").allTextContents();
  assert.ok(bands.some((b) => /^qs1 borrowing .* from 4:17 to 7:47$/.test(b)), bands.join(" | "));
  assert.equal(await page.locator(".timeline rect.attempt[fill^='url(']").count(), 0, "attempts are not hatched as a whole");
  await page.locator(".timeline").screenshot({ path: join(artifacts, "timeline-borrowing-1280.png") });
  const key = await page.locator("#lend-h ~ .legend .legend-item[title]").evaluateAll((els) =>
    els.map((e) => [e.getAttribute("title"), getComputedStyle(e.querySelector(".swatch")).backgroundImage]));
  assert.ok(key.length >= 1 && key.every(([t, bg]) => / lends to /.test(t) && /repeating-linear-gradient/.test(bg)), JSON.stringify(key));
  await page.locator("section[aria-labelledby='lend-h']").screenshot({ path: join(artifacts, "lending-key-1280.png") });
  await page.locator("section[aria-labelledby='per-share-h']").screenshot({ path: join(artifacts, "per-share-1280.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("at 390 px nothing scrolls sideways; a job found by name opens in the timeline and its explanation", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 390, height: 844 } });
  const wide = () => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.equal(await wide(), 0, "no horizontal scrolling");
  await page.getByLabel("find a job by name").fill("low");
  await page.locator(".found button", { hasText: "qs1_job_low" }).click();
  assert.match(await page.locator(".drawer").innerText(), /qs1_job_low at/);
  await page.screenshot({ path: join(artifacts, "search-390.png") });
  await page.keyboard.press("Escape");
  assert.equal(await wide(), 0, "still none with the search results shown");
  assert.deepEqual(errors, []);
  await context.close();
});

test("what to change: a waiting job names the setting that holds it, and an edited preset exports without the preset's description (1440, 1280 and 390 px)", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await page.getByLabel("load a preset scenario").selectOption("in-share");
  await ready(page);
  // 2:02, just after the urgent jobs arrive: nlp's waits behind its own lower-priority batches.
  for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "step to next event" }).click();
  assert.equal(await page.locator("[data-now]").getAttribute("data-now"), "7320");
  for (const width of [1440, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByLabel("find a job by name").fill("urgent");
    await page.locator(".found button", { hasText: "urgent-eval" }).click();
    const drawer = page.locator(".drawer");
    assert.match(await drawer.innerText(), /In-share preemption is DISABLED for nlp/);
    assert.match(await drawer.innerText(), /batch-0 \(priority 10\)/);
    await drawer.screenshot({ path: join(artifacts, `what-to-change-${width}.png`) });
    await page.keyboard.press("Escape");
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  // Edited, the preset's description stays out of the export; the user's own goes in.
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Preemption grace (s, R21)").fill("60");
  await ready(page);
  const exported = async () => {
    await page.getByRole("button", { name: "Import / Export" }).click();
    const [d] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Scenario JSON", exact: true }).click()]);
    await page.keyboard.press("Escape");
    return JSON.parse(await readFile(await d.path(), "utf8"));
  };
  const edited = await exported();
  assert.equal(edited.settings.preemptionGraceSeconds, 60);
  assert.equal(edited.description, undefined, "the preset's description does not describe the edit");
  await page.getByLabel("Scenario description").fill("grace 60 s: does nlp wait less?");
  await page.waitForTimeout(300);
  assert.equal((await exported()).description, "grace 60 s: does nlp wait less?");
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("light theme: follows prefers-color-scheme, screenshots at 1440, 1280 and 390 px", async () => {
  for (const width of [1440, 1280, 390]) {
    const { context, page, errors } = await openPlayground({ viewport: { width, height: 900 }, colorScheme: "light" });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, "rgb(245, 246, 248)");
    await page.screenshot({ path: join(artifacts, `light-${width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the Content-Security-Policy refuses injected inline script and foreign images", async () => {
  const { context, page, errors } = await openPlayground();
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  // Markup that got past escaping would be inert: its handler and its image are refused.
  await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<img id="probe" src="http://127.0.0.1:9/x.png" onerror="window.__ran = 1">'));
  await page.waitForFunction(() => window.__csp.length >= 1);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.__ran), undefined, "the inline handler did not run");
  const violations = await page.evaluate(() => window.__csp.map((v) => v.split(" ")[0]));
  assert.ok(violations.includes("img-src"), `${violations}`);
  errors.length = 0; // the refusals above are expected console errors
  await context.close();
});

// Hostile links: each opens over saved work in a fresh page of a context that has some.
const PAYLOAD = `#fff"/><img src=x onerror=alert(document.domain)>`;
// No spaces: valid as an instance type name, so the scenario runs with it.
const TYPE_PAYLOAD = `ml.x"/><img/src=x/onerror=alert(document.domain)>`;
const notebook = JSON.parse(await readFile(join(here, "..", "www", "presets", "notebook.json"), "utf8"));
const link = (bytes) => deflateRawSync(Buffer.from(bytes), { level: 9 }).toString("base64url");
const saved = (scenario, extra = {}) => link(JSON.stringify({ scenario, colors: [], preset: null, now: 0, ...extra }));
const withType = (s, type) => JSON.parse(JSON.stringify(s).replaceAll('"ml.g5.xlarge"', JSON.stringify(type)));
const goodLink = saved(notebook);

const hostile = [
  { name: "script in share colours", hash: saved(notebook, { colors: [["qs1", PAYLOAD], ["qs2", "red"], ["qs3", "javascript:alert(1)"]], preset: PAYLOAD }), runs: true },
  {
    name: "script in the scenario's name, description, instance type and a termination reason",
    hash: saved({
      ...withType(notebook, TYPE_PAYLOAD),
      name: PAYLOAD,
      description: `<script>alert(1)</script>${PAYLOAD}`,
      actions: [{ at: 1200, terminateServiceJob: { jobName: "qs1_job_high", reason: `=HYPERLINK("x")${PAYLOAD}` } }],
    }),
    runs: true,
    shown: PAYLOAD,
  },
  {
    name: "script in share and job names (invalid names)",
    hash: saved(JSON.parse(JSON.stringify(notebook).replaceAll('"qs1_job_high"', JSON.stringify(PAYLOAD)).replaceAll('"qs2"', JSON.stringify(`qs2${PAYLOAD}`)))),
    runs: false,
  },
  { name: "a truncated link", hash: goodLink.slice(0, Math.floor(goodLink.length / 2 / 4) * 4), notice: /could not be read.*cut short/ },
  { name: "garbage that is not base64url", hash: "!!!not*base64***", notice: /could not be read.*base64url/ },
  { name: "base64url that is not compressed data", hash: Buffer.from("not deflate data at all, just text").toString("base64url"), notice: /could not be read.*damaged/ },
  { name: "a zip bomb inflating far past the bound", hash: link(Buffer.alloc(128 << 20, 32)), notice: /could not be read.*inflates past/ },
  { name: "a huge link", hash: "A".repeat(1_600_000), notice: /could not be read.*too long/ },
  { name: "JSON with wrong types", hash: link(JSON.stringify({ scenario: { jobs: "many", quotaShares: 5 }, colors: "red", now: -1 })), notice: /could not be read.*not a saved scenario/ },
];

test("hostile links: no script runs, nothing is injected, the page keeps working", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await watchCsp(context);
  const setup = await context.newPage();
  await setup.goto(base);
  await ready(setup);
  await setup.getByLabel("scenario name").fill("my work");
  await setup.waitForFunction(() => (localStorage.getItem("quotasim-playground-v1") ?? "").includes("my work"));
  await setup.close();
  for (const h of hostile) {
    const page = await context.newPage();
    const errors = watchConsole(page);
    const dialogs = [];
    page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
    const t0 = Date.now();
    await page.goto(`${base}#s=${h.hash}`);
    await page.waitForSelector(".status.ok, .status.err", { timeout: 60_000 });
    const notice = await page.locator(".notice").innerText();
    assert.ok(notice.length < 300, `${h.name}: a short notice (${notice.length} characters)`);
    if (h.notice) assert.match(notice, h.notice, h.name);
    else assert.match(notice, /The link opened another scenario.*kept in History/, h.name);
    if (h.shown) assert.equal(await page.locator(".preset-info h2").innerText(), h.shown, `${h.name}: shown as text`);
    if (h.runs === false) {
      assert.equal(await page.locator(".status.err").count(), 1, h.name);
      await page.getByRole("button", { name: "Go back" }).click();
      await ready(page);
      // The scenario gone back to is the saved one: the next link that cannot be read opens it.
      await page.waitForFunction(() => (localStorage.getItem("quotasim-playground-v1") ?? "").includes("qs1_job_high"));
    } else {
      await ready(page);
    }
    await page.getByRole("button", { name: "jump to end" }).click();
    await page.locator(".timeline").hover();
    await page.getByRole("button", { name: "jump to start" }).click();
    await page.getByRole("button", { name: "play" }).click();
    await page.waitForFunction(() => Number(document.querySelector("[data-now]")?.getAttribute("data-now")) > 0);
    await page.getByRole("button", { name: "pause" }).click();
    const injected = await page.evaluate(() => ({
      img: document.querySelectorAll("img").length,
      scripts: document.querySelectorAll("script").length,
      handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length,
    }));
    assert.deepEqual(injected, { img: 0, scripts: 1, handlers: 0 }, `${h.name}: no element or handler injected`);
    assert.deepEqual(dialogs, [], `${h.name}: no dialog`);
    assert.deepEqual(errors, [], `${h.name}: no console errors`);
    await assertNoCspViolations(page);
    console.log(`${h.name}: handled in ${Date.now() - t0} ms; notice: ${notice.slice(0, 120)}`);
    await page.close();
  }
  await context.close();
});

test("a share link over edited work: the work is kept in History and comes back", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.getByLabel("scenario name").fill("my work");
  await page.waitForFunction(() => (localStorage.getItem("quotasim-playground-v1") ?? "").includes("my work"));
  const other = await context.newPage();
  await other.goto(`${base}#s=${saved({ ...notebook, name: "shared with me" })}`);
  await ready(other);
  assert.equal(await other.getByLabel("scenario name").inputValue(), "shared with me");
  assert.match(await other.locator(".notice").innerText(), /“my work” \(4 jobs\) was replaced; it is kept in History/);
  await other.getByRole("button", { name: "History" }).click();
  const rows = other.locator(".history-list tbody tr");
  assert.equal(await rows.count(), 1);
  assert.match(await rows.first().innerText(), /my work\s+4/);
  await other.getByRole("button", { name: "restore my work" }).click();
  await ready(other);
  assert.equal(await other.getByLabel("scenario name").inputValue(), "my work");
  assert.match(await other.locator(".notice").innerText(), /“shared with me”/, "the link's scenario can come back in turn");
  await other.screenshot({ path: join(artifacts, "history.png"), fullPage: false });
  assert.deepEqual(errors, []);
  await assertNoCspViolations(other);
  await context.close();
});

// axe-core, injected into the page by the test driver (the page's CSP allows no inline script,
// and the driver's evaluation is not page script).
const axeSource = await readFile(join(here, "node_modules", "axe-core", "axe.min.js"), "utf8");

/** Runs axe-core on the page; returns every serious, critical or moderate violation as a line. */
async function axeViolations(page, state) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    // A contrast failure says which colours and what ratio.
    const detail = (n) => { const d = n.any[0]?.data; return d?.contrastRatio ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}]` : ""; };
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ") + detail(n)) }));
  });
  return found
    .filter((v) => ["serious", "critical", "moderate"].includes(v.impact))
    .map((v) => `${state}: ${v.id} (${v.impact}) ${v.help}: ${v.targets.slice(0, 8).join(", ")}${v.targets.length > 8 ? ` and ${v.targets.length - 8} more` : ""}`);
}

test("accessibility: axe finds no serious, critical or moderate violation in any state the page shows", async () => {
  const found = [];
  const check = async (page, state) => found.push(...(await axeViolations(page, state)));
  for (const colorScheme of ["dark", "light"]) {
    const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 }, colorScheme });
    await check(page, `loaded (${colorScheme})`);
    await page.getByRole("button", { name: "jump to end" }).click();
    await page.locator('.timeline path.marker[data-pre="0"]').click();
    await page.locator(".drawer").waitFor();
    await page.locator(".drawer button.rule").first().click();
    await check(page, `explanation with a rule open (${colorScheme})`);
    await page.keyboard.press("Escape");
    for (const tab of ["Capacity", "Shares", "Jobs", "Actions", "Settings"]) {
      await page.getByRole("tab", { name: tab }).click();
      await check(page, `${tab} tab (${colorScheme})`);
    }
    await page.getByRole("button", { name: "Import / Export" }).click();
    await page.locator(".modal").waitFor();
    await check(page, `Import / Export dialog (${colorScheme})`);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "History" }).click();
    await page.locator(".modal").waitFor();
    await check(page, `History dialog (${colorScheme})`);
    await page.keyboard.press("Escape");
    await page.locator(".top-actions").getByRole("button", { name: "Compare", exact: true }).click();
    await page.getByRole("tab", { name: "Shares" }).click();
    await page.locator("article.share-card label.check", { hasText: "In-share preemption (R20)" }).first().locator("input").click();
    await page.waitForFunction(() => document.querySelector("ul.changed-jobs")?.innerText.includes("no longer preempted"));
    await check(page, `compare mode (${colorScheme})`);
    const sweep = page.locator("details.sweep");
    await sweep.locator("summary").click();
    await sweep.getByRole("button", { name: "Run sweep" }).click();
    await page.waitForFunction(() => /^\d+ rows/.test(document.querySelector("details.sweep p[role=status]")?.innerText ?? ""));
    await check(page, `sweep result (${colorScheme})`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await check(page, `390 px (${colorScheme})`);
    assert.deepEqual(errors, []);
    await assertNoCspViolations(page);
    await context.close();
  }
  for (const colorScheme of ["dark", "light"]) {
    // Replaced work: the notice under the top bar and a History with an entry; the generator;
    // a delete that asks first; an invalid scenario with its problems.
    const { context, page, errors } = await openPlayground({ viewport: { width: 1280, height: 900 }, colorScheme });
    await page.getByLabel("scenario name").fill("my work");
    const other = await page.locator("select[aria-label='load a preset scenario'] option").evaluateAll((os) => os.map((o) => o.value).find((v) => v && v !== "notebook" && v !== "generated-10k"));
    await page.getByLabel("load a preset scenario").selectOption(other);
    await page.locator(".notice").waitFor();
    await ready(page);
    await check(page, `the notice of replaced work (${colorScheme})`);
    await page.getByRole("button", { name: "History" }).click();
    await page.locator(".history-list").waitFor();
    await check(page, `History with an entry (${colorScheme})`);
    await page.keyboard.press("Escape");
    await page.getByRole("tab", { name: "Jobs" }).click();
    const gen = page.locator("details.generator");
    await gen.locator("summary").click();
    await gen.getByRole("button", { name: "Generate", exact: true }).click();
    await page.waitForFunction(() => /generated jobs \(seed 1\)/.test(document.querySelector(".gen-status")?.innerText ?? ""));
    await ready(page);
    await check(page, `the workload generator (${colorScheme})`);
    await page.getByRole("button", { name: "List the generated jobs" }).click().catch(() => {});
    await page.getByRole("button", { name: /^Delete all$/ }).click();
    await page.locator(".confirm").waitFor();
    await check(page, `a delete that asks first (${colorScheme})`);
    await page.locator(".confirm").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Preemption grace (s, R21)").fill("-5");
    await page.waitForSelector(".status.err");
    await check(page, `an invalid scenario (${colorScheme})`);
    assert.deepEqual(errors, []);
    await assertNoCspViolations(page);
    await context.close();
  }
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.getByLabel("load a preset scenario").selectOption("generated-10k");
  await page.waitForFunction(() => document.querySelector(".status.ok")?.textContent.includes("10000 jobs"), null, { timeout: 180_000 });
  await page.getByRole("button", { name: "jump to end" }).click();
  await check(page, "10,000-job preset");
  await page.getByLabel("only preempted jobs").check();
  if ((await page.locator(".timeline g.marker-group").count()) > 0) {
    await page.locator(".timeline g.marker-group").first().click();
    await check(page, "10,000-job preset, a marker group's list");
  }
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
  assert.deepEqual(found, [], `axe violations:\n${found.join("\n")}`);
});

test("keyboard: Tab and Shift+Tab stay inside the Import / Export and History dialogs, Esc closes them and focus returns to the opener", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1280, height: 800 } });
  for (const [name, dialog] of [["Import / Export", ".modal"], ["History", ".modal.history"]]) {
    const opener = page.locator(".top-actions").getByRole("button", { name, exact: true });
    await opener.focus();
    await page.keyboard.press("Enter");
    await page.locator(dialog).waitFor();
    await page.waitForFunction((d) => document.querySelector(d)?.contains(document.activeElement), dialog);
    const seen = new Set();
    for (const key of [...Array(30).fill("Tab"), ...Array(30).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      const where = await page.evaluate((d) => {
        const a = document.activeElement;
        return { inside: !!document.querySelector(d)?.contains(a), what: `${a.tagName} ${a.getAttribute("aria-label") ?? a.textContent.slice(0, 30)}` };
      }, dialog);
      assert.ok(where.inside, `${name}: after ${key} focus is on ${where.what}, outside the dialog`);
      seen.add(where.what);
    }
    if (name === "Import / Export") assert.ok(seen.size > 10, `Tab goes through the dialog's controls: ${[...seen]}`);
    await page.keyboard.press("Escape");
    await page.locator(dialog).waitFor({ state: "detached" });
    assert.ok(await opener.evaluate((b) => b === document.activeElement), `${name}: focus is back on its button`);
  }
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("keyboard: a chart marker reached with Tab shows a focus ring in both themes, and closing its explanation gives focus back to it (screenshots at 1440, 1280 and 390 px)", async () => {
  for (const [colorScheme, widths] of [["dark", [1440, 1280, 390]], ["light", [1440]]]) {
    for (const width of widths) {
      const { context, page, errors } = await openPlayground({ viewport: { width, height: 900 }, colorScheme });
      await page.getByRole("button", { name: "jump to end" }).click();
      // From the timeline's last control before the chart, Tab on until a marker has focus.
      await page.getByLabel("find jobs by status").focus();
      let onMarker = false;
      for (let i = 0; i < 60 && !onMarker; i++) {
        await page.keyboard.press("Tab");
        onMarker = await page.evaluate(() => document.activeElement?.matches(".timeline path.marker"));
      }
      assert.ok(onMarker, `${colorScheme} ${width} px: Tab reaches a chart marker`);
      const ring = await page.evaluate(() => {
        const m = document.activeElement;
        const s = getComputedStyle(m);
        const focus = getComputedStyle(document.documentElement).getPropertyValue("--focus").trim();
        return { visible: m.matches(":focus-visible"), outline: `${s.outlineStyle} ${s.outlineWidth}`, outlineColor: s.outlineColor, stroke: s.stroke, strokeWidth: s.strokeWidth, focus, pre: m.dataset.pre };
      });
      assert.ok(ring.visible, "the marker matches :focus-visible");
      assert.equal(ring.outline, "solid 2px", JSON.stringify(ring));
      assert.equal(ring.strokeWidth, "3px", JSON.stringify(ring));
      assert.equal(ring.stroke, ring.outlineColor, "edge and ring in the focus colour");
      const hex = ring.focus.match(/[0-9a-f]{2}/gi).map((h) => parseInt(h, 16));
      assert.equal(ring.outlineColor, `rgb(${hex.join(", ")})`, JSON.stringify(ring));
      const box = await page.evaluate(() => { const r = document.activeElement.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
      const pad = 110;
      const x = Math.max(0, box.x - pad), y = Math.max(0, box.y - pad);
      await page.screenshot({ path: join(artifacts, `focus-marker${colorScheme === "light" ? "-light" : ""}-${width}.png`),
        clip: { x, y, width: Math.min(width - x, box.w + 2 * pad), height: box.h + 2 * pad } });
      // Enter opens its explanation; Esc closes it and focus is on the marker again.
      await page.keyboard.press("Enter");
      await page.locator(".drawer").waitFor();
      await page.keyboard.press("Escape");
      await page.locator(".drawer").waitFor({ state: "detached" });
      await page.waitForTimeout(100);
      const back = await page.evaluate(() => ({ tag: document.activeElement.tagName, pre: document.activeElement.dataset?.pre }));
      assert.deepEqual(back, { tag: "path", pre: ring.pre }, "focus is back on the marker, not on the page");
      assert.deepEqual(errors, []);
      await assertNoCspViolations(page);
      await context.close();
    }
  }
});

/** Width and height from a PNG's IHDR chunk, after checking its signature. */
function pngSize(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "the PNG signature");
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

test("decision numbers: wait-time distribution per share, who preempted whom, every chart downloads as standalone SVG and PNG", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  const cdf = page.locator("section.wait-cdf");
  // The notebook: qs1 has three jobs, qs2 one, qs3 none; every job starts.
  assert.deepEqual(await cdf.locator(".legend-item").allInnerTexts(), ["qs1: 3 jobs", "qs2: 1 job", "qs3: no jobs"]);
  const lines = cdf.locator("svg path.cdf");
  assert.equal(await lines.count(), 2);
  const swatches = await cdf.locator(".legend-item .swatch").evaluateAll((s) => s.map((e) => getComputedStyle(e).backgroundColor));
  const strokes = await lines.evaluateAll((p) => p.map((e) => getComputedStyle(e).stroke));
  assert.deepEqual(strokes, swatches.slice(0, 2), "each line in its share's colour");
  assert.match(await cdf.locator("svg desc").textContent(), /qs1: p50 .*, p90 .*qs3: p50 –/);
  const rows = await cdf.locator("table tbody tr").allInnerTexts();
  assert.equal(rows.length, 3);
  assert.match(rows[2], /qs3\s+0\s+0\s+–\s+–/);

  const matrix = page.locator("section.matrix");
  const cell = (row, col) => matrix.locator(`tbody tr:nth-child(${row}) td:nth-child(${col + 1})`).innerText();
  assert.match(await cell(2, 1), /^1\s+1 reclaim\s+[\d.]+ GPU.h lost$/, "qs2 reclaimed from qs1");
  assert.match(await cell(1, 1), /^1\s+1 in-share/, "in-share inside qs1");
  assert.equal(await cell(1, 2), "–");
  const [csv] = await Promise.all([page.waitForEvent("download"), matrix.getByRole("button", { name: "CSV" }).click()]);
  const csvLines = (await readFile(await csv.path(), "utf8")).trim().split("\n");
  assert.equal(csvLines[0], "preemptorShare,victimShare,preemptions,crossShare,inShare,capacityLimitReduced,lostGpuHours");
  assert.equal(csvLines.length, 3);

  const charts = [
    ["utilization", page.locator("figure.chart[data-export-scope]").first()],
    ["wait-time-cdf", cdf],
    ["timeline", page.locator("section[aria-labelledby=tl-h]")],
    ["lending", page.locator("section[aria-labelledby=lend-h] figure.chart").first()],
  ];
  for (const [name, scope] of charts) {
    const [w, h] = await scope.locator(".svg-host svg").evaluate((s) => [+s.getAttribute("width"), +s.getAttribute("height")]);
    const [svgFile] = await Promise.all([page.waitForEvent("download"), scope.getByRole("button", { name: /as SVG$/ }).first().click()]);
    assert.match(svgFile.suggestedFilename(), new RegExp(`^${name}.*\\.svg$`));
    const text = await readFile(await svgFile.path(), "utf8");
    assert.ok(!text.includes("var("), `${name}: no CSS variable left`);
    const parsed = await page.evaluate((t) => {
      const d = new DOMParser().parseFromString(t, "image/svg+xml");
      const r = d.documentElement;
      const painted = [...r.querySelectorAll("[fill], [stroke]")].filter((e) => /^rgba?\(/.test(e.getAttribute("fill") ?? e.getAttribute("stroke")));
      return { error: !!d.querySelector("parsererror"), root: r.localName, ns: r.namespaceURI, xmlns: r.getAttribute("xmlns"), children: r.children.length, viewBox: r.getAttribute("viewBox"), painted: painted.length, tickFill: r.querySelector("text.tick")?.getAttribute("fill") ?? "", style: r.querySelectorAll("[style]").length };
    }, text);
    assert.equal(parsed.error, false, `${name}: the SVG parses as XML`);
    assert.equal(parsed.root, "svg");
    assert.equal(parsed.ns, "http://www.w3.org/2000/svg");
    assert.equal(parsed.xmlns, "http://www.w3.org/2000/svg");
    assert.ok(parsed.children > 3, `${name}: a body`);
    assert.match(parsed.viewBox ?? "", /^0 0 \d+ \d+$/);
    assert.ok(parsed.painted > 0, `${name}: colours inlined`);
    assert.match(parsed.tickFill, /^rgb\(\d+, \d+, \d+\)$/, `${name}: tick labels keep their colour: ${parsed.tickFill}`);
    assert.notEqual(parsed.tickFill, "rgb(0, 0, 0)", `${name}: tick labels are not left black`);
    assert.equal(parsed.style, 0, "no style attribute (the page's CSP refuses them)");
    const [pngFile] = await Promise.all([page.waitForEvent("download"), scope.getByRole("button", { name: /as PNG$/ }).first().click()]);
    assert.match(pngFile.suggestedFilename(), new RegExp(`^${name}.*\\.png$`));
    const png = await readFile(await pngFile.path());
    assert.deepEqual(pngSize(png), [2 * w, 2 * h], `${name}: twice the chart's size`);
    await writeFile(join(artifacts, `export-${name}.png`), png);
    await writeFile(join(artifacts, `export-${name}.svg`), text);
  }

  for (const width of [1440, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, `no sideways scrolling at ${width}`);
    await cdf.scrollIntoViewIfNeeded();
    await cdf.screenshot({ path: join(artifacts, `wait-cdf-${width}.png`) });
    await matrix.screenshot({ path: join(artifacts, `matrix-${width}.png`) });
  }
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

/** Seconds of a duration as the page writes it ("45 s", "2 min 30 s", "1 h 05 min", "2 d 6 h"); Infinity past the horizon ("over 1 d"). */
function seconds(text) {
  if (/^over /.test(text.trim())) return Infinity;
  assert.match(text.trim(), /^(\d+ (s|min|h|d))( \d+ (s|min|h|d))?$/, `a duration: ${text}`);
  const units = { s: 1, min: 60, h: 3600, d: 86400 };
  return [...text.trim().matchAll(/(\d+) (s|min|h|d)/g)].reduce((t, m) => t + Number(m[1]) * units[m[2]], 0);
}

/** p10, p50 and p90 of a forecast's summary ("Starts in A / B / C (…"), in seconds. */
function band(summary) {
  const m = /^Starts in (.+?) \/ (.+?) \/ (.+?) \(/.exec(summary);
  assert.ok(m, `a forecast: ${summary}`);
  return [m[1], m[2], m[3]].map(seconds);
}

test("start-time forecasts: when a waiting job starts and a submit preview, forked at the playhead and run in slices (no task over 100 ms)", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  });
  const now = () => page.evaluate(() => performance.now());
  const longest = (from, to) => page.evaluate(([a, b]) => Math.max(0, ...window.__longtasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d)), [from, to]);
  await page.getByLabel("load a preset scenario").selectOption("in-share");
  await ready(page);
  // 2:02, just after the urgent jobs arrive: urgent-eval waits behind nlp's batches.
  for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "step to next event" }).click();
  assert.equal(await page.locator("[data-now]").getAttribute("data-now"), "7320");
  await page.getByLabel("find a job by name").fill("urgent-eval");
  await page.locator(".found button", { hasText: "urgent-eval" }).click();
  const drawer = page.locator(".drawer");
  assert.match(await drawer.locator(".kind").innerText(), /RUNNABLE/i);

  const t0 = await now();
  await drawer.getByRole("button", { name: "When will it start?" }).click();
  const result = drawer.locator(".eta-summary");
  await result.waitFor({ timeout: 120_000 });
  const t1 = await now();
  const summary = await result.innerText();
  const [p10, p50, p90] = band(summary);
  assert.ok(p10 <= p50 && p50 <= p90, `p10 <= p50 <= p90: ${summary}`);
  assert.match(summary, /200 replicates, seed 0, durations from (history|timeouts)/);
  assert.match(summary, /actually started at \d/);
  assert.match(await drawer.innerText(), /Durations drawn, by source: \w+ [\d,]+/);
  // The band is on urgent-eval's lane: its label's row.
  const j = await page.locator(".timeline text.lane-label", { hasText: "urgent-eval" }).getAttribute("data-job");
  const bandEl = page.locator(`.timeline g.eta-band[data-eta-job="${j}"]`);
  assert.equal(await bandEl.count(), 1, "one band, on the job's lane");
  const [labelBox, bandBox] = [await page.locator(`.timeline text.lane-label[data-job="${j}"]`).boundingBox(), await bandEl.boundingBox()];
  const mid = (b) => b.y + b.height / 2;
  assert.ok(Math.abs(mid(labelBox) - mid(bandBox)) < 11, `the band is in the label's lane: ${JSON.stringify([labelBox, bandBox])}`);
  assert.equal(await page.locator(".timeline g.eta-band").count(), 1);
  const jobMs = Number(await result.getAttribute("data-ms"));
  const jobLongest = await longest(t0, t1);
  console.log(`forecast of urgent-eval (in-share preset, 200 replicates): ${jobMs} ms of computing, ${Math.round(t1 - t0)} ms from the click to the band; longest task ${jobLongest} ms`);
  assert.ok(jobLongest <= 100, `no task over 100 ms while forecasting: ${jobLongest} ms`);
  // Nothing the forecast draws is hard to read or to reach, in either theme.
  const axeBothThemes = async (state) => {
    const found = [...(await axeViolations(page, `${state} (dark)`))];
    const toggle = page.getByRole("button", { name: "light theme" });
    await toggle.click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await page.waitForTimeout(500); // the buttons' colour transitions
    found.push(...(await axeViolations(page, `${state} (light)`)));
    await toggle.click();
    await page.waitForFunction(() => document.documentElement.dataset.theme !== "light");
    assert.deepEqual(found, []);
  };
  await axeBothThemes("a waiting job's forecast");
  await drawer.screenshot({ path: join(artifacts, "eta-drawer-1440.png") });
  await page.locator("section.card", { has: page.locator("#tl-h") }).screenshot({ path: join(artifacts, "eta-timeline-1440.png") });

  // A new request replaces the one in progress, and an edit cancels and clears it.
  await drawer.getByRole("button", { name: "When will it start?" }).click();
  await drawer.getByRole("button", { name: "When will it start?" }).click();
  await result.waitFor({ timeout: 120_000 });
  assert.deepEqual(band(await result.innerText()), [p10, p50, p90], "the same draws give the same band");
  await page.keyboard.press("Escape");

  // Submit preview: a job submitted at the playhead, its band and whom it would preempt.
  const card = page.locator("section.submit-preview");
  await card.scrollIntoViewIfNeeded();
  await card.getByLabel("share of the submitted job").selectOption("nlp");
  await card.getByLabel("scheduling priority of the submitted job").fill("100");
  await card.getByLabel("duration in seconds of the submitted job (optional)").fill("1800");
  const s0 = await now();
  await card.getByRole("button", { name: "Preview" }).click();
  const preview = card.locator(".eta-summary");
  await preview.waitFor({ timeout: 120_000 });
  const s1 = await now();
  const [q10, q50, q90] = band(await preview.innerText());
  assert.ok(q10 <= q50 && q50 <= q90, await preview.innerText());
  assert.equal(await card.locator("g.eta-band").count(), 1, "the preview draws its band");
  assert.match(await card.innerText(), /It would preempt(:| no job)/);
  await axeBothThemes("the submit preview");
  const submitLongest = await longest(s0, s1);
  console.log(`submit preview (in-share preset, 200 replicates): ${await preview.getAttribute("data-ms")} ms of computing, ${Math.round(s1 - s0)} ms to the band; longest task ${submitLongest} ms`);
  assert.ok(submitLongest <= 100, `no task over 100 ms while previewing: ${submitLongest} ms`);
  for (const width of [1440, 1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, `no sideways scrolling at ${width}`);
    await card.screenshot({ path: join(artifacts, `eta-submit-${width}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // An edit clears both forecasts (they are of the run before it).
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Preemption grace (s, R21)").fill("60");
  await ready(page);
  assert.equal(await page.locator(".timeline g.eta-band").count(), 0);
  assert.equal(await card.locator(".eta-summary").count(), 0);

  // A real trace (the openb preset): more replicates' work, still in slices.
  await page.getByLabel("load a preset scenario").selectOption("openb-trace");
  await page.waitForFunction(() => document.querySelector(".preset-info h2")?.innerText.match(/openb|trace/i));
  await ready(page);
  await page.locator("input.scrubber").fill("162000");
  await page.waitForFunction(() => document.querySelector("[data-now]")?.getAttribute("data-now") === "162000");
  await page.locator(".waiting-job").first().click();
  await page.waitForTimeout(1000); // the autosave of the playhead's move, after its pause
  const o0 = await now();
  await drawer.getByRole("button", { name: "When will it start?" }).click();
  await drawer.locator(".eta-summary").waitFor({ timeout: 120_000 });
  const o1 = await now();
  assert.match(await drawer.locator(".eta-summary").innerText(), /^(Starts in|Does not start within 1 d in \d+ % of replicates) .*200 replicates/);
  const traceLongest = await longest(o0, o1);
  console.log(`forecast in the openb preset at 1d 21:00 (200 replicates): ${await drawer.locator(".eta-summary").getAttribute("data-ms")} ms of computing, ${Math.round(o1 - o0)} ms to the result; longest task ${traceLongest} ms`);
  assert.ok(traceLongest <= 100, `no task over 100 ms while forecasting the trace: ${traceLongest} ms`);
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("a live state (R28) loads like any scenario: it runs from its startAt, and without durations it says why it cannot run", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  const state = JSON.parse(await readFile(join(here, "..", "tests", "fixtures", "notebook-state-3000.json"), "utf8"));
  const paste = async (scenario) => {
    await page.getByRole("button", { name: "Import / Export" }).click();
    await page.locator(".modal textarea").fill(JSON.stringify(scenario));
    await page.getByRole("button", { name: "Load pasted text" }).click();
    await page.locator(".msg.ok").waitFor();
    await page.keyboard.press("Escape");
  };
  await paste(state);
  await ready(page);
  assert.equal(await page.locator("input.scrubber").getAttribute("min"), "3000");
  assert.equal(await page.locator("[data-now]").getAttribute("data-now"), "3000", "the player starts at startAt");
  const svg = page.locator(".timeline .svg-host > svg");
  assert.equal(await svg.getAttribute("data-t0"), "3000", "the timeline's left edge is startAt");
  assert.equal(await page.locator(".timeline text.start-at").textContent(), "from startAt 0:50");
  // qs1_job_low runs since 0:32: its attempt is drawn from the left edge.
  const low = await page.locator(".timeline text.lane-label", { hasText: "qs1_job_low" }).getAttribute("data-job");
  const [svgBox, bar] = [await svg.boundingBox(), await page.locator(`.timeline rect.attempt[data-job="${low}"]`).first().boundingBox()];
  // (The plot's clip starts 8 px left of the axis, where an attempt begun earlier is cut.)
  assert.ok(bar.x - svgBox.x >= 160 && bar.x - svgBox.x <= 170, `from the left edge: ${bar.x - svgBox.x}`);
  // The other charts begin there too: no tick before 0:50.
  const ticks = await page.locator(".chart .tick").allInnerTexts();
  assert.ok(!ticks.some((t) => ["0:00", "0:15", "0:30", "0:45"].includes(t)), `ticks from startAt: ${ticks}`);
  // Waiting jobs of the state can be forecast like any other.
  await page.locator(".waiting-job").first().click();
  await page.locator(".drawer").getByRole("button", { name: "When will it start?" }).click();
  await page.locator(".drawer .eta-summary").waitFor({ timeout: 60_000 });
  assert.match(await page.locator(".drawer .eta-summary").innerText(), /^Starts in .+ after 0:50/);
  await page.screenshot({ path: join(artifacts, "live-state-1440.png") });
  await page.keyboard.press("Escape");

  // Without durations a state runs nowhere (only a forecast draws them): the engine says why.
  const blind = structuredClone(state);
  delete blind.jobs[0].durationSeconds;
  blind.name = "state without a duration";
  await paste(blind);
  await page.waitForSelector(".status.err");
  await page.getByRole("tab", { name: /Settings/ }).click();
  assert.match(await page.locator(".problem-list").innerText(), /jobs\[0\]\.durationSeconds.*a job needs durationSeconds to run/s);
  assert.deepEqual(errors, []);
  await assertNoCspViolations(page);
  await context.close();
});

test("start-time forecast at 10,000 jobs: 200 replicates' time and the longest task (measured, written to artifacts/forecast-performance.json)", async () => {
  const { context, page, errors } = await openPlayground({ viewport: { width: 1440, height: 900 } });
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  });
  const now = () => page.evaluate(() => performance.now());
  const longest = (from, to) => page.evaluate(([a, b]) => Math.max(0, ...window.__longtasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d)), [from, to]);
  await page.getByLabel("load a preset scenario").selectOption("generated-10k");
  await page.waitForFunction(() => document.querySelector(".status.ok")?.textContent.includes("10000 jobs"), null, { timeout: 180_000 });
  // 2d 10:00, four tenths into the run: a queue in every share.
  await page.locator("input.scrubber").fill("208800");
  await page.waitForFunction(() => document.querySelector("[data-now]")?.getAttribute("data-now") === "208800");
  await page.locator(".waiting-job").first().click();
  await page.waitForTimeout(1000); // the autosave of the playhead's move, after its pause
  const drawer = page.locator(".drawer");
  const t0 = await now();
  await drawer.getByRole("button", { name: "When will it start?" }).click();
  const result = drawer.locator(".eta-summary");
  await result.waitFor({ timeout: 300_000 });
  const t1 = await now();
  const [p10, p50, p90] = band(await result.innerText());
  assert.ok(p10 <= p50 && p50 <= p90);
  const measure = await page.evaluate(() => performance.getEntriesByName("quotasim:forecast-to-render").at(-1)?.duration);
  const report = {
    job: await drawer.locator("#ex-title").innerText(),
    replicates: 200,
    computingMs: Number(await result.getAttribute("data-ms")),
    requestToRenderMs: Math.round(measure ?? t1 - t0),
    longestTaskMs: await longest(t0, t1),
    // Every long task from the click to the result: [ms after the click, duration].
    longTasks: await page.evaluate(([a, b]) => window.__longtasks.filter(([s]) => s >= a && s <= b).map(([s, d]) => [Math.round(s - a), Math.round(d)]), [t0, t1]),
    loadAverage: loadavg()[0],
  };
  console.log(`10,000-job forecast: ${JSON.stringify(report)}`);
  await writeFile(join(artifacts, "forecast-performance.json"), JSON.stringify(report, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
});
