"""How busy a browser keeps the machine: CPU time of a process and all its descendants, from /proc.

Stop must free the CPU (issue 14): in WebKit, worker.terminate() alone once left a WebAssembly
loop spinning on a core after Stop. Reading the whole process tree catches that wherever the
engine runs its workers (content, web or worker processes).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        tree.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return tree


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds used so far by `root` and every live descendant."""
    tree, total, todo = _children(), 0.0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(tree.get(pid, []))
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return total


def cores_busy(root: int, seconds: float) -> float:
    """How many cores `root`'s process tree kept busy on average over the next `seconds`."""
    before, started = tree_cpu_seconds(root), time.monotonic()
    time.sleep(seconds)
    return (tree_cpu_seconds(root) - before) / (time.monotonic() - started)
