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
  const bFile = path.join(require('node:os').tmpdir(), `quotasim-b-${process.pid}.json`);
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
  const oFile = path.join(require('node:os').tmpdir(), `quotasim-o-${process.pid}.json`);
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

test('sweep and sweepJsonl give the rows of quotasim sweep, with the front; a file path as base is refused', () => {
  const file = { formatVersion: 1, base: notebook(),
    axes: [{ path: 'quotaShares[qs1].resourceSharingConfiguration.borrowLimit', values: [0, 100] },
      { path: 'settings.preemptionGraceSeconds', range: { from: 60, to: 120, step: 60 } }],
    frontier: ['overall.utilization:max', 'perQuotaShare.qs1.waitSeconds.p95:min'] };
  const sFile = path.join(require('node:os').tmpdir(), `quotasim-sweep-${process.pid}.json`);
  fs.writeFileSync(sFile, JSON.stringify(file));
  assert.equal(quotasim.sweepJsonl(file), cli(['sweep', sFile, '--threads', '1']).toString('utf8'));
  const rows = quotasim.sweep(JSON.stringify(file));
  assert.deepEqual(rows.map((r) => r.row), [0, 1, 2, 3]);
  assert.deepEqual(rows[1].values, [0, 120]);
  assert.ok(rows.some((r) => r.frontier === true));
  assert.equal(typeof rows[0].objectives['overall.utilization:max'], 'number');
  assert.throws(() => quotasim.sweep({ ...file, base: 'scenario.json' }), (e) => e.problems[0].path === 'base');
  assert.throws(() => quotasim.sweep({ ...file, axes: [{ path: 'quotaShares[nope].state', values: ['DISABLED'] }] }),
    (e) => e.problems[0].path.startsWith('axes[0]'));
});

test('a workload section: expandWorkload is run --print-scenario, compareReplicatesJson is compare --replicates', () => {
  const gen = JSON.parse(cli(['generate', '--jobs', '300', '--shares', '3', '--seed', '5', '--workload']).toString('utf8'));
  const gFile = path.join(require('node:os').tmpdir(), `quotasim-wl-${process.pid}.json`);
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
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'quotasim-cal-'));
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(back.scenario));
  fs.writeFileSync(path.join(dir, 'o.json'), JSON.stringify(back.observed));
  assert.deepEqual(cal, JSON.parse(cli(['calibrate', '--format', 'json', path.join(dir, 's.json'), path.join(dir, 'o.json')]).toString('utf8')));
  assert.throws(() => quotasim.importAws([{ name: 'x.json', text: '{"nothing": 1}' }]), (e) => e.problems.length >= 1);
  assert.throws(() => quotasim.importAws('not files'), (e) => e.problems[0].path === 'files');
  assert.throws(() => quotasim.eventbridgeJsonl(notebook(), -1), RangeError);
});

test('applyChanges addresses lists by name and names a path that names nothing', () => {
  const s = quotasim.applyChanges(notebookText, ['quotaShares[qs2].capacityLimits[ml.p5.48xlarge].maxCapacity=4', 'jobs[*].checkpointIntervalSeconds=900']);
  assert.deepEqual(s.quotaShares[1].capacityLimits.at(-1), { capacityUnit: 'ml.p5.48xlarge', maxCapacity: 4 });
  assert.ok(s.jobs.every((j) => j.checkpointIntervalSeconds === 900));
  assert.throws(() => quotasim.applyChanges(notebook(), ['quotaShares[nope].state=DISABLED']),
    (e) => e.problems[0].path === 'quotaShares[nope].state');
  assert.throws(() => quotasim.applyChanges(notebook(), ['settings.backfill']), (e) => e.problems.length === 1);
});
