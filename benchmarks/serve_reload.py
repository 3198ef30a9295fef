"""How long a running `mkdocs serve` takes from an edit to the reload: a prose edit and a block edit.

Starts ``mkdocs serve`` on PORT (default 8100), waits for it to answer, then REPEATS times (3) each: adds a
line of prose to docs/notation.md, and a comment to the first block of docs/backprop-by-hand.md,
timing from the file's write to the server's "Reloading browsers". Every edit is undone (and its
rebuild waited for) before the next; the files are restored however the run ends. Prints each time
and the medians, with the load average. The server runs as ``make serve`` runs it (``--dirty``:
a rebuild renders only the edited page, hooks/changed_pages.py); ``SERVE_OPTIONS=`` (empty) gives
the figures of a server that renders every page on every rebuild, and ``SCRATCHGRAD_BUILD_CACHE=off``
those without the build cache, for the side-by-side. With ``SCRATCHGRAD_TIMINGS=1`` it prints each
rebuild's time and CPU time too (on a busy machine, the CPU time is what the rebuild itself costs).

    .venv/bin/python benchmarks/serve_reload.py [PORT [REPEATS]]
"""

from __future__ import annotations

import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITS = {
    "prose": (ROOT / "docs" / "notation.md", "\n\nA sentence added to time a rebuild.\n", None),
    "block": (
        ROOT / "docs" / "backprop-by-hand.md",
        "```python run\n",
        "```python run\n# timing the rebuild\n",
    ),
}


def lines_of(process: subprocess.Popen) -> queue.Queue:
    """The server's log, line by line, as it comes."""
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue, marker: str, limit: float = 900) -> None:
    deadline = time.monotonic() + limit
    while True:
        line = lines.get(timeout=max(deadline - time.monotonic(), 0.1))
        if "ERROR" in line or "Aborted" in line:
            raise RuntimeError(f"the server's build failed: {line.strip()}")
        if "== build timings" in line:  # SCRATCHGRAD_TIMINGS=1: each rebuild's time and CPU time
            print("   ", line.strip(), flush=True)
        if marker in line:
            return


def edited(text: str, kind: str) -> str:
    _, added, replacement = EDITS[kind]
    return text + added if replacement is None else text.replace(added, replacement, 1)


def main() -> None:
    port = sys.argv[1] if len(sys.argv) > 1 else "8100"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    originals = {kind: path.read_text() for kind, (path, _, _) in EDITS.items()}
    options = os.environ.get("SERVE_OPTIONS", "--dirty").split()
    command = [str(ROOT / ".venv" / "bin" / "mkdocs"), "serve", *options, "--dev-addr", f"127.0.0.1:{port}"]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = lines_of(server)
    times: dict[str, list[float]] = {kind: [] for kind in EDITS}
    try:
        started = time.monotonic()
        wait_for(lines, "Serving on")
        print(f"first build and serving: {time.monotonic() - started:.1f} s", flush=True)
        for _ in range(repeats):
            for kind, (path, _, _) in EDITS.items():
                time.sleep(1.5)  # the watcher's quiet period after the last rebuild
                began = time.monotonic()
                path.write_text(edited(originals[kind], kind))
                wait_for(lines, "Reloading browsers")
                times[kind].append(time.monotonic() - began)
                print(f"{kind} edit -> reload: {times[kind][-1]:.1f} s", flush=True)
                time.sleep(1.5)
                path.write_text(originals[kind])
                wait_for(lines, "Reloading browsers")
    finally:
        for kind, (path, _, _) in EDITS.items():
            path.write_text(originals[kind])
        server.terminate()
        server.wait(timeout=30)
    for kind, measured in times.items():
        print(f"median {kind} edit -> reload: {statistics.median(measured):.1f} s of {measured}")
    print("load average:", " ".join(f"{load:.2f}" for load in os.getloadavg()))


if __name__ == "__main__":
    main()
