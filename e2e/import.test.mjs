// End-to-end test of importing configuration alone (Kueue YAML, AWS quota shares): after New,
// Replace is the default and the imported shares and service environment take the place of
// New's (its jobs, of shares that are gone, removed and named); Undo and History bring the
// previous scenario back; on a scenario with jobs of its own, Merge is the default. Screenshots
// of the dialog at 1440, 1280 and 390 px. Serves ../dist like playground.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { artifacts, here, start, watchConsole } from "./harness.mjs";

let base, browser, stop;

before(async () => {
  ({ base, browser, stop } = await start());
});

after(async () => {
  await stop?.();
});

async function open(viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ colorScheme: "dark", viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(base);
  await ready(page);
  return { context, page, errors };
}

const ready = (page) => page.waitForSelector(".status.ok", { timeout: 60_000 });
const dialog = (page) => page.locator(".modal");
const replaceRadio = (page) => page.getByRole("radio", { name: "Replace the shares and the environment" });
const mergeRadio = (page) => page.getByRole("radio", { name: "Merge" });

async function openDialog(page) {
  await page.getByRole("button", { name: "Import / Export" }).click();
  await dialog(page).waitFor();
}

/** The scenario in the editor, as the dialog shows its JSON (the dialog is open). */
async function shown(page) {
  await dialog(page).getByRole("button", { name: "Show scenario JSON below" }).click();
  return JSON.parse(await dialog(page).locator("textarea").inputValue());
}

const shareNames = (s) => s.quotaShares.map((q) => q.quotaShareName);

// The notebook preset's configuration, as its Kueue YAML (three shares of ml.g5.xlarge).
const notebook = JSON.parse(await readFile(join(here, "..", "www", "presets", "notebook.json"), "utf8"));

async function kueueOfNotebook(page) {
  const [d] = await Promise.all([page.waitForEvent("download"), dialog(page).getByRole("button", { name: "Kueue YAML" }).click()]);
  const yaml = await readFile(await d.path(), "utf8");
  assert.match(yaml, /kind: ClusterQueue/);
  return yaml;
}

