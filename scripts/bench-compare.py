#!/usr/bin/env python3
"""Compares the speed of two builds of `quotasim`, side by side in the same minutes.

    scripts/bench-compare.py OLD_BINARY NEW_BINARY [--jobs 1000000] [--rounds 5] [--at-once 10000]
                             [--file SCENARIO.json]

1. The simulation alone (`quotasim bench --jobs N --repeat 1`, both modes: events recorded
   and counted), the two binaries alternating, `--rounds` times each; the best of the rounds
   is reported for each binary.
2. Jobs all submitted at one instant (t = 0 of presets, imports and forks, where borrowers
   are dispatched one per pass): the benchmark workload of `--at-once` jobs with every
   `submitAt` set to 0, run whole by `quotasim run --summary FILE` (parse, simulate, print),
   alternating, best of the rounds.
3. With `--file` (the 1,000,000-job benchmark file: `quotasim generate --jobs 1000000
   --shares 20 --instance-types 5 --seed 7`): the whole process, `run --summary FILE` and
   `validate FILE`, alternating, best of the rounds for the time and for the peak resident
   memory (the kernel's maximum resident set of the process, in kB as GNU time prints it).

Prints a Markdown table with the ratio new / old. Benchmarks measure; nothing here fails
on a figure. Run it on a quiet machine.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def bench(binary, jobs):
    out = subprocess.run([binary, "bench", "--jobs", str(jobs), "--repeat", "1"],
                         check=True, capture_output=True, text=True).stdout
    ms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[1] in ("recorded", "counted"):
            ms[f[1]] = float(f[3])
    return ms


def timed_run(binary, path):
    t0 = time.perf_counter()
    subprocess.run([binary, "run", "--summary", path], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1e3


def process(binary, args):
    """Wall milliseconds and peak resident kB of one run of `binary args`."""
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    ms = (time.perf_counter() - t0) * 1e3
    if status != 0:
        sys.exit(f"{binary} {' '.join(args)} failed ({status})")
    return ms, usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--at-once", type=int, default=10_000)
    ap.add_argument("--file")
    a = ap.parse_args()
    best = {}
    for _ in range(a.rounds):
        for name, binary in (("old", a.old), ("new", a.new)):
            for mode, ms in bench(binary, a.jobs).items():
                key = (name, mode)
                best[key] = min(best.get(key, ms), ms)
    gen = subprocess.run([a.new, "generate", "--jobs", str(a.at_once), "--shares", "20",
                          "--instance-types", "5", "--seed", "42"],
                         check=True, capture_output=True, text=True).stdout
    scenario = json.loads(gen)
    for j in scenario["jobs"]:
        j["submitAt"] = 0
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
        path = f.name
    try:
        for _ in range(a.rounds):
            for name, binary in (("old", a.old), ("new", a.new)):
                key = (name, "at-once")
                ms = timed_run(binary, path)
                best[key] = min(best.get(key, ms), ms)
    finally:
        os.unlink(path)
    whole = [(["run", "--summary"], "run"), (["validate"], "validate")] if a.file else []
    for _ in range(a.rounds):
        for name, binary in (("old", a.old), ("new", a.new)):
            for args, mode in whole:
                ms, kb = process(binary, [*args, a.file])
                for key, v in (((name, mode), ms), ((name, mode + "-kB"), kb)):
                    best[key] = min(best.get(key, v), v)
    print(f"| measure (best of {a.rounds}) | old ms | new ms | new / old |")
    print("|---|---|---|---|")
    rows = [
        ("recorded", f"`bench --jobs {a.jobs}`, events recorded"),
        ("counted", f"`bench --jobs {a.jobs}`, events counted"),
        ("at-once", f"`run --summary`, {a.at_once} jobs at t = 0"),
    ]
    for _, mode in whole:
        rows.append((mode, f"`{mode}` of {os.path.basename(a.file)}, whole process"))
        rows.append((mode + "-kB", f"`{mode}` of {os.path.basename(a.file)}, peak resident kB"))
    for mode, label in rows:
        o, n = best[("old", mode)], best[("new", mode)]
        print(f"| {label} | {o:.1f} | {n:.1f} | {n / o:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
