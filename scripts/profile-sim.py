#!/usr/bin/env python3
"""Where the simulation's time goes: samples `quotasim bench` with perf (DWARF call graphs)
and charges each sample taken inside `Simulation::run` to the innermost engine module on its
stack (`sim::ledger`, `sim::pass`, ...), or to the allocator, memcpy or page faults called
from it. Samples outside the run (generating and validating the workload) are counted apart.

Usage: scripts/profile-sim.py [--jobs N] [--repeat R] [path/to/quotasim]
The binary should carry debug information: `cargo build --profile profiling -p quotasim-cli`
(the default path is that build's).
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile


def category(frames):
    """The innermost engine module of a sample's stack, with what it called into."""
    if any("page_fault" in f for f in frames):
        return "page faults (first touch of new memory)"
    module = None
    for f in frames:
        m = re.search(r"kernel::sim::(\w+)", f)
        if m:
            module = "sim::" + m.group(1)
            break
    module = module or frames[0].strip()[:50]
    leaf = frames[0]
    if "memmove" in leaf or "memcpy" in leaf:
        return f"memcpy (from {module})"
    if "malloc" in leaf or "free" in leaf or "realloc" in leaf:
        return f"allocator (from {module})"
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", default="100000")
    ap.add_argument("--repeat", default="3")
    ap.add_argument("binary", nargs="?", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "profiling", "quotasim"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "perf.data")
        subprocess.run(
            ["perf", "record", "--call-graph", "dwarf,16384", "-F", "3000", "-o", data, a.binary, "bench", "--jobs", a.jobs, "--repeat", a.repeat],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], check=True, capture_output=True, text=True).stdout
    phases = collections.Counter()
    inside = collections.Counter()
    for block in out.split("\n\n"):
        frames = [l.strip().split(" ", 1)[-1] for l in block.strip().split("\n") if l.strip()]
        if not frames:
            continue
        phase = "other"
        for f in frames:
            if "Simulation::run" in f or "Simulation::step" in f:
                phase = "simulate"
                break
            if "generate" in f:
                phase = "generate the workload"
                break
            if "validate" in f:
                phase = "validate"
                break
        phases[phase] += 1
        if phase == "simulate":
            inside[category(frames)] += 1
    total, sim = sum(phases.values()), phases["simulate"]
    if not sim:
        sys.exit("no sample inside Simulation::run: is the binary built with debug information?")
    print(f"{total} samples, bench --jobs {a.jobs} --repeat {a.repeat}")
    for k, v in phases.most_common():
        print(f"  {100 * v / total:5.1f} %  {k}")
    print(f"inside the simulation ({sim} samples), by innermost engine module:")
    for k, v in inside.most_common():
        if 100 * v / sim >= 0.5:
            print(f"  {100 * v / sim:5.1f} %  {k}")


if __name__ == "__main__":
    main()
