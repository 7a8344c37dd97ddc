// Consumer tests of the built npm package, loaded the way a user loads it: `require` of the
// package directory built by `web/build.sh` (web/pkg)
// (QUOTASIM_PKG overrides it). The equality tests compare with the native command line
// (QUOTASIM_BIN, default target/release/quotasim, else target/debug/quotasim).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const pkgDir = process.env.QUOTASIM_PKG || path.resolve(__dirname, '..', 'pkg');
const quotasim = require(pkgDir);
const { Simulation, validate, generate, generateJson, BenchWorkload, memoryBytes } = quotasim;

const fixture = path.join(root, 'tests', 'fixtures', 'notebook.json');
// Every file these tests write goes into one scratch directory, removed when they end.
const scratch = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'quotasim-js-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
const notebookText = fs.readFileSync(fixture, 'utf8');
const notebook = () => JSON.parse(notebookText);

const CROSS_SHARE = 'Cross-share preemption triggered to reclaim borrowed capacity';
const IN_SHARE = 'In-share preemption triggered by higher priority job';

function cliPath() {
  if (process.env.QUOTASIM_BIN) return process.env.QUOTASIM_BIN;
  for (const profile of ['release', 'debug']) {
    const p = path.join(root, 'target', profile, 'quotasim');
    if (fs.existsSync(p)) return p;
  }
  throw new Error('quotasim CLI not found: build it (cargo build --release -p quotasim-cli) or set QUOTASIM_BIN');
}

/** Runs the CLI; returns its standard output as a Buffer without the final newline. */
function cli(args, input) {
  const r = spawnSync(cliPath(), args, { input, maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, `quotasim ${args.join(' ')} failed: ${r.stderr}`);
  assert.equal(r.stdout[r.stdout.length - 1], 0x0a, 'output ends with a newline');
  return r.stdout.subarray(0, r.stdout.length - 1);
}

/** Runs fn with a simulation of the scenario and frees it, as a user should. */
function withSim(scenario, fn) {
  const sim = new Simulation(scenario);
  try {
    return fn(sim);
  } finally {
    sim.free();
  }
}

const jobNamed = (sim, name) => sim.jobs().find((j) => j.jobName === name);

test('the package is named quotasim and ships its types and README', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'quotasim');
  assert.ok(fs.existsSync(path.join(pkgDir, 'README.md')));
  const dts = fs.readFileSync(path.join(pkgDir, pkg.types), 'utf8');
  for (const decl of ['export interface Scenario {', 'export interface SimResult {', 'export class Simulation']) {
    assert.ok(dts.includes(decl), decl);
  }
  assert.ok(dts.includes('constructor(scenario: Scenario | string);'));
  assert.ok(dts.includes('result(): SimResult;'));
  assert.ok(dts.includes('export function validate(scenario: Scenario | string): Problem[];'));
  assert.ok(!dts.includes('bigint'));
});

test('worked example, step 1: own quota, borrowed, waiting at t=0', () => {
  withSim(notebook(), (sim) => {
    sim.runUntil(0);
    assert.equal(sim.now(), 0);
    const high = jobNamed(sim, 'qs1_job_high');
    assert.equal(high.schedulingPriority, 3);
    assert.equal(high.status, 'RUNNING');
    assert.deepEqual(high.attempts.map((a) => [a.startedAt, a.borrowedInstances]), [[0, 0]]);
    const med = jobNamed(sim, 'qs1_job_med');
    assert.equal(med.schedulingPriority, 2);
    assert.equal(med.status, 'RUNNING');
    assert.equal(med.attempts[0].borrowedInstances, 1);
    const low = jobNamed(sim, 'qs1_job_low');
    assert.equal(low.status, 'RUNNABLE');
    assert.equal(low.firstStartedAt, null);
    assert.deepEqual(low.attempts, []);
  });
});

test('worked example, step 2: qs2 reclaims its lent instance after the 120 s grace', () => {
  withSim(notebookText, (sim) => {
    sim.runUntil(1020);
    const started = sim.events().filter((e) => e.type === 'PREEMPTION_STARTED');
    assert.equal(started.length, 1);
    assert.equal(started[0].at, 900);
    assert.equal(started[0].jobName, 'qs1_job_med');
    assert.equal(started[0].reason, CROSS_SHARE);
    assert.equal(started[0].preemptedBy, 'qs2_job');
    const med = jobNamed(sim, 'qs1_job_med');
    assert.equal(med.attempts[0].stoppedAt, 1020);
    assert.equal(med.attempts[0].statusReason, CROSS_SHARE);
    const qs2 = jobNamed(sim, 'qs2_job');
    assert.equal(qs2.submitAt, 900);
    assert.equal(qs2.firstStartedAt, 1020);
    assert.equal(qs2.status, 'RUNNING');
  });
});

test('worked example, step 3: the raised job preempts the priority-3 job in its share', () => {
  withSim(notebook(), (sim) => {
    sim.runUntil(1920);
    const inShare = sim.events().filter((e) => e.type === 'PREEMPTION_STARTED' && e.reason === IN_SHARE);
    assert.equal(inShare.length, 1);
    assert.equal(inShare[0].at, 1800);
    assert.equal(inShare[0].jobName, 'qs1_job_high');
    assert.equal(inShare[0].preemptedBy, 'qs1_job_low');
    const high = jobNamed(sim, 'qs1_job_high');
    assert.equal(high.attempts[0].stoppedAt, 1920);
    assert.equal(high.attempts[0].statusReason, IN_SHARE);
    const low = jobNamed(sim, 'qs1_job_low');
    assert.equal(low.schedulingPriority, 4);
    assert.equal(low.firstStartedAt, 1920);
    const med = jobNamed(sim, 'qs1_job_med');
    assert.equal(med.status, 'RUNNABLE');
    assert.equal(med.attempts.length, 1);
  });
});

test('result() is resultJson() as plain objects: nulls, numbers, no Map', () => {
  withSim(notebook(), (sim) => {
    sim.run();
    const result = sim.result();
    assert.deepEqual(result, JSON.parse(sim.resultJson()));
    assert.equal(typeof result.endedAt, 'number');
    assert.equal(Object.getPrototypeOf(result.summary.perQuotaShare), Object.prototype);
    assert.deepEqual(Object.keys(result.summary.perQuotaShare), ['qs1', 'qs2', 'qs3']);
    assert.equal(sim.now(), result.endedAt);
    assert.deepEqual(sim.summary(), result.summary);
    assert.deepEqual(sim.summaryResult(), {
      formatVersion: result.formatVersion,
      endedAt: result.endedAt,
      summary: result.summary,
    });
  });
});

test('an invalid scenario throws an Error listing every problem, also as err.problems', () => {
  const s = notebook();
  s.jobs[0].durationSeconds = -5;
  s.jobs[2].quotaShareName = 'no-such-share';
  s.quotaShares[1].resourceSharingConfiguration.borrowLimit = 50;
  let err;
  assert.throws(() => new Simulation(s), (e) => ((err = e), e instanceof Error));
  assert.ok(Array.isArray(err.problems) && err.problems.length >= 3, err.message);
  for (const p of err.problems) {
    assert.deepEqual(Object.keys(p), ['path', 'severity', 'message']);
    assert.ok(err.message.includes(p.path), `${p.path} missing from ${err.message}`);
  }
  for (const field of ['jobs[0].durationSeconds', 'jobs[2].quotaShareName', 'quotaShares[1].resourceSharingConfiguration.borrowLimit']) {
    assert.ok(err.problems.some((p) => p.path === field && p.severity === 'error'), `${field}: ${err.message}`);
  }
  assert.deepEqual(validate(s), err.problems);
  assert.deepEqual(validate(notebook()), []);
});

test('bad input is an Error, never a crash; the module keeps working', () => {
  for (const bad of [undefined, null, 42, '', '{', '[]', [], { serviceEnvironment: 3 }, { jobs: 1n }]) {
    assert.throws(() => new Simulation(bad), (e) => e instanceof Error && e.problems.length > 0);
    assert.ok(validate(bad).some((p) => p.severity === 'error'));
  }
  const typo = notebook();
  typo.quotaShares[0].quotaShareNmae = 'x';
  const problems = validate(typo);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'quotaShares[0].quotaShareNmae');
  withSim(notebook(), (sim) => {
    for (const t of [-1, 0.5, NaN, Infinity]) {
      assert.throws(() => sim.runUntil(t), RangeError);
    }
    sim.run();
    assert.ok(sim.isDone());
  });
  assert.throws(() => generate({ shares: 99 }), (e) => e.problems[0].path === 'shares');
});

