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
