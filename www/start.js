// Starts the playground: imports the wasm-bindgen module Trunk built and instantiates the
// WebAssembly, whose start function mounts the app. A file of its own, not an inline script,
// so the Content-Security-Policy in index.html can allow scripts from the page's origin only.
// Trunk writes the two hashed file names into <meta name="quotasim-app"> (pattern_script in
// Trunk.toml).
const app = document.querySelector('meta[name="quotasim-app"]');
const { default: init } = await import(app.dataset.js);
await init({ module_or_path: app.dataset.wasm });