test('a freed simulation throws instead of touching freed memory', () => {
  const sim = new Simulation(notebook());
  sim.free();
  assert.throws(() => sim.now(), Error);
});

test('fork() explores a what-if without changing the original', () => {
  withSim(notebook(), (sim) => {
    sim.runUntil(900);
    const fork = sim.fork();
    try {
      fork.run();
      assert.equal(sim.now(), 900);
      sim.run();
      assert.equal(fork.resultJson(), sim.resultJson());
    } finally {
      fork.free();
    }
  });
});

test('the worked example gives the same bytes as quotasim run', () => {
  const expected = cli(['run', fixture]);
  withSim(notebook(), (sim) => {
    sim.run();
    assert.ok(Buffer.from(sim.resultJson()).equals(expected));
  });
});

test('the wait breakdown is the same in the package as in quotasim run, and check reads its paths', () => {
  const expected = JSON.parse(cli(['run', fixture]).toString('utf8'));
  withSim(notebook(), (sim) => {
    sim.run();
    const byCause = (jobs) => jobs.map((j) => [j.jobName, JSON.stringify(j.runnableSecondsByCause)]);
    assert.deepEqual(byCause(sim.jobs()), byCause(expected.jobs));
    // Back at 1020 behind the requeued qs1_job_med, raised at 1800 and waiting for its victim.
    assert.deepEqual(jobNamed(sim, 'qs1_job_low').runnableSecondsByCause, { pool: 1020, preemptionInProgress: 120, behind: 780 });
    const summary = sim.summary();
    for (const [name, m] of Object.entries(expected.summary.perQuotaShare)) {
      // Every cause, in the same order.
      assert.equal(JSON.stringify(summary.perQuotaShare[name].runnableSecondsByCause), JSON.stringify(m.runnableSecondsByCause), name);
    }
    assert.equal(JSON.stringify(summary.overall.runnableSecondsByCause), JSON.stringify(expected.summary.overall.runnableSecondsByCause));
  });
  const objectives = { formatVersion: 1, objectives: [
    { metric: 'perQuotaShare.qs1.runnableSecondsByCause.pool', max: 3600 },
    { metric: 'perQuotaShare.*.runnableSecondsByCause.behind', max: 100000 },
  ] };
  const oFile = path.join(scratch, 'wb.json');
  fs.writeFileSync(oFile, JSON.stringify(objectives));
  const r = spawnSync(cliPath(), ['check', fixture, '--objectives', oFile, '--format', 'json']);
  assert.equal(quotasim.checkJson(notebook(), objectives), r.stdout.toString('utf8').replace(/\n$/, ''));
  const report = quotasim.check(notebook(), objectives);
  assert.equal(report.verdicts[0].value, expected.summary.perQuotaShare.qs1.runnableSecondsByCause.pool);
});

for (const jobs of [1000, 100000]) {
  test(`a generated scenario of ${jobs} jobs gives the same bytes as quotasim run`, () => {
    const args = ['generate', '--jobs', String(jobs), '--shares', '20', '--instance-types', '5', '--seed', '7'];
    const scenario = cli(args);
    const options = { jobs, shares: 20, instanceTypes: 5, seed: 7 };
    assert.ok(Buffer.from(generateJson(options)).equals(scenario), 'generateJson matches quotasim generate');
    const expected = cli(['run', '-'], scenario);
    withSim(scenario.toString('utf8'), (sim) => {
      sim.run();
      assert.ok(Buffer.from(sim.resultJson()).equals(expected), 'resultJson matches quotasim run');
    });
    if (jobs === 1000) {
      // The object form too: generate() output runs to the same bytes.
      withSim(generate(options), (sim) => {
        sim.run();
        assert.ok(Buffer.from(sim.resultJson()).equals(expected));
      });
    }
  });
}

test('BenchWorkload runs the quotasim bench workload: the same events as quotasim run', () => {
  const workload = new BenchWorkload(2000);
  try {
    const recorded = workload.run(true);
    const counted = workload.run(false);
    assert.deepEqual(recorded, counted, 'recording the event list changes nothing that happens');
    const args = ['generate', '--jobs', '2000', '--shares', '20', '--instance-types', '5', '--seed', '42'];
    const result = JSON.parse(cli(['run', '-'], cli(args)).toString('utf8'));
    assert.equal(recorded.events, result.events.length);
    assert.equal(recorded.endedAt, result.endedAt);
    const victims = new Set(result.events.filter((e) => e.type === 'PREEMPTION_STARTED').map((e) => e.jobName));
    assert.equal(recorded.preemptedJobs, victims.size);
    assert.ok(victims.size > 0, 'the workload preempts');
  } finally {
    workload.free();
  }
  assert.ok(memoryBytes() >= 2 ** 20 && memoryBytes() % 65536 === 0, 'linear memory is whole 64 KiB pages');
  assert.throws(() => new BenchWorkload(-1), /jobs must be a whole number/);
  assert.throws(() => new BenchWorkload(30000000), (e) => e.problems[0].path === 'jobs');
});

const IN_SHARE_OFF = 'quotaShares[qs1].preemptionConfiguration.inSharePreemption=DISABLED';

test('compareJson gives the bytes of quotasim compare, for changes and for a second scenario', () => {
  assert.equal(quotasim.compareJson(notebookText, null, [IN_SHARE_OFF]), cli(['compare', fixture, '--set', IN_SHARE_OFF]).toString('utf8'));
  const b = quotasim.applyChanges(notebook(), [IN_SHARE_OFF]);
  const bFile = path.join(scratch, 'b.json');
  fs.writeFileSync(bFile, JSON.stringify(b));
  assert.equal(quotasim.compareJson(notebook(), b), cli(['compare', fixture, bFile]).toString('utf8'));
  const c = quotasim.compare(notebook(), null, [IN_SHARE_OFF]);
  const high = c.changedJobs.find((j) => j.jobName === 'qs1_job_high');
  assert.equal(high.description, 'no longer preempted');
  assert.equal(c.delta.perQuotaShare.qs1['preemptions.inShare'], -1);
  assert.deepEqual(quotasim.compare(notebook(), notebook()).changedJobs, []);
});

test('check gives the bytes of quotasim check --format json, and met is false on a violation', () => {
  const objectives = { formatVersion: 1, objectives: [
    { metric: 'perQuotaShare.*.preemptions.total', max: 1 },
    { metric: 'overall.utilization', min: 0.5 },
  ] };
  const oFile = path.join(scratch, 'o.json');
  fs.writeFileSync(oFile, JSON.stringify(objectives));
  const r = spawnSync(cliPath(), ['check', fixture, '--objectives', oFile, '--baseline', fixture, '--format', 'json']);
  assert.equal(r.status, 3, 'a violated objective: exit 3');
  assert.equal(quotasim.checkJson(notebook(), objectives, notebook()), r.stdout.toString('utf8').replace(/\n$/, ''));
  const report = quotasim.check(notebook(), objectives);
  assert.equal(report.met, false);
  assert.equal(report.verdicts[0].metric, 'perQuotaShare.qs1.preemptions.total');
  assert.throws(() => quotasim.check(notebook(), { objectives: [{ metric: 'overall.utilisation', min: 1 }] }),
    (e) => e.problems[0].path === 'objectives[0].metric' && e.message.includes('overall.utilization'));
});

const isAbort = (e) => e.name === 'AbortError' && e instanceof DOMException;

const sweepFile = () => ({ formatVersion: 1, base: notebook(),
  axes: [{ path: 'quotaShares[qs1].resourceSharingConfiguration.borrowLimit', values: [0, 100] },
    { path: 'settings.preemptionGraceSeconds', range: { from: 60, to: 120, step: 60 } }],
  frontier: ['overall.utilization:max', 'perQuotaShare.qs1.waitSeconds.p95:min'] });

