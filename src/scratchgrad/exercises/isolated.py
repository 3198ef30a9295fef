"""The command line's checks, run in a child Python the reader's code cannot take down with it: the
in-process time limit (`scratchgrad.exercises.sandbox`) misses a loop inside one C call and nothing
in a process survives ``os._exit(0)``, so the parent waits at most one piece's time limit (CPU
time where the system tells it, at most `WALL_FACTOR` times that on the clock) for each sign of
life, kills the child past it, and believes a verdict only from the child's one complete record
(every report and the nonce it was given) on a pipe the parent opened; anything else, an exit, a
kill, a record cut short or a second one, is "did not finish". That keeps honest mistakes and stray
writes out, not an adversary who reads the nonce from memory: so the exercises of
`scratchgrad.exercises.remote.ACROSS` are checked here, with only the reader's code in a child
(the verdict out of its reach), and their reports replace the child's. Pyodide cannot start
processes: there `run_checks` runs in this process, guarded by the page's Stop button, and its
verdict only unlocks the reader's own badge.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from scratchgrad.exercises.child_clocks import child_clocks
from scratchgrad.exercises.memory_cap import cap_memory
from scratchgrad.exercises.registry import by_id
from scratchgrad.exercises.remote import ACROSS, check_all_across
from scratchgrad.exercises.report import Report, report_from_dict
from scratchgrad.exercises.runner import earlier_pieces
from scratchgrad.exercises.sandbox import WALL_FACTOR

__all__ = ["DidNotFinish", "run_checks"]

STARTUP_SECONDS = 1.0  # CPU seconds for a child Python's start and import (0.16 s measured)


class DidNotFinish(Exception):  # noqa: N818 (what the reader reads: the check "did not finish")
    """The child ended without its complete record; the message says how, in the reader's terms."""


def run_checks(
    pieces: Mapping[str, str], target: str | None, time_limit: float, seed: int
) -> dict[str, Report]:
    """Check every piece of `pieces` (in story order, each on the passing ones before it), then `target`
    on the passing pieces before it (when given), all with the random cases of `seed`. Returns a
    report per exercise checked."""
    payload = {"pieces": dict(pieces), "target": target, "time_limit": time_limit, "seed": seed}
    if sys.platform == "emscripten":
        return _reports(payload)
    if target in ACROSS:  # checked in this process, on pieces all checked so too: no child needed
        wanted = {piece.id for piece in earlier_pieces(by_id(target))} | {target}
        pieces = {piece: source for piece, source in pieces.items() if piece in wanted}
        return check_all_across(pieces, time_limit=time_limit, seed=seed)
    child = _in_a_child(payload, time_limit)
    if target is not None:
        return child
    return child | check_all_across(pieces, time_limit=time_limit, seed=seed)


def _in_a_child(payload: dict, time_limit: float) -> dict[str, Report]:
    """The reports of `_reports(payload)`, reached in a child Python (`_child`)."""
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="scratchgrad-check-") as folder:
        progress = Path(folder) / "progress"
        reading, writing = os.pipe()
        records = _PipeReader(reading)
        try:
            with subprocess.Popen(
                [sys.executable, "-m", "scratchgrad.exercises.isolated"], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, pass_fds=(writing,),
            ) as child:  # fmt: skip
                os.close(writing)
                child.stdin.write(
                    json.dumps({**payload, "nonce": nonce, "record": writing, "progress": str(progress)})
                )
                child.stdin.close()
                _wait(child, progress, time_limit + STARTUP_SECONDS)
        finally:
            text = records.text()
    data = _one_record(text, nonce)
    if data is None:
        how = f"exit code {child.returncode}" if child.returncode >= 0 else f"signal {-child.returncode}"
        raise DidNotFinish(
            f"did not finish: the check ended ({how}) before it could report — does your code call "
            "os._exit() or exit the process some other way, or was it killed?"
        )
    return {exercise: report_from_dict(report) for exercise, report in data["reports"].items()}


