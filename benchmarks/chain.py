"""Deep graphs: a 1,000,000-node chain in scratchgrad, and the depth at which micrograd fails.

Run as a script, in a fresh process so that the peak memory it reports belongs to the chain
alone (`run.py` starts it as a subprocess and reads the JSON it prints)::

    python benchmarks/chain.py scratchgrad [length]   # times and peak RSS of a chain
    python benchmarks/chain.py micrograd               # smallest chain micrograd cannot backprop
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable

CHAIN_LENGTH = 1_000_000


def peak_rss_mib() -> float:
    """This process's peak resident memory so far (Linux reports ru_maxrss in KiB)."""
    import resource  # not in Pyodide, which runs `timed_chain` only

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mib() -> float:
    """This process's resident memory now (Linux /proc), to tell the graph from backward's extra."""
    with open("/proc/self/statm") as statm:
        resident_pages = int(statm.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def scratchgrad_chain(length: int = CHAIN_LENGTH) -> dict[str, float]:
    """`timed_chain` in this process, with its peak RSS (and the RSS once the graph is built)."""
    rss_before = peak_rss_mib()
    result = timed_chain(length, memory_mib=current_rss_mib)
    return {
        **result,
        "peak_rss_mib": peak_rss_mib(),
        "rss_before_mib": rss_before,
        "rss_after_build_mib": result.pop("memory_after_build_mib"),
    }


def timed_chain(length: int, memory_mib: Callable[[], float]) -> dict[str, float]:
    """Build ``x = x * 1.0001`` `length` times, backpropagate, drop it: seconds of each.

    Backward also gets its CPU time, steadier than wall-clock time on a shared machine;
    `memory_mib` is read once the graph is built. Pure Python: inside Pyodide too.
    """
    from scratchgrad import Value

    start = time.perf_counter()
    x = first = Value(1.0)
    for _ in range(length):
        x = x * 1.0001
    built = time.perf_counter()
    memory_built = memory_mib()
    cpu_start = time.process_time()
    x.backward()
    backward_cpu = time.process_time() - cpu_start
    backpropagated = time.perf_counter()
    del x
    dropped = time.perf_counter()
    expected = 1.0001**length
    return {
        "length": length,
        "build_seconds": built - start,
        "backward_seconds": backpropagated - built,
        "backward_cpu_seconds": backward_cpu,
        "drop_seconds": dropped - backpropagated,
        "memory_after_build_mib": memory_built,
        "gradient_relative_error": abs(first.grad - expected) / expected,
    }


def micrograd_chain_backprops(length: int) -> bool:
    """Whether micrograd's recursive backward survives a chain of `length` multiplications."""
    from micrograd.engine import Value

    x = Value(1.0)
    for _ in range(length):
        x = x * 1.0001
    try:
        x.backward()
    except RecursionError:
        return False
    return True


def micrograd_failure_depth(upper: int = 10_000) -> dict[str, int]:
    """The shortest chain whose backward raises RecursionError in micrograd (bisection)."""
    works, fails = 1, upper
    if not micrograd_chain_backprops(works) or micrograd_chain_backprops(fails):
        raise RuntimeError(f"micrograd should handle a chain of {works} and fail on {fails}")
    while fails - works > 1:
        middle = (works + fails) // 2
        if micrograd_chain_backprops(middle):
            works = middle
        else:
            fails = middle
    return {"failure_depth": fails, "recursion_limit": sys.getrecursionlimit()}


def main(argv: list[str]) -> None:
    engine, *rest = argv
    if engine == "scratchgrad":
        result = scratchgrad_chain(int(rest[0]) if rest else CHAIN_LENGTH)
    elif engine == "micrograd":
        result = micrograd_failure_depth()
    else:
        raise SystemExit(f"usage: chain.py scratchgrad [length] | chain.py micrograd (got {engine!r})")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