/** A sweep of `rows` rows over a generated scenario: long enough to need several slices. */
const longSweep = (rows) => ({ formatVersion: 1, base: generate({ jobs: 400, shares: 3, seed: 3 }),
  axes: [{ path: 'settings.preemptionGraceSeconds', range: { from: 1, to: rows, step: 1 } }] });

/** The JSON lines `quotasim sweep` prints for the sweep file (one thread, in index order). */
function cliSweep(file) {
  const sFile = path.join(scratch, 'sweep.json');
  fs.writeFileSync(sFile, JSON.stringify(file));
  return cli(['sweep', sFile, '--threads', '1']).toString('utf8');
}

test('sweepJsonl gives the bytes of quotasim sweep, with the front; a file path as base is refused', async () => {
  const file = sweepFile();
  assert.equal(quotasim.sweepJsonl(file), cliSweep(file));
  const rows = await quotasim.sweep(JSON.stringify(file));
  assert.deepEqual(rows.map((r) => r.row), [0, 1, 2, 3]);
  assert.deepEqual(rows[1].values, [0, 120]);
  assert.ok(rows.some((r) => r.frontier === true));
  assert.equal(typeof rows[0].objectives['overall.utilization:max'], 'number');
  const named = (path) => (e) => e instanceof Error && e.problems[0].path.startsWith(path) && e.message.includes(path);
  await assert.rejects(quotasim.sweep({ ...file, base: 'scenario.json' }), named('base'));
  assert.throws(() => quotasim.sweepJsonl({ ...file, base: 'scenario.json' }), named('base'));
  await assert.rejects(quotasim.sweep({ ...file, axes: [{ path: 'quotaShares[nope].state', values: ['DISABLED'] }] }), named('axes[0]'));
  // A base that is not valid until its axes change it: the goals are checked on the first row
  // that runs, as the command line checks them (it exits 1 naming the goal).
  const fixed = { formatVersion: 1, base: notebook(), frontier: ['overall.utilization:max'],
    axes: [{ path: 'quotaShares[qs2].resourceSharingConfiguration.strategy', values: ['LEND_AND_BORROW'] }] };
  fixed.base.quotaShares[1].resourceSharingConfiguration.borrowLimit = 50;
  assert.ok(validate(fixed.base).some((p) => p.severity === 'error'));
  assert.equal(quotasim.sweepJsonl(fixed), cliSweep(fixed));
  const typo = { ...fixed, frontier: ['overall.utilisation:max'] };
  const sFile = path.join(scratch, 'sweep-typo.json');
  fs.writeFileSync(sFile, JSON.stringify(typo));
  const r = spawnSync(cliPath(), ['sweep', sFile]);
  assert.equal(r.status, 1);
  assert.match(r.stderr.toString('utf8'), /^error: frontier\[0\]: no metric `overall.utilisation`/);
  assert.throws(() => quotasim.sweepJsonl(typo), named('frontier[0]'));
  await assert.rejects(quotasim.sweep(typo, { onRow: () => assert.fail('no row is given for a sweep the CLI refuses') }), named('frontier[0]'));
});

test('a replicated sweep gives the bytes of quotasim sweep --replicates: seeds, medians, the front over points', async () => {
  const base = generate({ jobs: 300, shares: 3, seed: 5 });
  // The generator lists its jobs; a workload section to draw seeds from replaces them.
  base.workload = { seed: 4, jobs: 120, loadPercent: 90, shares: base.quotaShares.map((q) => ({
    quotaShareName: q.quotaShareName, instanceTypes: [{ name: q.capacityLimits[0].capacityUnit }],
    duration: { distribution: 'uniform', minSeconds: 600, maxSeconds: 7200 } })) };
  base.jobs = [];
  const share = base.quotaShares[0].quotaShareName;
  const file = { formatVersion: 1, base,
    axes: [{ path: 'settings.preemptionGraceSeconds', values: [60, 600] }],
    frontier: [`perQuotaShare.${share}.waitSeconds.p95:min`, 'overall.utilization:max'] };
  const sFile = path.join(scratch, 'rsweep.json');
  fs.writeFileSync(sFile, JSON.stringify(file));
  const cliRows = cli(['sweep', sFile, '--threads', '1', '--replicates', '3']).toString('utf8');
  assert.equal(quotasim.sweepJsonl(file, { replicates: 3 }), cliRows);
  assert.equal(quotasim.sweepJsonl({ ...file, replicates: 3 }), cliRows, 'the file may say it too');
  const rows = await quotasim.sweep(file, { replicates: 3 });
  assert.deepEqual(rows[0].seeds, [4, 5, 6]);
  assert.equal(rows[0].replicates, 3);
  const goal = rows[0].objectives[`perQuotaShare.${share}.waitSeconds.p95:min`];
  assert.ok(goal.min <= goal.median && goal.median <= goal.max, JSON.stringify(goal));
  assert.deepEqual(goal, rows[0].stats.summary.perQuotaShare[share].waitSeconds.p95);
  assert.ok(rows.some((r) => r.frontier === true));
  const named = (p) => (e) => e instanceof Error && e.problems?.[0]?.path === p;
  await assert.rejects(quotasim.sweep({ ...file, axes: [{ path: 'workload.seed', values: [1, 2] }] }, { replicates: 2 }), named('axes[0].path'));
  await assert.rejects(quotasim.sweep(sweepFile(), { replicates: 2 }), named('replicates'));
});

test('sweep returns a Promise of the rows sweepJsonl gives; onRow gets each row as quotasim sweep prints it', async () => {
  // Without goals each row is final as it is done: onRow's lines are the command line's bytes.
  const plain = { ...sweepFile(), frontier: [] };
  const expected = cliSweep(plain);
  const seen = [];
  const running = quotasim.sweep(plain, { onRow: (row, line) => seen.push([row, line]) });
  assert.ok(running instanceof Promise);
  const rows = await running;
  assert.equal(seen.map(([, line]) => line).join('\n'), expected);
  assert.deepEqual(seen.map(([row]) => row), expected.split('\n').map((l) => JSON.parse(l)));
  assert.deepEqual(rows, expected.split('\n').map((l) => JSON.parse(l)));
  // With goals the front needs every row: onRow's lines are the command line's less their
  // last field, `frontier`; the rows the promise resolves to have the front sweepJsonl has.
  const file = sweepFile();
  const lines = quotasim.sweepJsonl(file).split('\n');
  const streamed = [];
  const fronted = await quotasim.sweep(file, { onRow: (row, line) => streamed.push([row, line]) });
  assert.deepEqual(streamed.map(([, line]) => line), lines.map((l) => l.replace(/,"frontier":(true|false)\}$/, '}')));
  assert.ok(streamed.every(([row]) => !('frontier' in row)));
  assert.deepEqual(fronted, lines.map((l) => JSON.parse(l)));
  assert.deepEqual(fronted.map((r) => r.frontier), JSON.parse(`[${cliSweep(file)}]`.replaceAll('\n', ',')).map((r) => r.frontier));
  // sweepJsonl calls onRow too, with the same rows.
  const sync = [];
  quotasim.sweepJsonl(file, { onRow: (row, line) => sync.push(line) });
  assert.deepEqual(sync, streamed.map(([, line]) => line));
});

test('sweep yields to the event loop while it runs: timers fire between its rows', async (t) => {
  quotasim.sweepJsonl(longSweep(2)); // the engine's code compiled once
  const marks = [];
  const timer = setInterval(() => marks.push(performance.now()), 0);
  const started = performance.now();
  let done = 0;
  const rows = await quotasim.sweep(longSweep(150), { onRow: () => done++ });
  const ended = performance.now();
  clearInterval(timer);
  const points = [started, ...marks.filter((m) => m < ended), ended];
  const gaps = points.slice(1).map((p, i) => p - points[i]);
  const longest = Math.max(...gaps);
  t.diagnostic(`150 rows in ${(ended - started).toFixed(0)} ms, ${marks.length} timer ticks; longest gap between them ${longest.toFixed(1)} ms`);
  assert.equal(rows.length, 150);
  assert.equal(done, 150);
  assert.ok(ended - started > 100, 'the sweep runs long enough to need several slices');
  assert.ok(marks.length >= 3, `the timer ran ${marks.length} times`);
  // The slices are 25 ms, a row far shorter; a loaded machine may stretch a gap, never to a whole sweep's length.
  assert.ok(longest < 150, `longest gap ${longest} ms`);
});