def _wait(child: subprocess.Popen, progress: Path, patience: float) -> None:
    """Wait for `child`; kill it once, without a new report in `progress`, it has used `patience` CPU
    seconds or waited `WALL_FACTOR` times as long (seconds on the clock less those it queued for a
    CPU). Where the system says neither (no /proc), `patience` seconds on the clock."""
    clocks = child_clocks(child.pid)
    wait_patience = patience * WALL_FACTOR if clocks else patience
    last_size, since = -1, (0.0, 0.0, 0.0)
    while child.poll() is None:
        size = progress.stat().st_size if progress.exists() else 0
        now = (time.monotonic(), *(clocks() if clocks else (0.0, 0.0)))
        if size != last_size:
            last_size, since = size, now
            continue
        used, waited = now[1] - since[1], (now[0] - since[0]) - (now[2] - since[2])
        if (clocks and used > patience) or waited > wait_patience:
            child.kill()
            child.wait()
            raise DidNotFinish(_overran(patience, bool(clocks) and used > patience, wait_patience))
        time.sleep(0.05)


def _overran(patience: float, on_cpu: bool, wait_patience: float) -> str:
    if on_cpu:
        return (
            f"did not finish: a check used more than {patience:g} s of CPU time and was stopped — is there a "
            "loop that never ends, perhaps inside one call such as sum(itertools.repeat(0))?"
        )
    return (
        f"did not finish: a check ran longer than {wait_patience:g} s and was stopped — is there a loop "
        "that never ends, or does your code sleep or wait for something?"
    )


class _PipeReader:
    """Everything the child writes on the record pipe, read by a thread as it comes (a record larger
    than the pipe's buffer must not block the child), until the pipe closes."""

    def __init__(self, fd: int) -> None:
        self._fd, self._chunks = fd, []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while chunk := os.read(self._fd, 65536):
            self._chunks.append(chunk)

    def text(self) -> str:
        """What came, once the pipe closed; waits a second at most (a process the reader's code
        started may hold the pipe open), then closes it."""
        self._thread.join(timeout=1.0)
        os.close(self._fd)
        return b"".join(self._chunks).decode("utf-8", errors="replace")


def _one_record(text: str, nonce: str) -> dict | None:
    """The record, if `text` holds exactly one, complete and with `nonce`; else None."""
    lines = [line for line in text.split("\n") if line]
    if len(lines) != 1:
        return None
    try:
        data = json.loads(lines[0])
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("nonce") != nonce or data.get("complete") is not True:
        return None
    return data


def _reports(payload: dict, on_report: Callable[[Report], None] | None = None) -> dict[str, Report]:
    from scratchgrad.exercises import check, check_all

    pieces, target, limit, seed = payload["pieces"], payload["target"], payload["time_limit"], payload["seed"]
    earlier = {piece: source for piece, source in pieces.items() if piece != target}
    reports = check_all(earlier, time_limit=limit, on_report=on_report, seed=seed)
    if target is not None:
        passing = {piece: earlier[piece] for piece, report in reports.items() if report.passed}
        reports[target] = check(target, pieces[target], passing, time_limit=limit, seed=seed)
    return reports


def _child() -> None:
    """In the child: read the payload from stdin, check, write the complete record on the pipe and
    end at once, before any handler or thread the reader's code left behind can run."""
    cap_memory()
    payload = json.loads(sys.stdin.read())
    record, nonce, progress = payload.pop("record"), payload.pop("nonce"), payload.pop("progress")
    as_dict = Report.as_dict  # the reader's code may replace it on the class

    def alive(report: Report) -> None:
        with open(progress, "a", encoding="utf-8") as file:
            file.write(f"{report.exercise}\n")

    reports = _reports(payload, alive)
    data = {"nonce": nonce, "reports": {k: as_dict(r) for k, r in reports.items()}, "complete": True}
    line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
    while line:
        line = line[os.write(record, line) :]
    os._exit(0)


if __name__ == "__main__":
    _child()
