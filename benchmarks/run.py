"""`make bench`: scratchgrad against micrograd 0.1.0, measured side by side in one run.

Prints, and saves to benchmarks/results/latest.json:

1. a 1,000,000-node chain in scratchgrad: backward time (target < 0.8 s) and peak RSS
   (target < 300 MiB), in a fresh process; and the chain length at which micrograd's
   recursive backward raises RecursionError;
2. W1 (micrograd's demo, see w1.py) on this CPython: micrograd, scratchgrad's own API and
   micrograd's notebook on scratchgrad, interleaved; median seconds per step and the ratios
   (targets ≥ 80× and ≥ 65×), after checking that every loss trajectory agrees with
   micrograd's to 1e-9 from the same initial weights; what the cyclic garbage collector
   costs each; where a scratchgrad step spends its time;
3. the nodes in one W1 step's graph, for each engine;
4. W1 inside Pyodide under Node, the same three interleaved (target ≥ 25× for scratchgrad's
   own API), and the 1,000,000-node chain there (backward time, WebAssembly memory).

Speed targets are reported, not enforced: timings on a shared machine are noisy. The run
fails (exit 1) only when a result is wrong: trajectories that disagree, a wrong gradient.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import w1

HERE = Path(__file__).parent
RESULTS = HERE / "results" / "latest.json"
W1_RATIO_TARGETS = {"scratchgrad": 80, "scratchgrad_notebook": 65}  # × micrograd, wall-clock
PYODIDE_RATIO_TARGETS = {"scratchgrad": 25}
CHAIN_BACKWARD_TARGET_SECONDS = 0.8
CHAIN_RSS_TARGET_MIB = 300


def run_json(command: list[str]) -> dict:
    """Run `command` and parse the JSON of its last line of output."""
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{completed.stdout}\n{completed.stderr}")
    return json.loads(completed.stdout.splitlines()[-1])


def verdict(ok: bool) -> str:
    return "meets target" if ok else "BELOW TARGET"


def report_w1(title: str, result: dict, targets: dict[str, float]) -> None:
    medians = result["median_step_seconds"]
    print(f"\n{title}: {result['repeats']} interleaved runs × {result['steps']} steps per engine")
    cpu_medians = result["median_step_cpu_seconds"]
    print(f"  {'':<28} {'wall ms/step':>14} {'CPU ms/step':>14}   (medians)")
    for engine, seconds in medians.items():
        print(f"  {engine:<28} {seconds * 1000:14.2f} {cpu_medians[engine] * 1000:14.2f}")
    for engine, ratio in result["ratios"].items():
        target = targets.get(engine)
        against = f"(target ≥ {target}×, wall: {verdict(ratio >= target)})" if target else "(no target)"
        print(f"  {'ratio ' + engine:<28} {ratio:13.1f}× {result['cpu_ratios'][engine]:13.1f}×   {against}")
    agree = "agree" if result["trajectories_agree"] else "DISAGREE"
    print(
        f"  loss trajectories {agree} with micrograd's: worst relative difference "
        f"{result['worst_relative_loss_difference']:.1e} (tolerance {w1.TRAJECTORY_TOLERANCE:.0e})"
    )


def report_gc_share(result: dict) -> None:
    for name, seconds in result["median_step_cpu_seconds_without_gc"].items():
        share = 1 - seconds / result["median_step_cpu_seconds"][name]
        print(f"  {name:<12} {seconds * 1000:14.2f} CPU ms/step, cyclic GC paused (its share {share:.0%})")


def report_phases(phases: dict[str, float]) -> None:
    print("  scratchgrad step, median CPU ms per phase (backward sorts again, then walks what it sorted):")
    print("    " + "  ".join(f"{name} {seconds * 1000:.2f}" for name, seconds in phases.items()))


def measure_chains() -> tuple[dict, dict]:
    """The 1M-node chain in scratchgrad and micrograd's failure depth, each in a fresh process."""
    chain = run_json([sys.executable, str(HERE / "chain.py"), "scratchgrad"])
    depth = run_json([sys.executable, str(HERE / "chain.py"), "micrograd"])
    print(f"\n{chain['length']:,}-node chain in scratchgrad (fresh process):")
    print(f"  build {chain['build_seconds']:.2f} s, drop {chain['drop_seconds']:.2f} s")
    backward_ok = chain["backward_seconds"] < CHAIN_BACKWARD_TARGET_SECONDS
    print(
        f"  backward {chain['backward_seconds']:.2f} s ({chain['backward_cpu_seconds']:.2f} s CPU) "
        f"(target < {CHAIN_BACKWARD_TARGET_SECONDS} s: {verdict(backward_ok)})"
    )
    rss_ok = chain["peak_rss_mib"] < CHAIN_RSS_TARGET_MIB
    print(
        f"  peak RSS {chain['peak_rss_mib']:.0f} MiB (graph built: {chain['rss_after_build_mib']:.0f} MiB; "
        f"target < {CHAIN_RSS_TARGET_MIB} MiB: {verdict(rss_ok)})"
    )
    print(
        f"micrograd 0.1.0: RecursionError from a chain of {depth['failure_depth']} nodes "
        f"(recursion limit {depth['recursion_limit']})"
    )
    return chain, depth