test('an aborted signal rejects sweep with an AbortError, before it starts or at its next slice', async (t) => {
  const controller = new AbortController();
  controller.abort();
  let rowsSeen = 0;
  await assert.rejects(quotasim.sweep(sweepFile(), { signal: controller.signal, onRow: () => rowsSeen++ }), isAbort);
  assert.throws(() => quotasim.sweepJsonl(sweepFile(), { signal: controller.signal }), isAbort);
  assert.equal(rowsSeen, 0);
  // Aborted from onRow, sweepJsonl stops at its next slice.
  const inner = new AbortController();
  assert.throws(() => quotasim.sweepJsonl(longSweep(400), { signal: inner.signal, onRow: () => inner.abort() }), isAbort);
  // Aborted by a timer while it runs.
  const later = new AbortController();
  const run = quotasim.sweep(longSweep(2000), { signal: later.signal, onRow: () => rowsSeen++ });
  let abortedAt;
  setTimeout(() => {
    abortedAt = performance.now();
    later.abort();
  }, 100);
  await assert.rejects(run, (e) => isAbort(e) && /sweep was aborted/.test(e.message));
  const late = performance.now() - abortedAt;
  t.diagnostic(`${rowsSeen} of 2000 rows ran; rejected ${late.toFixed(1)} ms after abort()`);
  assert.ok(rowsSeen > 0 && rowsSeen < 2000, `${rowsSeen} rows ran`);
  assert.ok(late < 1000, `rejected ${late} ms after abort()`);
});

test('bad sweep options reject (and sweepJsonl throws) naming the option; what onRow throws stops the sweep', async () => {
  const cases = [
    [{ onRow: 3 }, 'options.onRow'],
    [{ signal: {} }, 'options.signal'],
    [{ signal: true }, 'options.signal'],
    [{ onProgress: () => {} }, 'options.onProgress'],
    [{ replicates: 0 }, 'options.replicates'],
    [{ replicates: 2.5 }, 'options.replicates'],
    [{ replicates: '3' }, 'options.replicates'],
    [5, 'options'],
  ];
  for (const [options, field] of cases) {
    const named = (e) => e instanceof Error && e.problems?.[0]?.path === field && e.message.includes(field);
    assert.throws(() => quotasim.sweepJsonl(sweepFile(), options), named, JSON.stringify(options));
    await assert.rejects(quotasim.sweep(sweepFile(), options), named, JSON.stringify(options));
  }
  assert.equal(quotasim.sweepJsonl(sweepFile(), { onRow: null, signal: undefined }), quotasim.sweepJsonl(sweepFile()));
  await assert.rejects(quotasim.sweep('{'), (e) => e.problems.length === 1 && /EOF while parsing/.test(e.message));
  const thrown = new Error('stop here');
  await assert.rejects(quotasim.sweep(sweepFile(), { onRow: () => { throw thrown; } }), (e) => e === thrown);
});

test('a workload section: expandWorkload is run --print-scenario, compareReplicatesJson is compare --replicates', () => {
  const gen = JSON.parse(cli(['generate', '--jobs', '300', '--shares', '3', '--seed', '5', '--workload']).toString('utf8'));
  const gFile = path.join(scratch, 'wl.json');
  fs.writeFileSync(gFile, JSON.stringify(gen));
  assert.equal(JSON.stringify(quotasim.expandWorkload(gen)), cli(['run', gFile, '--print-scenario']).toString('utf8'));
  const change = 'quotaShares[team-01].resourceSharingConfiguration.strategy=RESERVE';
  assert.equal(quotasim.compareReplicatesJson(gen, null, [change], 3),
    cli(['compare', gFile, '--set', change, '--replicates', '3']).toString('utf8'));
  const r = quotasim.compareReplicates(gen, null, [change], 3);
  assert.deepEqual(r.seeds, [5, 6, 7]);
  assert.ok(r.overall.utilization.agree >= 1);
  assert.throws(() => quotasim.compareReplicates(notebook(), null, [], 2), (e) => e.problems[0].path === 'workload');
});

test('exportScenario gives the bytes of quotasim export; importKueue reads the Kueue export back', () => {
  for (const format of ['cloudformation', 'aws-cli', 'kueue']) {
    assert.equal(quotasim.exportScenario(notebook(), format).trimEnd(), cli(['export', format, fixture]).toString('utf8'), format);
  }
  const back = quotasim.importKueue(quotasim.exportScenario(notebook(), 'kueue'));
  assert.deepEqual(back.recognised, ['3 ClusterQueues', '1 Cohorts', '1 ResourceFlavors']);
  assert.deepEqual(back.scenario.quotaShares.map((q) => q.quotaShareName), notebook().quotaShares.map((q) => q.quotaShareName));
  assert.throws(() => quotasim.exportScenario(notebook(), 'terraform'), (e) => e.problems[0].path === 'format');
  assert.throws(() => quotasim.importKueue('kind: ClusterQueue\nspec: [1'), (e) => /document 1/.test(e.problems[0].path));
});

test('eventbridgeJsonl gives the bytes of run --events-format eventbridge; importAws reads them back; calibrate matches the CLI', () => {
  const lines = quotasim.eventbridgeJsonl(notebook());
  assert.equal(lines, cli(['run', '--events-format', 'eventbridge', fixture]).toString('utf8'));
  const back = quotasim.importAws([{ name: 'events.jsonl', text: lines }]);
  assert.deepEqual(back.scenario.quotaShares.map((q) => q.quotaShareName), notebook().quotaShares.map((q) => q.quotaShareName));
  assert.deepEqual(back.scenario.jobs.map((j) => j.jobName).sort(), notebook().jobs.map((j) => j.jobName).sort());
  assert.ok(back.recognised.some((r) => /EventBridge events/.test(r)), back.recognised.join('; '));
  assert.equal(back.observed.jobs.length, notebook().jobs.length);
  const cal = quotasim.calibrate(back.scenario, back.observed);
  const dir = fs.mkdtempSync(path.join(scratch, 'cal-'));
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(back.scenario));
  fs.writeFileSync(path.join(dir, 'o.json'), JSON.stringify(back.observed));
  assert.deepEqual(cal, JSON.parse(cli(['calibrate', '--format', 'json', path.join(dir, 's.json'), path.join(dir, 'o.json')]).toString('utf8')));
  assert.throws(() => quotasim.importAws([{ name: 'x.json', text: '{"nothing": 1}' }]), (e) => e.problems.length >= 1);
  assert.throws(() => quotasim.importAws('not files'), (e) => e.problems[0].path === 'files');
  assert.throws(() => quotasim.eventbridgeJsonl(notebook(), -1), RangeError);
});

test('importAws with stateAtMillis is import aws --state-at: the live queue at an instant, as an R28 state', () => {
  // A notebook with start-up, so that the import fits it and calibrate says what it explains.
  const nb = notebook();
  nb.settings = { ...nb.settings, scheduledSeconds: 60, startingSeconds: 30 };
  const lines = quotasim.eventbridgeJsonl(nb);
  const dir = fs.mkdtempSync(path.join(scratch, 'state-'));
  const events = path.join(dir, 'events.jsonl');
  fs.writeFileSync(events, lines);
  const at = 1767225600000 + 600 * 1000;
  const state = quotasim.importAws([{ name: events, text: lines }], undefined, at);
  const viaCli = JSON.parse(cli(['import', 'aws', events, '--state-at', String(at)]).toString('utf8'));
  assert.deepEqual(state.scenario, viaCli);
  assert.equal(state.scenario.settings.startAt > 0, true);
  assert.equal(state.scenario.settings.scheduledSeconds, 60);
  assert.ok(state.scenario.jobs.every((j) => j.durationSeconds === undefined));
  assert.ok(state.warnings.some((w) => w.path === 'settings.scheduledSeconds'));
  assert.throws(() => quotasim.importAws([{ name: events, text: lines }], at, at), (e) => e.problems[0].path === 'stateAtMillis');
  // The whole history: calibrate also says what the fitted start-up explains, as the CLI does.
  const back = quotasim.importAws([{ name: events, text: lines }]);
  const cal = quotasim.calibrate(back.scenario, back.observed);
  assert.equal(cal.startup.scheduledSeconds, 60);
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(back.scenario));
  fs.writeFileSync(path.join(dir, 'o.json'), JSON.stringify(back.observed));
  assert.deepEqual(cal, JSON.parse(cli(['calibrate', '--format', 'json', path.join(dir, 's.json'), path.join(dir, 'o.json')]).toString('utf8')));
});