test("after New, a Kueue configuration replaces the shares and the environment by default, says what it replaced, and Undo and History bring New back", async () => {
  const { context, page, errors } = await open();
  await openDialog(page);
  const yaml = await kueueOfNotebook(page);
  // On the preset as it ships, Replace is already the default.
  assert.ok(await replaceRadio(page).isChecked(), "Replace on a preset");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "New", exact: true }).click();
  await ready(page);
  await openDialog(page);
  const before = await shown(page);
  assert.deepEqual(shareNames(before), ["team-a", "team-b"]);
  assert.equal(before.jobs.length, 2);
  assert.ok(await replaceRadio(page).isChecked(), "Replace is the default after New");
  assert.ok(!(await mergeRadio(page).isChecked()));
  assert.match(await dialog(page).locator(".import-mode-hint").innerText(), /Replace is the default here: this scenario has no jobs of its own/);

  await dialog(page).locator("input[type=file]").setInputFiles({ name: "notebook-kueue.yaml", mimeType: "application/yaml", buffer: Buffer.from(yaml) });
  const msg = dialog(page).locator(".msg.ok");
  await msg.filter({ hasText: "Replaced" }).waitFor();
  const said = await msg.innerText();
  assert.match(said, /^Replaced 2 shares \(team-a, team-b\) with 3 shares \(qs1, qs2, qs3\) and the service environment \(8 ml\.p5\.48xlarge → 3 ml\.g5\.xlarge\)\./);
  assert.match(said, /Removed all 2 jobs, which could not run: 2 of shares that are gone \(team-a 1, team-b 1\)\./);
  assert.match(said, /The previous scenario is kept in History/);
  assert.match(await dialog(page).locator(".import-report").innerText(), /Recognised 3 ClusterQueues/);
  const after = await shown(page);
  assert.deepEqual(shareNames(after), shareNames(notebook), "only the imported shares: New's are gone");
  assert.deepEqual(after.serviceEnvironment.capacityLimits, notebook.serviceEnvironment.capacityLimits);
  assert.deepEqual(after.jobs, []);
  assert.deepEqual(after.instanceTypes.map((t) => t.name), ["ml.g5.xlarge"], "no type of the old environment is left");

  // The dialog at three widths, with the message of what was replaced.
  for (const width of [1440, 1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(200);
    await msg.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `import-replace-${width}.png`) });
    const fits = await page.evaluate(() => {
      const m = document.querySelector(".modal");
      return m.scrollWidth <= m.clientWidth + 1 && document.documentElement.scrollWidth <= innerWidth + 1;
    });
    assert.ok(fits, `nothing scrolls sideways at ${width} px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  // The same file again replaces nothing (no step to undo, nothing more in History), and says so.
  await dialog(page).locator("input[type=file]").setInputFiles({ name: "again.yaml", mimeType: "application/yaml", buffer: Buffer.from(yaml) });
  await msg.filter({ hasText: "Nothing to replace" }).waitFor();
  await page.keyboard.press("Escape");
  await ready(page);
  assert.match(await page.locator(".notice").innerText(), /Imported the shares and the service environment\. Your previous scenario “New scenario” \(2 jobs\) was replaced; it is kept in History/);

  // Undo: one step back to New, and Redo forward again.
  await page.getByRole("button", { name: "undo", exact: true }).click();
  await ready(page);
  await openDialog(page);
  assert.deepEqual(shareNames(await shown(page)), ["team-a", "team-b"], "Undo brings New back in one step");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "redo", exact: true }).click();
  await ready(page);
  await openDialog(page);
  assert.deepEqual(shareNames(await shown(page)), ["qs1", "qs2", "qs3"]);
  await page.keyboard.press("Escape");

  // History: New is its newest entry, and restoring it brings its shares and jobs back.
  await page.getByRole("button", { name: "History" }).click();
  const rows = page.locator(".history-list tbody tr");
  assert.match(await rows.first().innerText(), /New scenario\s+2/);
  await page.getByRole("button", { name: "restore New scenario" }).first().click();
  await ready(page);
  await openDialog(page);
  const restored = await shown(page);
  assert.deepEqual(shareNames(restored), ["team-a", "team-b"]);
  assert.deepEqual(restored.jobs.map((j) => j.jobName), before.jobs.map((j) => j.jobName));
  assert.deepEqual(restored.serviceEnvironment, before.serviceEnvironment);
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a scenario with jobs of its own, Merge is the default and keeps every share; the choice can be changed", async () => {
  const { context, page, errors } = await open();
  await openDialog(page);
  // The notebook's scenario imported from a file: its jobs are the user's now.
  await dialog(page).locator("textarea").fill(JSON.stringify({ ...notebook, name: "my jobs" }));
  await dialog(page).getByRole("button", { name: "Load pasted text" }).click();
  await dialog(page).locator(".msg.ok").waitFor();
  assert.ok(await mergeRadio(page).isChecked(), "Merge is the default with jobs of one's own");
  assert.ok(!(await replaceRadio(page).isChecked()));
  assert.match(await dialog(page).locator(".import-mode-hint").innerText(), /Merge is the default here: this scenario has jobs of its own/);
  await page.keyboard.press("Escape");
  await ready(page);

  await openDialog(page);
  assert.ok(await mergeRadio(page).isChecked(), "still Merge when the dialog opens again");
  const share = { quotaShareName: "team-new", jobQueue: "q", capacityLimits: [{ capacityUnit: "ml.g5.xlarge", maxCapacity: 1 }],
    resourceSharingConfiguration: { strategy: "LEND" }, preemptionConfiguration: { inSharePreemption: "DISABLED" }, state: "ENABLED" };
  await dialog(page).locator("textarea").fill(JSON.stringify(share));
  await dialog(page).getByRole("button", { name: "Load pasted text" }).click();
  await dialog(page).locator(".msg.ok").filter({ hasText: "Merged" }).waitFor();
  assert.match(await dialog(page).locator(".msg.ok").innerText(), /quota share team-new added/);
  const merged = await shown(page);
  assert.deepEqual(shareNames(merged), ["qs1", "qs2", "qs3", "team-new"]);
  assert.equal(merged.jobs.length, notebook.jobs.length, "every job stays");

  // Chosen explicitly, Replace applies to a scenario with jobs too, and names what it removed.
  await replaceRadio(page).check();
  assert.match(await dialog(page).locator(".import-mode-hint").innerText(), /take the place of the current ones/);
  await dialog(page).locator("textarea").fill(JSON.stringify(share));
  await dialog(page).getByRole("button", { name: "Load pasted text" }).click();
  const msg = dialog(page).locator(".msg.ok").filter({ hasText: "Replaced" });
  await msg.waitFor();
  const said = await msg.innerText();
  assert.match(said, /^Replaced 4 shares \(qs1, qs2, qs3, team-new\) with 1 share \(team-new\); the service environment is unchanged \(the import has none\)\./);
  assert.match(said, /Removed all 4 jobs, which could not run: 4 of shares that are gone \(qs1 3, qs2 1\)\./);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "History" }).click();
  assert.match(await page.locator(".history-list tbody tr").first().innerText(), /my jobs\s+4/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the bridges are a second module: the first load does not fetch them, opening Import / Export does, once", async () => {
  const context = await browser.newContext({ colorScheme: "dark", viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = watchConsole(page);
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  const bridges = () => fetched.filter((p) => p.startsWith("/bridges/"));
  await page.goto(base);
  await ready(page);
  // The page's own module and nothing of the importers, the YAML reader or the exports.
  assert.ok(fetched.some((p) => /\.wasm$/.test(p) && !p.startsWith("/bridges/")), fetched.join(" "));
  assert.deepEqual(bridges(), [], "the first load fetches no bridge");
  await openDialog(page);
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => /\/bridges\/bridges_bg\.wasm$/.test(e.name)));
  // The playground's own JSON is read without them; a Kueue export and an import use them.
  const yaml = await kueueOfNotebook(page);
  await dialog(page).locator("textarea").fill(yaml);
  await dialog(page).getByRole("button", { name: "Load pasted text" }).click();
  await dialog(page).locator(".msg.ok").waitFor();
  // The notebook's own configuration, read by the module's Kueue importer: nothing to replace.
  assert.match(await dialog(page).locator(".msg.ok").innerText(), /^Nothing to replace: the scenario already has exactly these shares/);
  await page.keyboard.press("Escape");
  await openDialog(page);
  assert.deepEqual(bridges().sort(), ["/bridges/bridges.js", "/bridges/bridges_bg.wasm"], "fetched once, when first needed");
  assert.deepEqual(errors, [], "no console errors");
  await context.close();
});
