#!/usr/bin/env python3
"""Checks that two builds of `quotasim` give byte-identical results.

Used when the engine is restructured without changing what it computes: build the binary of
the commit before the change and of the commit after it, then

    scripts/same-results.py OLD_BINARY NEW_BINARY [--count 1000] [--seed 1] [--with-tests] [--large]

Runs `quotasim run` (full result JSON) and `quotasim run --summary` with both binaries on:
the fixtures, the playground presets, `quotasim generate` workloads of varied sizes with every
settings variant patched in (victim order, backfill, grace, checkpoint on stop, scheduled and
starting time, horizon), and random small scenarios with actions of every kind. `--with-tests`
adds every scenario the integration tests simulate (the rule tests and the worked example among
them: the test binary writes them out with QUOTASIM_KEEP_SCENARIOS); `--large` adds generated
scenarios of 100,000 and 1,000,000 jobs. Prints the first differences and exits 1 if any output
differs, 0 otherwise. Deterministic for a seed.

The bridges are compared too, on the fixtures, the presets, the generated scenarios and one in
ten of the others: each scenario's exports (CloudFormation JSON and YAML, aws-cli, Kueue), its
run as EventBridge lines imported back (`import aws`, with `--observed` and `--state-at` a mid
instant), its Kueue export imported back; and `import trace` on the openb pod lists and the
test excerpt with several option sets. With `--studies`, on the same scenarios (not the
largest): `check`, `compare --set` in every format, a sweep of four points in both formats,
`eta`, `why` for the first job and `recommend`.
"""
import argparse
import calendar
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = ["ml.g5.xlarge", "ml.p4d.24xlarge", "ml.p5.48xlarge"]
STRATEGIES = ["RESERVE", "LEND", "LEND_AND_BORROW"]


def settings_variant(rng):
    s = {}
    if rng.random() < 0.5:
        s["victimOrder"] = rng.choice(["aws", "leastLostWork"])
    if rng.random() < 0.4:
        s["backfill"] = True
    if rng.random() < 0.5:
        s["preemptionGraceSeconds"] = rng.choice([0, 1, 30, 120, 600])
    if rng.random() < 0.3:
        s["checkpointOnStop"] = True
        s["checkpointSaveSeconds"] = rng.choice([0, 30, 200])
    if rng.random() < 0.3:
        s["scheduledSeconds"] = rng.choice([0, 5, 60])
    if rng.random() < 0.3:
        s["startingSeconds"] = rng.choice([0, 10, 90])
    if rng.random() < 0.1:
        s["horizonSeconds"] = rng.choice([500, 5000, 50000])
    return s