test('applyChanges addresses lists by name and names a path that names nothing', () => {
  const s = quotasim.applyChanges(notebookText, ['quotaShares[qs2].capacityLimits[ml.p5.48xlarge].maxCapacity=4', 'jobs[*].checkpointIntervalSeconds=900']);
  assert.deepEqual(s.quotaShares[1].capacityLimits.at(-1), { capacityUnit: 'ml.p5.48xlarge', maxCapacity: 4 });
  assert.ok(s.jobs.every((j) => j.checkpointIntervalSeconds === 900));
  assert.throws(() => quotasim.applyChanges(notebook(), ['quotaShares[nope].state=DISABLED']),
    (e) => e.problems[0].path === 'quotaShares[nope].state');
  assert.throws(() => quotasim.applyChanges(notebook(), ['settings.backfill']), (e) => e.problems.length === 1);
});

// Start-time forecasts: a live state (R28) made by the CLI from a generated scenario.
const etaDir = fs.mkdtempSync(path.join(scratch, 'eta-'));
test.after(() => fs.rmSync(etaDir, { recursive: true, force: true }));
const etaFiles = (() => {
  const scenario = cli(['generate', '--jobs', '300', '--shares', '3', '--seed', '5']);
  const stateText = cli(['run', '-', '--print-state-at', '7200'], scenario).toString('utf8');
  const state = JSON.parse(stateText);
  const start = state.settings.startAt;
  const queued = state.jobs.find((j) => j.startedAt == null && (j.submitAt ?? 0) <= start).jobName;
  const submit = { jobName: 'mine', quotaShareName: state.quotaShares[0].quotaShareName,
    instanceType: state.serviceEnvironment.capacityLimits[0].capacityUnit, instanceCount: 1,
    durationSeconds: 600, schedulingPriority: 90 };
  const stateFile = path.join(etaDir, 'state.json');
  const submitFile = path.join(etaDir, 'submit.json');
  fs.writeFileSync(stateFile, stateText);
  fs.writeFileSync(submitFile, JSON.stringify(submit));
  return { stateText, stateFile, submit, submitFile, queued };
})();
const LEND_TO_RESERVE = 'quotaShares[team-01].resourceSharingConfiguration.strategy=RESERVE';

/** The same forecast as package options and as `quotasim eta` flags. */
const etaCases = () => {
  const { submit, submitFile, queued } = etaFiles;
  return [
    [{}, []],
    [{ replicates: 20, jobs: [queued] }, ['--replicates', '20', '--job', queued]],
    [{ replicates: 20, set: [LEND_TO_RESERVE, 'jobs[*].checkpointIntervalSeconds=900'] },
      ['--replicates', '20', '--set', LEND_TO_RESERVE, '--set', 'jobs[*].checkpointIntervalSeconds=900']],
    [{ replicates: 20, submit }, ['--replicates', '20', '--submit', submitFile]],
    [{ replicates: 20, submit: JSON.stringify(submit), jobs: [queued], durations: 'exact', arrivals: 'none' },
      ['--replicates', '20', '--submit', submitFile, '--job', queued, '--durations', 'exact', '--arrivals', 'none']],
    [{ replicates: 20, durations: 'exact' }, ['--replicates', '20', '--durations', 'exact']],
    [{ replicates: 20, durations: 'timeout', arrivals: 'none', seed: 7, horizon: 20000 },
      ['--replicates', '20', '--durations', 'timeout', '--arrivals', 'none', '--seed', '7', '--horizon', '20000']],
  ];
};

test('etaJson gives the bytes of quotasim eta --format json, option by option', () => {
  for (const [options, flags] of etaCases()) {
    const expected = cli(['eta', etaFiles.stateFile, ...flags, '--format', 'json']).toString('utf8');
    assert.equal(quotasim.etaJson(etaFiles.stateText, options), expected, flags.join(' '));
  }
  // A state object and null options are read as the text and no options are.
  const expected = cli(['eta', etaFiles.stateFile, '--replicates', '5', '--format', 'json']).toString('utf8');
  assert.equal(quotasim.etaJson(JSON.parse(etaFiles.stateText), { replicates: 5, seed: null }), expected);
});

test('eta resolves to the report etaJson gives, reporting progress from 0 to every replicate', async () => {
  for (const [options] of etaCases().slice(1, 5)) {
    const done = [];
    const report = await quotasim.eta(etaFiles.stateText, { ...options, onProgress: (d, n) => done.push([d, n]) });
    assert.deepEqual(report, JSON.parse(quotasim.etaJson(etaFiles.stateText, options)));
    assert.deepEqual(done[0], [0, 20]);
    assert.deepEqual(done.at(-1), [20, 20]);
    assert.ok(done.every(([d], i) => i === 0 || d > done[i - 1][0]), JSON.stringify(done));
  }
  const report = await quotasim.eta(etaFiles.stateText, { replicates: 20, jobs: [etaFiles.queued] });
  assert.equal(report.jobs.length, 1);
  assert.equal(report.jobs[0].jobName, etaFiles.queued);
  assert.equal(report.durations, 'history');
  assert.equal(Object.getPrototypeOf(report.drawsBySource), Object.prototype);
  assert.ok(Array.isArray(report.jobs[0].position) && report.jobs[0].position.length === 2);
});

test('an aborted signal rejects eta with an AbortError before anything runs', async () => {
  const controller = new AbortController();
  controller.abort();
  let progressed = false;
  await assert.rejects(quotasim.eta(etaFiles.stateText, { signal: controller.signal, onProgress: () => (progressed = true) }), isAbort);
  assert.throws(() => quotasim.etaJson(etaFiles.stateText, { signal: controller.signal }), isAbort);
  assert.equal(progressed, false);
  // Aborted from onProgress, etaJson stops too.
  const inner = new AbortController();
  assert.throws(() => quotasim.etaJson(etaFiles.stateText, { signal: inner.signal, onProgress: () => inner.abort() }), isAbort);
});

test('aborting a long eta rejects it with an AbortError at its next yield', async (t) => {
  const controller = new AbortController();
  let done = 0;
  const started = performance.now();
  const run = quotasim.eta(etaFiles.stateText, { replicates: 100000, signal: controller.signal, onProgress: (d) => (done = d) });
  let abortedAt;
  setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, 200);
  await assert.rejects(run, isAbort);
  const late = performance.now() - abortedAt;
  t.diagnostic(`${done} of 100000 replicates ran in ${(abortedAt - started).toFixed(0)} ms; rejected ${late.toFixed(1)} ms after abort()`);
  assert.ok(done > 0 && done < 100000, `${done} replicates ran`);
  assert.ok(late < 1000, `rejected ${late} ms after abort()`);
});

test('eta yields to the event loop while it runs: timers fire between its slices', async (t) => {
  quotasim.etaJson(etaFiles.stateText, { replicates: 2 }); // the engine's code compiled once
  const marks = [];
  const timer = setInterval(() => marks.push(performance.now()), 0);
  const started = performance.now();
  let slices = 0;
  const report = await quotasim.eta(etaFiles.stateText, { replicates: 1000, onProgress: () => slices++ });
  const ended = performance.now();
  clearInterval(timer);
  const points = [started, ...marks.filter((m) => m < ended), ended];
  const gaps = points.slice(1).map((p, i) => p - points[i]);
  const longest = Math.max(...gaps);
  t.diagnostic(`1000 replicates in ${(ended - started).toFixed(0)} ms, ${slices} progress calls, ${marks.length} timer ticks; longest gap between them ${longest.toFixed(1)} ms`);
  assert.equal(report.replicates, 1000);
  assert.ok(marks.length >= 5, `the timer ran ${marks.length} times`);
  // The slices are 25 ms; a loaded machine may stretch a gap, never to a whole run's length.
  assert.ok(longest < 150, `longest gap ${longest} ms`);
});

