"""Where one Playground step with "Engine: yours" goes, part by part (issue 31).

The panel (`scratchgrad.playground.panel.PanelSession`) is set up as the worker sets it up: the
moons preset, "Engine: yours" with the exercises' reference pieces passed. Each measured step is
taken in the parts `YourTrainer.step` and the panel take it in, each timed on its own:

- ``accuracy``: the accuracy of the step's batch, on the model as the step finds it (`predict_all`);
- ``train``: the reader's ``train(model, xs, ys, 1, lr)``, with the cyclic collector paused;
- ``collect``: ``gc.collect(0)`` on what the reader's step left (``found``: how many objects);
- ``pace``: the book's engine's share of a step (`EnginePace.measure`);
- ``frame``: the frame the worker posts, as JSON (weights copied, the records).

Then, taking turns with those, whole steps as the worker takes them (``session.train_for``): its
time minus the parts is what else a step costs. This module is pure Python: it runs in CPython
(``python benchmarks/yours_step.py``) and inside Pyodide (``node benchmarks/yours_step.mjs``).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable

from scratchgrad.losses import accuracy
from scratchgrad.playground import PRESETS, PanelSession, predict_all, to_query
from scratchgrad.playground.your_engine import ENGINE_PIECES

PRESET = "moons"
PARTS = ("accuracy", "train", "collect", "pace", "frame")

cpu_clock: Callable[[], float] = time.process_time
"""Seconds of CPU time; inside Pyodide yours_step.mjs puts Node's ``process.cpuUsage()`` here."""


def reference_work() -> dict[str, str]:
    """Every piece of the reader's engine, passed with the exercises' reference solutions."""
    return {piece.id: piece.solution for piece in ENGINE_PIECES}


def session_for(batch_size: int | None) -> PanelSession:
    """A panel on the moons preset with "Engine: yours" and the given batch size."""
    settings = dataclasses.replace(PRESETS[PRESET], engine="yours", batch_size=batch_size)
    session = PanelSession()
    answer = json.loads(session.configure(to_query(settings), "", json.dumps(reference_work())))
    if answer["problems"]:
        raise SystemExit(f"the panel refused the settings: {answer['problems']}")
    return session


def timed(clock_ms: dict[str, list[float]], part: str, action: Callable[[], object]) -> object:
    start = cpu_clock()
    result = action()
    clock_ms.setdefault(part, []).append(1000 * (cpu_clock() - start))
    return result


def step_in_parts(session: PanelSession, clock_ms: dict[str, list[float]]) -> int:
    """One step, part by part as `YourTrainer.step` and the panel take it; returns what was collected."""
    trainer = session.stepper.trainer
    batches = getattr(trainer, "batches", None)  # None before the reader's engine took batches
    batch = batches.next() if batches else range(len(trainer.xs))
    xs, ys = [trainer.xs[i] for i in batch], [trainer.ys[i] for i in batch]
    timed(clock_ms, "accuracy", lambda: accuracy(predict_all(trainer.model, xs), ys))
    train, collect = (lambda: trainer.train(trainer.model, xs, ys, 1, trainer.lr)), (lambda: gc.collect(0))
    gc.disable()  # and enabled again only after the collection: the first allocation would start one
    try:
        timed(clock_ms, "train", train)
        found = timed(clock_ms, "collect", collect)
    finally:
        gc.enable()
    timed(clock_ms, "pace", session.pace.measure)
    timed(clock_ms, "frame", lambda: session._frame_json([]))
    return found


def breakdown(steps: int = 12, warm_up: int = 3, batch_size: int | None = None) -> dict:
    """Median CPU ms of each part of a step, of a whole step, and the rest; `steps` of each, in turns."""
    parts_session, whole_session = session_for(batch_size), session_for(batch_size)
    for _ in range(warm_up):
        step_in_parts(parts_session, {})
        whole_session.train_for(1)
    clock_ms: dict[str, list[float]] = {}
    found = []
    for _ in range(steps):
        found.append(step_in_parts(parts_session, clock_ms))
        timed(clock_ms, "step", lambda: whole_session.train_for(1))
    medians = {part: statistics.median(ms) for part, ms in clock_ms.items()}
    medians["pace_mean"] = statistics.fmean(clock_ms["pace"])  # the book's steps come now and then
    medians["rest"] = medians["step"] - sum(medians[part] for part in PARTS)
    return {
        "python": sys.version.split()[0],
        "batch_size": batch_size,
        "steps": steps,
        "cpu_ms": {part: round(ms, 2) for part, ms in medians.items()},
        "collected_objects": statistics.median(found),
        "gc_threshold": gc.get_threshold(),
    }


if __name__ == "__main__":
    print(json.dumps(breakdown(batch_size=int(sys.argv[1]) if len(sys.argv) > 1 else None)))