def small_scenario(rng):
    ntypes = rng.randint(1, 2)
    types = TYPES[:ntypes]
    shares = []
    for i in range(rng.randint(1, 5)):
        strategy = rng.choice(STRATEGIES)
        limits = [{"capacityUnit": t, "maxCapacity": rng.randint(1, 6)} for t in types if rng.random() < 0.8]
        if not limits:
            limits = [{"capacityUnit": types[0], "maxCapacity": rng.randint(1, 6)}]
        rsc = {"strategy": strategy}
        if strategy == "LEND_AND_BORROW" and rng.random() < 0.5:
            rsc["borrowLimit"] = rng.choice([-1, 0, 50, 100, 200])
        shares.append({
            "quotaShareName": f"s{i}",
            "capacityLimits": limits,
            "resourceSharingConfiguration": rsc,
            "preemptionConfiguration": {"inSharePreemption": rng.choice(["ENABLED", "DISABLED"])},
        })
    cap = [{"capacityUnit": t, "maxCapacity": rng.randint(1, 14)} for t in types]
    jobs = []
    for j in range(rng.randint(1, 25)):
        job = {
            "jobName": f"j{j}",
            "quotaShareName": rng.choice(shares)["quotaShareName"],
            "schedulingPriority": rng.choice([0, 0, 1, 5, 9]),
            "instanceType": rng.choice(types),
            "instanceCount": rng.choice([1, 1, 2, 3, 4]),
            "submitAt": rng.randint(0, 600),
            "durationSeconds": rng.choice([0, 10, 100, 300, 1000, 5000]),
        }
        if rng.random() < 0.4:
            job["checkpointIntervalSeconds"] = rng.choice([10, 60, 300])
        if rng.random() < 0.2:
            job["preemptionConfiguration"] = {"preemptionRetriesBeforeTermination": rng.randint(0, 2)}
        if rng.random() < 0.1:
            job["timeoutSeconds"] = rng.choice([50, 500, 5000])
        jobs.append(job)
    actions = []
    for _ in range(rng.choice([0, 0, 1, 2, 4])):
        at = rng.randint(0, 1500)
        kind = rng.randint(0, 3)
        if kind == 0:
            actions.append({"at": at, "updateServiceJob": {"jobName": rng.choice(jobs)["jobName"],
                                                            "schedulingPriority": rng.randint(0, 9)}})
        elif kind == 1:
            actions.append({"at": at, "terminateServiceJob": {"jobName": rng.choice(jobs)["jobName"],
                                                               "reason": "manual"}})
        elif kind == 2:
            sh = rng.choice(shares)
            u = {"quotaShareName": sh["quotaShareName"]}
            if rng.random() < 0.6:
                u["capacityLimits"] = [{"capacityUnit": l["capacityUnit"], "maxCapacity": rng.randint(1, 6)}
                                       for l in sh["capacityLimits"]]
            if rng.random() < 0.4:
                u["resourceSharingConfiguration"] = {"strategy": rng.choice(STRATEGIES)}
            if rng.random() < 0.3:
                u["preemptionConfiguration"] = {"inSharePreemption": rng.choice(["ENABLED", "DISABLED"])}
            actions.append({"at": at, "updateQuotaShare": u})
        else:
            actions.append({"at": at, "updateServiceEnvironment": {
                "capacityLimits": [{"capacityUnit": t, "maxCapacity": rng.randint(0, 14)} for t in types]}})
    actions.sort(key=lambda a: a["at"])
    return {
        "formatVersion": 1,
        "settings": settings_variant(rng),
        "serviceEnvironment": {"serviceEnvironmentName": "se", "capacityLimits": cap},
        "quotaShares": shares,
        "jobs": jobs,
        "actions": actions,
    }


def generated(binary, rng, jobs):
    out = subprocess.run(
        [binary, "generate", "--jobs", str(jobs), "--shares", str(rng.randint(2, 20)),
         "--instance-types", str(rng.randint(1, 5)), "--seed", str(rng.randint(0, 10**9)),
         "--checkpoint-percent", str(rng.choice([0, 50, 80, 100])),
         "--load-percent", str(rng.choice([60, 95, 130]))],
        check=True, capture_output=True, text=True).stdout
    s = json.loads(out)
    s.setdefault("settings", {}).update(settings_variant(rng))
    return s