test('etaJson draws durations and arrivals from a workload section as quotasim eta does', () => {
  const state = JSON.parse(etaFiles.stateText);
  const share = state.quotaShares[0].quotaShareName;
  state.workload = { shares: [{ quotaShareName: share, jobs: 0, arrivalsPerHour: 30,
    instanceTypes: [{ name: state.serviceEnvironment.capacityLimits[0].capacityUnit }],
    duration: { distribution: 'exponential', minSeconds: 300, maxSeconds: 7200 } }] };
  const text = JSON.stringify(state);
  const file = path.join(etaDir, 'state-workload.json');
  fs.writeFileSync(file, text);
  const flags = ['--replicates', '10', '--durations', 'workload', '--arrivals', 'workload'];
  const expected = cli(['eta', file, ...flags, '--format', 'json']).toString('utf8');
  const got = quotasim.etaJson(text, { replicates: 10, durations: 'workload', arrivals: 'workload' });
  assert.equal(got, expected);
  const report = JSON.parse(got);
  assert.equal(report.arrivals, 'workload');
  assert.ok(report.drawsBySource.workload > 0, JSON.stringify(report.drawsBySource));
});

test('fitWorkload gives the scenario quotasim fit-workload writes, with its warnings', () => {
  const history = cli(['generate', '--jobs', '200', '--shares', '2', '--seed', '4']).toString('utf8');
  const file = path.join(etaDir, 'history.json');
  fs.writeFileSync(file, history);
  const fitted = quotasim.fitWorkload(history);
  assert.deepEqual(fitted.scenario, JSON.parse(cli(['fit-workload', file]).toString('utf8')));
  assert.equal(fitted.scenario.jobs.length, 0);
  assert.equal(fitted.scenario.workload.shares.length, 2);
  assert.ok(fitted.warnings.some((w) => /one arrival rate per share/.test(w.message)), JSON.stringify(fitted.warnings));
  // Replicates of the fitted section run (each seed another history like it).
  assert.equal(quotasim.expandWorkload(fitted.scenario).jobs.length, 200);
  assert.throws(() => quotasim.fitWorkload(fitted.scenario), (e) => e.problems[0].path === 'workload');
});

test('bad eta options reject (and etaJson throws) naming the option', async () => {
  const cases = [
    [{ replicates: 0 }, 'options.replicates'],
    [{ replicates: 1.5 }, 'options.replicates'],
    [{ replicates: 100001 }, 'options.replicates'],
    [{ seed: -1 }, 'options.seed'],
    [{ horizon: '60' }, 'options.horizon'],
    [{ horizon: 0 }, 'options.horizon'],
    [{ horizon: 2 ** 53 - 1 }, 'options.horizon'],
    [{ durations: 'workload' }, 'options.durations'], // the state has no workload section
    [{ arrivals: 'workload' }, 'options.arrivals'],
    [{ arrivals: 'all' }, 'options.arrivals'],
    [{ jobs: 'a' }, 'options.jobs'],
    [{ jobs: [1] }, 'options.jobs[0]'],
    [{ set: 'jobs[*].timeoutSeconds=60' }, 'options.set'],
    [{ jobs: ['nobody'] }, 'options.jobs[0]'],
    [{ set: ['jobs[*].checkpointIntervalSeconds=900', 'nonsense'] }, 'options.set[1]'],
    [{ set: ['quotaShares[nope].state=DISABLED'] }, 'quotaShares[nope].state'],
    [{ submit: { jobName: 3 } }, 'options.submit'],
    [{ submit: { ...etaFiles.submit, jobName: etaFiles.queued } }, 'options.submit.jobName'],
    [{ signal: {} }, 'options.signal'],
    [{ onProgress: 3 }, 'options.onProgress'],
    [{ replicate: 5 }, 'options.replicate'],
    [5, 'options'],
  ];
  for (const [options, field] of cases) {
    const named = (e) => e instanceof Error && e.problems?.[0]?.path === field && e.message.includes(field);
    assert.throws(() => quotasim.etaJson(etaFiles.stateText, options), named, JSON.stringify(options));
    await assert.rejects(quotasim.eta(etaFiles.stateText, options), named, JSON.stringify(options));
  }
  const broken = (e) => e.problems[0].path === '' && /invalid JSON/.test(e.message);
  await assert.rejects(quotasim.eta('{'), broken);
  assert.throws(() => quotasim.etaJson('{'), broken);
  const thrown = new Error('stop here');
  await assert.rejects(quotasim.eta(etaFiles.stateText, { replicates: 2, onProgress: () => { throw thrown; } }), (e) => e === thrown);
});

test('whyJson gives the bytes of quotasim why --format json, and why the same report as objects', () => {
  const cases = [
    ['qs1_job_med', undefined, []],
    ['qs1_job_med', { preemption: 1, maxRuns: 9 }, ['--preemption', '1', '--max-runs', '9']],
    ['qs1_job_high', { maxRuns: null }, []],
    ['qs1_job_low', { by: 60 }, ['--by', '60']],
  ];
  for (const [job, options, flags] of cases) {
    const expected = cli(['why', fixture, '--job', job, '--format', 'json', ...flags]).toString('utf8');
    assert.equal(quotasim.whyJson(notebookText, job, options), expected, [job, ...flags].join(' '));
    assert.deepEqual(quotasim.why(notebook(), job, options), JSON.parse(expected), [job, ...flags].join(' '));
  }
  const report = quotasim.why(notebookText, 'qs1_job_med');
  assert.ok(report.changes.length > 0);
  for (const c of report.changes) {
    // Each change's `set` applies as `applyChanges` (and `run --set`) applies it.
    const changed = quotasim.applyChanges(notebook(), c.set);
    withSim(changed, (sim) => {
      sim.run();
      assert.equal(jobNamed(sim, 'qs1_job_med').preemptionSummary.preemptedAttemptCount, 0, c.set.join(' '));
    });
  }
});

test('bad why options throw naming the option', () => {
  const cases = [
    ['nobody', undefined, 'jobName'],
    [3, undefined, 'jobName'],
    ['qs1_job_med', { preemption: 2 }, 'options.preemption'],
    ['qs1_job_med', { preemption: 0 }, 'options.preemption'],
    ['qs1_job_med', { maxRuns: 0 }, 'options.maxRuns'],
    ['qs1_job_med', { maxRuns: '5' }, 'options.maxRuns'],
    ['qs1_job_med', { by: 60 }, 'options.by'],
    ['qs1_job_med', { runs: 5 }, 'options.runs'],
    ['qs1_job_med', 5, 'options'],
  ];
  for (const [job, options, field] of cases) {
    const named = (e) => e instanceof Error && e.problems?.[0]?.path === field && e.message.includes(field);
    assert.throws(() => quotasim.whyJson(notebookText, job, options), named, JSON.stringify([job, options]));
    assert.throws(() => quotasim.why(notebookText, job, options), named, JSON.stringify([job, options]));
  }
  assert.throws(() => quotasim.why('{', 'a'), (e) => e.problems[0].path === '' && /invalid JSON/.test(e.message));
});

// Job logs: the openb excerpt the CLI's tests read, and a small CSV log in the Helios layout.
const openb = path.join(root, 'tests', 'fixtures', 'openb-excerpt.csv');
const traceDir = fs.mkdtempSync(path.join(scratch, 'trace-'));
test.after(() => fs.rmSync(traceDir, { recursive: true, force: true }));
const helios = path.join(traceDir, 'helios.csv');
const capacity = path.join(traceDir, 'capacity.csv');
fs.writeFileSync(helios, 'job_id,user,vc,gpu_num,state,submit_time,start_time,end_time,queue\n'
  + 'a1,u1,vcX,8,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:10,2020-04-01 02:00:10,high\n'
  + 'a2,u2,vcY,16,COMPLETED,2020-04-01 00:10:00,2020-04-01 00:20:00,2020-04-01 00:50:00,low\n'
  + 'a3,u2,"vc Z",4,RUNNING,2020-04-01 01:00:00,2020-04-01 01:00:00,2020-04-01 03:00:00,low\n'
  + 'a4,u1,vcX,8,COMPLETED,soon,2020-04-01 01:00:00,2020-04-01 03:00:00,low\n');
