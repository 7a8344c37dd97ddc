// Starts the playground: imports the wasm-bindgen module Trunk built and instantiates the
// WebAssembly, whose start function mounts the app. A file of its own, not an inline script,
// so the Content-Security-Policy in index.html can allow scripts from the page's origin only.
// Trunk writes the two hashed file names into <meta name="quotasim-app"> (pattern_script in
// Trunk.toml).
const app = document.querySelector('meta[name="quotasim-app"]');

// The bridges module (importers, YAML, deploy exports; www/bridges), loaded once, the first
// time the page asks for it (src/ui/bridges.rs): a promise of its exports, initialised.
let bridges;
globalThis.quotasimBridges = () =>
  (bridges ??= import(new URL("bridges/bridges.js", import.meta.url).href).then(async (m) => {
    await m.default({ module_or_path: new URL("bridges/bridges_bg.wasm", import.meta.url).href });
    return m;
  }).catch((e) => {
    bridges = undefined; // a later request tries again (the network may be back)
    throw e;
  }));

const { default: init } = await import(app.dataset.js);
await init({ module_or_path: app.dataset.wasm });
