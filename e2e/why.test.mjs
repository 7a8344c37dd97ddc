// End-to-end test of "What would have avoided this?" in the built playground: the notebook
// preset's reclaimed job, its verified changes, "Try it" opening compare mode with the change as
// B; no long task over 100 ms while the study runs; and the longest task of a study at 10,000
// jobs (measured over its first runs, then cancelled). Serves ../dist like playground.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, start, openPage } from "./harness.mjs";

let base, browser, stop;

before(async () => {
  ({ base, browser, stop } = await start());
});

after(async () => {
  await stop?.();
});

const open = (viewport) => openPage(browser, base, viewport);

test("why: the notebook's reclaimed job gets verified changes with their side effects, and Try it opens compare mode with the change as B (no task over 100 ms)", async () => {
  const { context, page, errors, now, longest } = await open({ width: 1440, height: 900 });
  assert.match(await page.locator(".preset-info h2").innerText(), /notebook/i);
  await page.getByRole("button", { name: "jump to end" }).click();
  // The first preemption: qs1_job_med, reclaimed by qs2_job (R18).
  await page.locator('.timeline path.marker[data-pre="0"]').click();
  const drawer = page.locator(".drawer");
  await drawer.waitFor();
  assert.match(await drawer.innerText(), /qs1_job_med was preempted/);
  const section = drawer.locator("section.why");
  const t0 = await now();
  await section.getByRole("button", { name: "What would have avoided this?" }).click();
  const summary = section.locator(".why-summary");
  await summary.waitFor({ timeout: 120_000 });
  const t1 = await now();
  assert.match(await summary.innerText(), /\d+ changes? reach(es)? the target, each verified by a full re-run \(\d+ runs of at most 50\)\. Target: preempted fewer than/);
  const items = section.locator("li.why-change");
  assert.ok((await items.count()) >= 1, "at least one change");
  const first = await items.first().innerText();
  assert.match(first, /qs1_job_med: /, "the job's own change");
  assert.match(first, /Harms (no other job|\d+ other jobs?)/, "the jobs it harms");
  assert.match(first, /wait p95 .* → .*, lost GPU-hours [\d.]+ → [\d.]+/, "the shares before -> after");
  assert.match(await section.locator(".why-missed summary").innerText(), /Not found or not tried \(\d+\)/);
  const ms = Number(await summary.getAttribute("data-ms"));
  const worst = await longest(t0, t1);
  console.log(`why of qs1_job_med (notebook): ${ms} ms of computing, longest task ${worst} ms`);
  assert.ok(worst <= 100, `no task over 100 ms while the study runs: ${worst} ms`);
  await page.screenshot({ path: join(artifacts, "why-1440.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, "why-1280.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "why-390.png") });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "nothing scrolls sideways at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Try it: compare mode, A the scenario as it was, B with the change.
  const set = (await items.first().locator("code.change-text").innerText()).trim();
  await items.first().getByRole("button", { name: /^Try it/ }).click();
  const compare = page.locator("section.compare");
  await compare.waitFor();
  const bChanges = compare.locator('ul[aria-label="B\'s changes from A"]');
  await bChanges.waitFor();
  const path = set.split("=")[0];
  const changeTexts = await bChanges.locator(".change-text").allInnerTexts();
  assert.equal(changeTexts.length, 1, `one change as B: ${changeTexts}`);
  assert.ok(changeTexts[0].length > 0, `B's change is listed: ${changeTexts[0]} for ${path}`);
  assert.equal(await page.locator(".top-actions").getByRole("button", { name: "Leave compare" }).count(), 1, "compare mode is on");
  await page.waitForFunction(() => { const r = document.querySelector("section.compare")?.getBoundingClientRect(); return r && r.top < innerHeight && r.bottom > 0; }, null, { timeout: 5_000 });
  await page.screenshot({ path: join(artifacts, "why-try-it.png") });
  assert.deepEqual(errors, [], "no console errors");
  await context.close();
});

test("why: a new selection cancels the study in progress", async () => {
  const { context, page, errors } = await open({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "jump to end" }).click();
  await page.locator('.timeline path.marker[data-pre="1"]').click();
  const drawer = page.locator(".drawer");
  await drawer.waitFor();
  await drawer.locator("section.why").getByRole("button", { name: "What would have avoided this?" }).click();
  await page.locator('.timeline path.marker[data-pre="0"]').focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector(".drawer")?.innerText.includes("qs1_job_med was preempted"));
  await page.waitForTimeout(500);
  assert.equal(await drawer.locator(".why-progress, .why-summary").count(), 0, "the other job's study is gone");
  assert.equal(await drawer.locator("section.why .why-ask").count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test("why at 10,000 jobs: the longest task over the study's first runs (measured and reported, then cancelled)", async () => {
  const { context, page, errors, now, longest } = await open({ width: 1440, height: 900 });
  await page.getByLabel("load a preset scenario").selectOption("generated-10k");
  await page.waitForFunction(() => document.querySelector(".status.ok")?.textContent.includes("10000 jobs"), null, { timeout: 180_000 });
  await page.locator("input.scrubber").fill("208800");
  await page.waitForFunction(() => document.querySelector("[data-now]")?.getAttribute("data-now") === "208800");
  await page.locator(".waiting-job").first().click();
  await page.waitForTimeout(1000);
  const drawer = page.locator(".drawer");
  const t0 = await now();
  await drawer.locator("section.why").getByRole("button", { name: "What would have avoided this?" }).click();
  // The baseline, then eight changed runs (each prepared, run in slices and compared).
  await page.waitForFunction(() => Number((document.querySelector(".why-progress")?.textContent ?? "").match(/Run (\d+) of at most/)?.[1] ?? 0) >= 10 || document.querySelector(".why-summary, .why-error"), null, { timeout: 600_000 });
  const t1 = await now();
  const progress = await drawer.locator("section.why").innerText();
  const worst = await longest(t0, t1);
  const tasks = await page.evaluate(([a, b]) => window.__longtasks.filter(([s]) => s >= a && s <= b).map(([s, d]) => [Math.round(s - a), Math.round(d)]), [t0, t1]);
  console.log(`why at 10,000 jobs: ${Math.round(t1 - t0)} ms to "${progress.split("\n").find((l) => /Run|change|No answer/.test(l))}", longest task ${worst} ms, long tasks ${JSON.stringify(tasks)}`);
  const cancel = drawer.locator(".why-progress").getByRole("button", { name: "Cancel" });
  // The progress line redraws at every run, so the button is never "stable" for a pointer
  // click: the click event is dispatched to it.
  if (await cancel.count()) await cancel.dispatchEvent("click");
  // Measured and reported, not asserted: a wall-clock figure depends on the machine's load.
  assert.match(progress, /Run \d+ of at most 50|change|No answer/);
  assert.deepEqual(errors, []);
  await context.close();
});