fs.writeFileSync(capacity, 'date,vcX,vcY,vc Z,total\n2020-04-01,16,16,8,40\n2020-04-02,24,16,8,48\n');
const traceFile = (f) => ({ name: f, text: fs.readFileSync(f, 'utf8') });
const HELIOS_COLUMNS = 'name=job_id,team=vc,gpus=gpu_num,submit=submit_time,start=start_time,end=end_time,status=state,priority=queue';

/** The same import as package files and options, and as `quotasim import trace` arguments. */
const traceCases = () => [
  [[openb], { format: 'openb' }, ['--format', 'openb', openb]],
  [[openb], { format: 'openb', gpusPerInstance: 1, minGpus: 1, from: 1000000, maxDuration: 3600, instances: 16 },
    ['--format', 'openb', openb, '--gpus-per-instance', '1', '--min-gpus', '1', '--from', '1000000', '--max-duration', '3600', '--instances', '16']],
  [[openb], { format: 'openb', to: 2000000, minDuration: 600, checkpointInterval: 900, instanceType: 'ml.p4d.24xlarge', columns: { team: 'gpu_spec' } },
    ['--format', 'openb', openb, '--to', '2000000', '--min-duration', '600', '--checkpoint-interval', '900', '--instance-type', 'ml.p4d.24xlarge', '--columns', 'team=gpu_spec']],
  [[helios], { format: 'csv', columns: HELIOS_COLUMNS, teams: 'vcX=research,vcY=product', priorities: 'high=100,low=0',
    capacity: traceFile(capacity), checkpointInterval: 600 },
  ['--format', 'csv', helios, '--columns', HELIOS_COLUMNS, '--teams', 'vcX=research,vcY=product', '--priorities', 'high=100,low=0',
    '--capacity', capacity, '--checkpoint-interval', '600']],
  // The same, with objects where the command line has text.
  [[helios], { format: 'csv', columns: { name: 'job_id', team: 'vc', gpus: 'gpu_num', submit: 'submit_time', start: 'start_time',
    end: 'end_time', status: 'state', priority: 'queue' }, teams: { vcX: 'research', vcY: 'product' }, priorities: { high: 100, low: 0 },
  capacity: traceFile(capacity), checkpointInterval: 600 },
  ['--format', 'csv', helios, '--columns', HELIOS_COLUMNS, '--teams', 'vcX=research,vcY=product', '--priorities', 'high=100,low=0',
    '--capacity', capacity, '--checkpoint-interval', '600']],
  [[helios, helios], { format: 'csv', columns: HELIOS_COLUMNS, gpusPerInstance: 4, priorities: { high: 1, low: 0 } },
    ['--format', 'csv', helios, helios, '--columns', HELIOS_COLUMNS, '--gpus-per-instance', '4', '--priorities', 'high=1,low=0']],
];

test('importTrace gives the scenario quotasim import trace writes, byte for byte, with its warnings', () => {
  for (const [files, options, args] of traceCases()) {
    const r = spawnSync(cliPath(), ['import', 'trace', ...args], { maxBuffer: 1 << 30 });
    const got = quotasim.importTrace(files.map(traceFile), options);
    assert.equal(`${JSON.stringify(got.scenario, null, 2)}\n`, r.stdout.toString('utf8'), args.join(' '));
    // What the command line says on standard error: what it read, then every problem.
    const stderr = r.stderr.toString('utf8');
    assert.deepEqual(stderr.trimEnd().split('\n'),
      [...got.recognised.map((l) => `quotasim: read ${l}`), ...got.warnings.map((w) => `${w.severity}: ${w.path}: ${w.message}`)], args.join(' '));
    // A row that could not be read is an error among the warnings: the command line exits 1.
    assert.equal(r.status, got.warnings.some((w) => w.severity === 'error') ? 1 : 0, args.join(' '));
  }
  const bad = quotasim.importTrace([traceFile(helios)], { format: 'csv', columns: HELIOS_COLUMNS, priorities: 'high=1,low=0' });
  assert.ok(bad.warnings.some((w) => w.severity === 'error' && w.path.startsWith(`${helios}:5`)), JSON.stringify(bad.warnings));
  assert.deepEqual(bad.scenario.jobs.map((j) => j.jobName), ['a1', 'a2', 'a3']);
});

test('bad importTrace input throws naming the option or the file', () => {
  const files = [traceFile(helios)];
  const cases = [
    [files, undefined, 'options.format'],
    [files, {}, 'options.format'],
    [files, { format: 'helios' }, 'options.format'],
    [files, { format: 'csv' }, 'options.columns.submit'],
    [files, { format: 'csv', columns: 'sumbit=submit_time' }, 'options.columns.sumbit'],
    [files, { format: 'csv', columns: { sumbit: 'submit_time' } }, 'options.columns.sumbit'],
    [files, { format: 'csv', columns: { submit: 5 } }, 'options.columns.submit'],
    [files, { format: 'csv', columns: 'submit=submit_time,gpus=gpu_num' }, 'options.columns.duration'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, gpusPerInstance: 0 }, 'options.gpusPerInstance'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, gpusPerInstance: 3 }, 'options.instanceType'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, instances: 1.5 }, 'options.instances'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, teams: 'vcX' }, 'options.teams'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, teams: [] }, 'options.teams'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, priorities: { high: 'top' } }, 'options.priorities.high'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, priorities: 'high=top' }, 'options.priorities.high'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, capacity: 'capacity.csv' }, 'options.capacity'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, minGpus: -1 }, 'options.minGpus'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, checkpointInterval: 0 }, 'options.checkpointInterval'],
    [files, { format: 'csv', columns: HELIOS_COLUMNS, window: 5 }, 'options.window'],
    [files, 5, 'options'],
    ['helios.csv', { format: 'csv' }, 'files'],
    [[{ name: 'x.csv' }], { format: 'csv' }, 'files[0]'],
    [[{ name: 'x.csv', text: '' }], { format: 'csv', columns: HELIOS_COLUMNS }, 'x.csv'],
  ];
  for (const [f, options, field] of cases) {
    const named = (e) => e instanceof Error && e.problems?.some((p) => p.path === field) && e.message.includes(field);
    assert.throws(() => quotasim.importTrace(f, options), named, JSON.stringify(options));
  }
});

test('the built package.json names no repository unless the publisher sets QUOTASIM_REPOSITORY', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  if (!process.env.QUOTASIM_REPOSITORY) {
    for (const field of ['repository', 'homepage', 'bugs']) assert.equal(pkg[field], undefined, `package.json has no ${field}`);
    assert.doesNotMatch(JSON.stringify(pkg), /github|gitlab|https?:/);
  }
  // What build.sh writes with the variable set, and a bad value refused.
  const script = path.join(__dirname, '..', 'entries', 'package-json.cjs');
  const write = (repo) => {
    const dir = fs.mkdtempSync(path.join(scratch, 'pkg-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '1.2.3', description: 'd', license: 'Apache-2.0' }));
    const env = { ...process.env };
    delete env.QUOTASIM_REPOSITORY;
    if (repo !== undefined) env.QUOTASIM_REPOSITORY = repo;
    const r = spawnSync(process.execPath, [script, dir], { env, encoding: 'utf8' });
    const written = r.status === 0 ? JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) : null;
    fs.rmSync(dir, { recursive: true, force: true });
    return { r, written };
  };
  const none = write(undefined).written;
  assert.deepEqual(['repository', 'homepage', 'bugs'].filter((f) => f in none), []);
  const { written } = write('https://github.com/someone/quotasim');
  assert.deepEqual(written.repository, { type: 'git', url: 'git+https://github.com/someone/quotasim.git', directory: 'web' });
  assert.equal(written.homepage, 'https://github.com/someone/quotasim#readme');
  assert.deepEqual(written.bugs, { url: 'https://github.com/someone/quotasim/issues' });
  const elsewhere = write('https://git.example.org/team/quotasim.git').written;
  assert.equal(elsewhere.repository.url, 'git+https://git.example.org/team/quotasim.git');
  assert.equal(elsewhere.bugs, undefined, 'no issue tracker is guessed off GitHub');
  for (const bad of ['github.com/someone/quotasim', 'http://github.com/a/b', 'https://github.com', 'https://user:pw@github.com/a/b']) {
    const { r } = write(bad);
    assert.equal(r.status, 1, bad);
    assert.match(r.stderr, /QUOTASIM_REPOSITORY/, bad);
  }
});