def measure_w1_on_cpython(repeats: int, steps: int) -> dict:
    """W1 interleaved on this CPython, the GC's share, a scratchgrad step's phases, graph sizes."""
    results: dict = {"w1_cpython": w1.interleaved(repeats, steps)}
    report_w1(f"W1 on CPython {platform.python_version()}", results["w1_cpython"], W1_RATIO_TARGETS)
    results["w1_cpython"]["median_step_cpu_seconds_without_gc"] = {
        name: w1.median_step_cpu_without_gc(name) for name in w1.ENGINES
    }
    report_gc_share(results["w1_cpython"])
    results["scratchgrad_step_phases"] = w1.scratchgrad_phases()
    report_phases(results["scratchgrad_step_phases"])
    counts = results["w1_graph_nodes"] = w1.node_counts()
    print("\nnodes in one W1 step's graph: " + ", ".join(f"{name} {n:,}" for name, n in counts.items()))
    return results


def measure_w1_in_pyodide(repeats: int, steps: int) -> dict:
    """W1 interleaved inside Pyodide under Node, and a scratchgrad step's phases there."""
    pyodide = run_json(["node", str(HERE / "pyodide_w1.mjs"), str(repeats), str(steps)])
    report_w1(f"W1 inside Pyodide (CPython {pyodide['python']}, Node)", pyodide, PYODIDE_RATIO_TARGETS)
    chain = pyodide["chain"]
    print(
        f"  {chain['length']:,}-node chain inside Pyodide: build {chain['build_seconds']:.2f} s, "
        f"backward {chain['backward_seconds']:.2f} s, drop {chain['drop_seconds']:.2f} s; "
        f"WebAssembly memory {chain['memory_before_mib']:.0f} → {chain['memory_peak_mib']:.0f} MiB"
    )
    report_gc_share(pyodide)
    report_phases(pyodide["phases"])
    return pyodide


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3, help="interleaved W1 runs per engine on CPython")
    parser.add_argument("--pyodide-repeats", type=int, default=3, help="the same inside Pyodide")
    parser.add_argument("--steps", type=int, default=w1.STEPS, help="steps per W1 run")
    parser.add_argument("--skip-pyodide", action="store_true", help="leave out the Pyodide measurement")
    args = parser.parse_args()

    results: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "processor": platform.machine(),
            "cpus": len(os.sched_getaffinity(0)),
            "system": platform.platform(),
        },
        "python": platform.python_version(),
    }
    print(f"scratchgrad benchmarks — CPython {results['python']}, {results['machine']['cpus']} CPUs")
    # The chain first: a child process starts with its parent's peak RSS, so start it while ours is small.
    results["chain"], results["micrograd_failure"] = measure_chains()
    results.update(measure_w1_on_cpython(args.repeats, args.steps))
    if not args.skip_pyodide:
        results["w1_pyodide"] = measure_w1_in_pyodide(args.pyodide_repeats, args.steps)

    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nresults saved to {RESULTS.relative_to(HERE.parent)}")

    wrong = [
        name
        for name in ("w1_cpython", "w1_pyodide")
        if name in results and not results[name]["trajectories_agree"]
    ]
    if results["chain"]["gradient_relative_error"] > 1e-9:
        wrong.append("chain gradient")
    if wrong:
        print(f"WRONG RESULTS: {', '.join(wrong)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
