// Rewrites the end of wasm-pack's declarations, where `init()` and `initSync()` are typed with
// DOM types (RequestInfo, Response, WebAssembly.*): a Node or TypeScript project without the
// DOM library could not type-check them. The same functions, typed without any global, then a
// copy as quotasim.d.cts for CommonJS consumers.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const out = process.argv[2];
const file = path.join(out, "quotasim.d.ts");
const text = fs.readFileSync(file, "utf8");
const cut = text.indexOf("export type InitInput");
if (cut < 0) throw new Error("types.cjs: no `export type InitInput` in quotasim.d.ts");
const portable = `/**
 * What \`init()\` accepts: the URL of \`quotasim_bg.wasm\` (a string, a URL, a request or a
 * response), its bytes, or a compiled \`WebAssembly.Module\`. Typed loosely so that the
 * declarations need no DOM library.
 */
export type InitInput = string | { readonly href: string } | ArrayBuffer | ArrayBufferView | object;
/** What \`initSync()\` accepts: the bytes of \`quotasim_bg.wasm\`, or a compiled module. */
export type SyncInitInput = ArrayBuffer | ArrayBufferView | object;

/**
 * Instantiates the WebAssembly synchronously from its bytes or module. Node's entries do this
 * on import; a browser may use it with bytes it fetched itself.
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): object;

/**
 * In a browser or a bundle: fetches \`quotasim_bg.wasm\` (next to the module, unless given)
 * and instantiates it. Await it once before any other call. In Node it resolves at once.
 */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<object>;
`;
const result = text.slice(0, cut) + portable;
fs.writeFileSync(file, result);
fs.writeFileSync(path.join(out, "quotasim.d.cts"), result);
