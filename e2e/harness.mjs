// What every end-to-end test file shares: the built site (../dist) served on 127.0.0.1, and the
// system's headless Chromium (never a downloaded browser); screenshots go to ../artifacts.
import { createServer } from "node:http";
import { readFile, mkdir, stat } from "node:fs/promises";
import { extname, join, normalize, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const here = dirname(fileURLToPath(import.meta.url));
export const dist = join(here, "..", "dist");
export const artifacts = join(here, "..", "artifacts");
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };

/** Serves the site and launches Chromium: `{ base, browser, stop }`. */
export async function start() {
  await stat(join(dist, "index.html")).catch(() => {
    throw new Error("dist/index.html is missing: run `trunk build --release` first");
  });
  await mkdir(artifacts, { recursive: true });
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(dist, path === "/" ? "index.html" : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const stop = async () => {
    await browser.close();
    await new Promise((r) => server.close(r));
  };
  return { base, browser, stop };
}

/** Console errors and uncaught exceptions of `page`, collected as they come. */
export function watchConsole(page) {
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  return errors;
}

/**
 * A new context and page on `base`, its first run shown, long tasks recorded from then on:
 * `{ context, page, errors, now, longest(from, to) }` (`now()` is the page's clock; `longest`
 * the longest task that started between two of its readings).
 */
export async function openPage(browser, base, viewport, { colorScheme = "dark", ...options } = {}) {
  const context = await browser.newContext({ colorScheme, viewport, ...options });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(base);
  await page.waitForSelector(".status.ok", { timeout: 60_000 });
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: "longtask" });
  });
  const now = () => page.evaluate(() => performance.now());
  const longest = (from, to) => page.evaluate(([a, b]) => Math.max(0, ...window.__longtasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d)), [from, to]);
  return { context, page, errors, now, longest };
}
