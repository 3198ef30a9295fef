"""The playground panel's Python side: what the browser's worker calls, text in and JSON text out.

One `PanelSession` serves one panel on the page. Its methods take a URL query
string or numbers and answer with a JSON string, so nothing but plain text
crosses between JavaScript and Python, and the whole exchange can be tested
here in CPython. Numbers that are not finite (a diverged run) travel as null.

A configured session answers with a *frame* after every action::

    {"steps": 12, "loss": 0.41, "accuracy": 0.87,       # the last step (or the untrained net)
     "records": [[loss, accuracy], …],                    # every step taken by this action
     "note": null or "Training diverged at step …",
     "layers": [{"activation", "weights", "biases"}, …], # for the decision-boundary picture
     "scores": null or [score, …]}                        # per point, for the 3-D four points
"""

from __future__ import annotations

import json
import math
from typing import Any

from scratchgrad.playground.program import generate_code
from scratchgrad.playground.settings import FIELDS, PRESETS, SettingsError, from_query, preset, to_query
from scratchgrad.playground.stepper import Stepper
from scratchgrad.train import StepRecord

__all__ = ["PanelSession", "describe"]


def describe() -> str:
    """The fields (for building the controls) and the presets (as query strings), as JSON."""
    return _json(
        {
            "fields": [spec.describe() for spec in FIELDS],
            "presets": {name: to_query(settings) for name, settings in PRESETS.items()},
        }
    )


class PanelSession:
    """The training behind one panel: configure it with settings, then step, play, reset."""

    def __init__(self) -> None:
        self.stepper: Stepper | None = None

    def configure(self, query: str, preset_name: str = "") -> str:
        """Read settings from `query` (on top of the preset `preset_name`, if given) and start afresh.

        Answers ``{"problems": {field: message}}`` when the settings cannot be
        used (the session keeps no stepper), else ``{"problems": {}, "query":
        the settings written out in full, "unused": the fields that change
        nothing here, "view": the data to draw, "frame": …}``.
        """
        self.stepper = None
        try:
            settings = from_query(query, preset(preset_name) if preset_name else None)
        except SettingsError as error:
            return _json({"problems": error.problems})
        self.stepper = Stepper(settings)
        return _json(
            {
                "problems": {},
                "query": to_query(settings),
                "unused": list(settings.unused()),
                "view": {
                    "inputs": settings.inputs,
                    "classes": settings.classes,
                    "points": self.stepper.xs,
                    "labels": self.stepper.classes(),
                    "plane": self.stepper.plane(),
                },
                "frame": self._frame([]),
            }
        )

    def reset(self) -> str:
        """Start again from the untrained network (same settings, same seed); answers a frame."""
        self.stepper = Stepper(self._stepper().settings)
        return self._frame_json([])

    def step(self, count: int = 1) -> str:
        """Take `count` steps; answers a frame."""
        return self._frame_json(self._stepper().advance(count))

    def train_for(self, milliseconds: float) -> str:
        """Train for about `milliseconds` (at least one step); answers a frame."""
        return self._frame_json(self._stepper().advance_for(milliseconds / 1000))

    def code(self, steps: int) -> str:
        """The program of the current settings, run for `steps` steps (as plain text, not JSON)."""
        return generate_code(self._stepper().settings, steps)

    def _stepper(self) -> Stepper:
        if self.stepper is None:
            raise RuntimeError("the panel has no usable settings yet: configure it first")
        return self.stepper

    def _frame(self, records: list[StepRecord]) -> dict[str, Any]:
        stepper = self._stepper()
        return {
            "steps": stepper.steps,
            "loss": stepper.loss,
            "accuracy": stepper.accuracy,
            "records": [[r.loss, r.accuracy] for r in records],
            "note": stepper.note,
            "layers": stepper.layers(),
            "scores": stepper.scores() if stepper.settings.inputs != 2 else None,
        }

    def _frame_json(self, records: list[StepRecord]) -> str:
        return _json(self._frame(records))


def _json(data: Any) -> str:
    """`data` as JSON, with every non-finite float written as null (JSON has no NaN or Infinity)."""
    return json.dumps(_finite(data), allow_nan=False, separators=(",", ":"))


def _finite(data: Any) -> Any:
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(item) for item in data]
    return data
