"""How long a child process has run and waited: its CPU seconds and the seconds it queued for a
CPU, read afresh from Linux's ``/proc/<pid>/schedstat``, so that a time limit counts what the
child used rather than what a loaded machine kept it from using. Both the child that runs the
checks (`scratchgrad.exercises.isolated`) and the reader process (`scratchgrad.exercises.remote`)
are timed this way; where the system does not tell, their limits fall back to the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

__all__ = ["child_clocks"]


def child_clocks(pid: int) -> Callable[[], tuple[float, float]] | None:
    """(CPU seconds, seconds queued for a CPU) of process `pid` so far, read afresh at each call
    from Linux's ``/proc/<pid>/schedstat``; None where the system does not tell."""
    stat = Path(f"/proc/{pid}/schedstat")

    def read() -> tuple[float, float]:
        try:
            cpu, queued = stat.read_text(encoding="ascii").split()[:2]
        except (OSError, ValueError):
            return (0.0, 0.0)  # the child has just ended: poll() says so next
        return int(cpu) / 1e9, int(queued) / 1e9

    try:
        stat.read_text(encoding="ascii")
    except OSError:
        return None
    return read
