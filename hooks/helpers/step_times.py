"""Where a build's time goes: the steps the hooks time themselves, for hooks/timings.py to print.

A hook wraps a costly step in ``with step_times.step("run blocks", page)``; nothing is recorded
unless ``SCRATCHGRAD_TIMINGS`` is set (``make docs TIMINGS=1``), so a normal build pays one
environment look-up per step.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

ENABLED = bool(os.environ.get("SCRATCHGRAD_TIMINGS"))

steps: dict[str, float] = defaultdict(float)
"""Seconds per step, summed over the build."""
counts: dict[str, int] = defaultdict(int)
by_page: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
"""Seconds per page, per step."""


@contextmanager
def step(name: str, page: str | None = None) -> Iterator[None]:
    """Time the body as step `name` (of `page`, if it is a page's) when timings are on."""
    if not ENABLED:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        record(name, time.perf_counter() - start, page)


def record(name: str, seconds: float, page: str | None = None) -> None:
    steps[name] += seconds
    counts[name] += 1
    if page is not None:
        by_page[page][name] += seconds


def reset() -> None:
    """Start a new build's figures (`mkdocs serve` builds many times in one process)."""
    steps.clear()
    counts.clear()
    by_page.clear()