def test_scenarios(tmp):
    """Every scenario the integration tests build and simulate, written out by the test binary."""
    out = os.path.join(tmp, "tests")
    os.makedirs(out)
    env = dict(os.environ, QUOTASIM_KEEP_SCENARIOS=out)
    subprocess.run(["cargo", "test", "-q", "-p", "quotasim-tests", "--test", "main"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    for name in sorted(os.listdir(out)):
        yield f"test-{name}", open(os.path.join(out, name)).read()


def large(old, rng):
    for jobs in (100_000, 1_000_000):
        out = subprocess.run(
            [old, "generate", "--jobs", str(jobs), "--shares", "20", "--instance-types", "5",
             "--seed", str(rng.randint(0, 10**9))], check=True, capture_output=True, text=True).stdout
        yield f"large-{jobs}", out


def corpus(old, count, seed, with_tests, with_large, tmp):
    rng = random.Random(seed)
    if with_tests:
        yield from test_scenarios(tmp)
    if with_large:
        yield from large(old, random.Random(seed))
    for name in sorted(os.listdir(os.path.join(ROOT, "tests", "fixtures"))):
        yield name, open(os.path.join(ROOT, "tests", "fixtures", name)).read()
    presets = os.path.join(ROOT, "www", "presets")
    for name in sorted(os.listdir(presets)):
        if name.endswith(".json"):
            yield name, open(os.path.join(presets, name)).read()
    sizes = [50, 200, 1000, 5000, 20000]
    for i in range(count):
        if i % 4 == 0:
            s = generated(old, rng, rng.choice(sizes))
            yield f"generated-{i}", json.dumps(s)
        else:
            yield f"random-{i}", json.dumps(small_scenario(rng))


def run(binary, path, summary):
    args = [binary, "run", path] + (["--summary"] if summary else [])
    p = subprocess.run(args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def out(binary, args):
    p = subprocess.run([binary] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def bridge_runs(old, new, path, tmp):
    """The bridges on one scenario, with both binaries: its events as EventBridge lines, those
    imported back as a whole history, with `--observed` and as the state at a mid instant; its
    exports; the Kueue export imported back. Yields (what, same?)."""
    for args in (["export", "cloudformation", path], ["export", "cloudformation", "--yaml", path],
                 ["export", "aws-cli", path], ["export", "kueue", path]):
        yield " ".join(args[:2]), out(old, args) == out(new, args)
    events = out(old, ["run", path, "--events-format", "eventbridge"])
    yield "run --events-format eventbridge", events == out(new, ["run", path, "--events-format", "eventbridge"])
    if events[0] == 0 and events[1]:
        ev = os.path.join(tmp, "events.jsonl")
        with open(ev, "wb") as f:
            f.write(events[1])
        lines = [json.loads(l) for l in events[1].splitlines() if l.strip()]
        times = sorted(l["time"] for l in lines if isinstance(l, dict) and "time" in l)
        results = []
        for b in (old, new):
            obs = os.path.join(tmp, "observed.json")
            r = out(b, ["import", "aws", ev, "--observed", obs])
            results.append((r, open(obs, "rb").read() if os.path.exists(obs) else b""))
            if os.path.exists(obs):
                os.remove(obs)
        yield "import aws --observed", results[0] == results[1]
        if times:
            mid = times[len(times) // 2]
            at = calendar.timegm(time.strptime(mid[:19], "%Y-%m-%dT%H:%M:%S")) * 1000
            args = ["import", "aws", ev, "--state-at", str(at)]
            yield "import aws --state-at", out(old, args) == out(new, args)
    k = out(old, ["export", "kueue", path])
    if k[0] == 0:
        y = os.path.join(tmp, "kueue.yaml")
        with open(y, "wb") as f:
            f.write(k[1])
        args = ["import", "kueue", y]
        yield "import kueue", out(old, args) == out(new, args)


def study_runs(old, new, path, text, tmp):
    """The studies on one scenario, with both binaries: `check`, `compare --set` (json, text and
    csv), a sweep (jsonl and csv), `eta` from its start, `why` for its first job and
    `recommend` over a small space. Yields (what, same?)."""
    def same(args):
        return out(old, args) == out(new, args)

    sets = ["--set", "settings.preemptionGraceSeconds=30",
            "--set", "quotaShares[*].preemptionConfiguration.inSharePreemption=ENABLED"]
    for fmt in ("json", "text", "csv"):
        yield f"compare --format {fmt}", same(["compare", path] + sets + ["--format", fmt])
    objectives = os.path.join(tmp, "objectives.json")
    with open(objectives, "w") as f:
        json.dump({"formatVersion": 1, "objectives": [
            {"metric": "perQuotaShare.*.waitSeconds.p95", "max": 7200},
            {"metric": "overall.utilization", "min": 0.3}]}, f)
    yield "check", same(["check", path, "--objectives", objectives, "--format", "json"])
    sweep = os.path.join(tmp, "sweep.json")
    with open(sweep, "w") as f:
        json.dump({"formatVersion": 1, "base": path,
                   "axes": [{"path": "settings.preemptionGraceSeconds", "values": [0, 300]},
                            {"path": "settings.backfill", "values": [True, False]}],
                   "frontier": ["overall.utilization:max", "overall.waitSeconds.p95:min"]}, f)
    for fmt in ("jsonl", "csv"):
        yield f"sweep --format {fmt}", same(["sweep", sweep, "--threads", "1", "--format", fmt])
    yield "eta", same(["eta", path, "--replicates", "8", "--threads", "1", "--format", "json"])
    try:
        jobs = json.loads(text).get("jobs") or []
    except ValueError:
        jobs = []
    if jobs and isinstance(jobs[0], dict) and "jobName" in jobs[0]:
        yield "why", same(["why", path, "--job", jobs[0]["jobName"], "--max-runs", "12", "--format", "json"])
    yield "recommend", same(["recommend", path, "--objectives", objectives, "--max-runs", "24",
                             "--threads", "1", "--format", "json"])


def trace_runs(old, new, tmp):
    """`import trace` on the openb pod lists and the test excerpt, with several option sets."""
    files = [os.path.join(ROOT, "tests", "fixtures", "openb-excerpt.csv")]
    openb = os.path.join(ROOT, "..", "shared", "traces", "alibaba-gpu-v2023-openb")
    if os.path.isdir(openb):
        files += sorted(os.path.join(openb, f) for f in os.listdir(openb) if f.startswith("openb_pod_list"))
    cap = os.path.join(tmp, "capacity.csv")
    with open(cap, "w") as f:
        f.write("team,gpus\nLS,40\nBE,17.5\nGuaranteed,0\nExtra,3\nother,0\n")
    variants = [[], ["--gpus-per-instance", "4"], ["--from", "0", "--to", "2000000"],
                ["--instances", "12"], ["--instances", "1"], ["--instance-type", "ml.p4d.24xlarge", "--gpus-per-instance", "8"],
                ["--capacity", cap], ["--capacity", cap, "--teams", "LS=latency,BE=batch"],
                ["--columns", "priority=qos", "--priorities", "LS=5,BE=1,Burstable=2,Guaranteed=9"],
                ["--min-gpus", "2", "--max-duration", "3600", "--min-duration", "60"],
                ["--columns", "start=nosuchcolumn"]]
    for f in files:
        for v in variants:
            args = ["import", "trace", "--format", "openb", f] + v
            yield os.path.basename(f) + " " + " ".join(v), out(old, args) == out(new, args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--with-tests", action="store_true",
                    help="also every scenario the integration tests simulate (runs cargo test)")
    ap.add_argument("--large", action="store_true", help="also generated scenarios of 100k and 1M jobs")
    ap.add_argument("--studies", action="store_true",
                    help="also compare, check, sweep, eta, why and recommend on the scenarios the bridges run on")
    a = ap.parse_args()
    diffs = 0
    n = 0
    bridged = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in corpus(a.old, a.count, a.seed, a.with_tests, a.large, tmp):
            path = os.path.join(tmp, "scenario.json")
            with open(path, "w") as f:
                f.write(text)
            checks = [(f"run (summary={s})", run(a.old, path, s) == run(a.new, path, s)) for s in (False, True)]
            if not name.startswith(("random-", "test-", "large-")) or bridged % 10 == 0:
                checks += list(bridge_runs(a.old, a.new, path, tmp))
                if a.studies and not name.startswith("large-"):
                    checks += list(study_runs(a.old, a.new, path, text, tmp))
            if name.startswith(("random-", "test-")):
                bridged += 1
            for what, same in checks:
                n += 1
                if not same:
                    diffs += 1
                    if diffs <= 10:
                        keep = os.path.join(tmp, "..", f"quotasim-diff-{name}.json")
                        with open(keep, "w") as f:
                            f.write(text)
                        print(f"differs: {name} ({what}); scenario kept in {os.path.abspath(keep)}")
        for what, same in trace_runs(a.old, a.new, tmp):
            n += 1
            if not same:
                diffs += 1
                print(f"differs: import trace {what}")
    print(f"{n - diffs} identical, {diffs} different ({n} runs)")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
