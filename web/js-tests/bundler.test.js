// The bundler build (web/pkg, `wasm-pack build --target bundler`) imports its .wasm as an ES
// module, as bundlers do; Node does the same with --experimental-wasm-modules. This checks
// that the package loads that way and gives the same result bytes as the Node build.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const bundlerPkg = process.env.QUOTASIM_BUNDLER_PKG || path.resolve(__dirname, '..', 'pkg');
const nodePkg = process.env.QUOTASIM_PKG || path.resolve(__dirname, '..', 'pkg-node');
const fixture = path.join(root, 'tests', 'fixtures', 'notebook.json');

test('the bundler build loads as an ES module and gives the same bytes', { skip: !fs.existsSync(bundlerPkg) && 'web/pkg not built' }, () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(bundlerPkg, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'quotasim');
  assert.equal(pkg.type, 'module');
  const entry = path.join(bundlerPkg, pkg.module || pkg.main);
  const script = `
    import { Simulation } from ${JSON.stringify(entry)};
    import fs from "node:fs";
    const sim = new Simulation(fs.readFileSync(${JSON.stringify(fixture)}, "utf8"));
    sim.run();
    process.stdout.write(sim.resultJson());
    sim.free();
  `;
  const r = spawnSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', '--input-type=module', '-e', script], {
    maxBuffer: 1 << 26,
  });
  assert.equal(r.status, 0, String(r.stderr));
  const { Simulation } = require(nodePkg);
  const sim = new Simulation(fs.readFileSync(fixture, 'utf8'));
  try {
    sim.run();
    assert.equal(r.stdout.toString('utf8'), sim.resultJson());
  } finally {
    sim.free();
  }
});