test("package.json's engines allow no Node older than the one these tests run", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const floor = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines?.node ?? '');
  assert.ok(floor, `engines.node is ">=X.Y.Z", not ${JSON.stringify(pkg.engines)}`);
  assert.equal(floor[1], process.versions.node,
    `engines.node allows Node ${floor[1]}, but the tests run Node ${process.versions.node}: test on ${floor[1]}, or set NODE_FLOOR in web/entries/package-json.cjs to what is tested`);
});

// recommend: the CLI's bytes, a Promise that yields, aborts and names what is wrong.
const recDir = fs.mkdtempSync(path.join(scratch, 'recommend-'));

/** One team, 1-instance 1-hour jobs every 15 minutes for `days` days, 10 instances. */
const oneTeam = (days) => ({ formatVersion: 1,
  serviceEnvironment: { capacityLimits: [{ capacityUnit: 'ml.p5.48xlarge', maxCapacity: 10 }] },
  quotaShares: [{ quotaShareName: 'team', capacityLimits: [{ capacityUnit: 'ml.p5.48xlarge', maxCapacity: 10 }],
    resourceSharingConfiguration: { strategy: 'RESERVE' } }],
  jobs: Array.from({ length: days * 96 }, (_, k) => ({ jobName: `j${k}`, quotaShareName: 'team',
    instanceType: 'ml.p5.48xlarge', instanceCount: 1, submitAt: k * 900, durationSeconds: 3600 })) });
const waitObjective = { formatVersion: 1, objectives: [{ metric: 'perQuotaShare.team.waitSeconds.p95', max: 600 }] };
/** Five shares, two types, a workload section (the package generates listed jobs only). */
const fiveShares = () => JSON.parse(cli(['generate', '--jobs', '240', '--shares', '5', '--instance-types', '2',
  '--seed', '3', '--load-percent', '60', '--workload']).toString('utf8'));
const fiveObjectives = { objectives: [{ metric: 'perQuotaShare.*.waitSeconds.p95', max: 36000 }] };

function cliRecommend(scenario, objectives, args = []) {
  const s = path.join(recDir, 'scenario.json');
  const o = path.join(recDir, 'objectives.json');
  fs.writeFileSync(s, JSON.stringify(scenario));
  fs.writeFileSync(o, JSON.stringify(objectives));
  const r = spawnSync(cliPath(), ['recommend', s, '--objectives', o, '--format', 'json', ...args], { maxBuffer: 1 << 30 });
  assert.ok(r.status === 0 || r.status === 3, `quotasim recommend failed: ${r.stderr}`);
  return r.stdout.subarray(0, r.stdout.length - 1).toString('utf8');
}

test('recommendJson gives the bytes of quotasim recommend --format json, option by option', () => {
  assert.equal(quotasim.recommendJson(oneTeam(2), waitObjective), cliRecommend(oneTeam(2), waitObjective));
  const five = fiveShares();
  const space = { formatVersion: 1, fixed: ['quotaShares[team-00].resourceSharingConfiguration'] };
  const opts = { replicates: 2, confidence: 0.5, maxRuns: 60, space };
  fs.writeFileSync(path.join(recDir, 'space.json'), JSON.stringify(space));
  assert.equal(quotasim.recommendJson(five, fiveObjectives, opts),
    cliRecommend(five, fiveObjectives, ['--replicates', '2', '--confidence', '0.5', '--max-runs', '60',
      '--space', path.join(recDir, 'space.json')]));
  assert.equal(quotasim.recommendJson(oneTeam(1), waitObjective, { minimize: 'overall.lostGpuHours', maxRuns: 30 }),
    cliRecommend(oneTeam(1), waitObjective, ['--minimize', 'overall.lostGpuHours', '--max-runs', '30']));
  // Nothing feasible: the report says so (the CLI exits 3).
  const never = { objectives: [{ metric: 'overall.utilization', min: 1.01 }] };
  const text = quotasim.recommendJson(oneTeam(1), never);
  assert.equal(JSON.parse(text).feasible, false);
  assert.equal(text, cliRecommend(oneTeam(1), never));
});

test('recommend resolves to the report recommendJson gives, reporting progress up to the runs made', async () => {
  const seen = [];
  const r = await quotasim.recommend(oneTeam(2), waitObjective, { onProgress: (runs, max) => seen.push([runs, max]) });
  assert.deepEqual(r, JSON.parse(quotasim.recommendJson(oneTeam(2), waitObjective)));
  assert.equal(r.recommended.cost, 4);
  assert.ok(seen.length >= 1);
  assert.deepEqual(seen[seen.length - 1], [r.runs, 1000]);
  assert.ok(seen.every(([a], i) => i === 0 || a >= seen[i - 1][0]), 'progress never goes back');
});

test('recommend yields to the event loop while it runs, and an aborted signal rejects it with an AbortError', async (t) => {
  quotasim.recommendJson(oneTeam(1), waitObjective, { maxRuns: 2 }); // the engine's code compiled once
  const marks = [];
  const timer = setInterval(() => marks.push(performance.now()), 0);
  const started = performance.now();
  // 120 days of jobs: a few hundred milliseconds, several slices on any machine (28 days came
  // down to about 40 ms, two slices, as the engine got faster).
  await quotasim.recommend(oneTeam(120), waitObjective);
  const ended = performance.now();
  clearInterval(timer);
  const points = [started, ...marks.filter((m) => m < ended), ended];
  const longest = Math.max(...points.slice(1).map((p, i) => p - points[i]));
  t.diagnostic(`${(ended - started).toFixed(0)} ms, ${marks.length} timer ticks; longest gap ${longest.toFixed(1)} ms`);
  assert.ok(marks.length >= 3, `the timer ran ${marks.length} times`);
  assert.ok(longest < 150, `longest gap ${longest} ms`);

  const before = new AbortController();
  before.abort();
  await assert.rejects(quotasim.recommend(oneTeam(1), waitObjective, { signal: before.signal }), isAbort);
  assert.throws(() => quotasim.recommendJson(oneTeam(1), waitObjective, { signal: before.signal }), isAbort);
  // Aborted once it has started (after its checks, before its first slice): it stops at its
  // next yield. (A timer of 50 ms raced a whole recommendation that now takes about 60 ms.)
  const later = new AbortController();
  let progressed = false;
  const run = quotasim.recommend(oneTeam(120), waitObjective, { signal: later.signal, onProgress: () => (progressed = true) });
  later.abort();
  await assert.rejects(run, (e) => isAbort(e) && /recommendation was aborted/.test(e.message));
  assert.equal(progressed, false, 'no run after the abort');
});

test('bad recommend input rejects (and recommendJson throws) naming the field', async () => {
  const cases = [
    [waitObjective, { maxRuns: 0 }, 'options.maxRuns'],
    [waitObjective, { replicates: 2 }, 'options.replicates'],
    [waitObjective, { confidence: 0 }, 'options.confidence'],
    [waitObjective, { minimize: 'perQuotaShare.*.cost' }, 'options.minimize'],
    [waitObjective, { signal: {} }, 'options.signal'],
    [waitObjective, { onProgress: 3 }, 'options.onProgress'],
    [waitObjective, { space: { axes: [{ path: 'quotaShares[team].resourceSharingConfiguration.strategy', range: { from: 1, to: 2, step: 1 } }] } }, 'options.space.axes[0].range'],
    [waitObjective, { space: { axis: [] } }, 'options.space.axis'],
    [waitObjective, { nope: 1 }, 'options.nope'],
    [{ objectives: [{ metric: 'perQuotaShare.team-99.waitSeconds.p95', max: 1 }] }, {}, 'objectives.objectives[0].metric'],
    [{ objectives: [] }, {}, 'objectives.objectives'],
  ];
  for (const [objectives, options, field] of cases) {
    const named = (e) => e instanceof Error && e.problems?.some((p) => p.path === field) && e.message.includes(field);
    assert.throws(() => quotasim.recommendJson(oneTeam(1), objectives, options), named, JSON.stringify([objectives, options]));
    await assert.rejects(quotasim.recommend(oneTeam(1), objectives, options), named, JSON.stringify([objectives, options]));
  }
});
