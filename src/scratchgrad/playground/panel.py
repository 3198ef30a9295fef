"""The playground panel's Python side: one `PanelSession` serves one panel on the page, and its
methods take a URL query string or numbers and answer with a JSON *frame* (`PanelSession` says its
fields), so nothing but text crosses between JavaScript and Python and the whole exchange is
tested here in CPython; a number that is not finite (a diverged run) travels as null.
"""

from __future__ import annotations

import json
import math
from types import ModuleType
from typing import Any

from scratchgrad.playground.model_file import (
    MAX_FILE_CHARACTERS,
    ModelFileError,
    model_json,
    model_python,
    read_model_json,
)
from scratchgrad.playground.program import generate_code
from scratchgrad.playground.settings import (
    DRAWN_PLANE,
    FIELDS,
    PRESETS,
    Settings,
    SettingsError,
    batch_note,
    from_query,
    preset,
    to_query,
)
from scratchgrad.playground.stepper import Stepper
from scratchgrad.playground.your_engine import (
    EngineNotReadyError,
    EnginePace,
    load_your_engine,
    your_engine_installed,
)
from scratchgrad.train import StepRecord

__all__ = ["PanelSession", "describe"]


def describe() -> str:
    """The fields (for building the controls) and the presets (as query strings), as JSON.

    Read at build time (hooks/pyodide_runtime.py bundles it into the page's JavaScript), so a
    panel builds its whole settings form before its Python has started.
    """
    return _json(
        {
            "fields": [spec.describe() for spec in FIELDS],
            "presets": {name: to_query(settings) for name, settings in PRESETS.items()},
            "drawn_plane": DRAWN_PLANE,
            "model_file_limit": MAX_FILE_CHARACTERS,
        }
    )


class PanelSession:
    """The training behind one panel: configure it with settings, then step, play, reset.

    A configured session answers with a *frame* after every action::

        {"steps": 12, "loss": 0.41, "accuracy": 0.87,       # the last step (or the untrained net)
         "test": null or [loss, accuracy],                    # the net as it is now, on the held-out points
         "records": [[loss, accuracy(, test loss, test accuracy)], …],  # every step of this action
         "note": null or "Training diverged at step …",
         "layers": [{"activation", "weights", "biases"}, …], # for the decision-boundary picture
         "scores": null or [score, …],                        # per point, for the 3-D four points
         "pace": null or {"yours_ms", "book_ms"}}             # engine=yours: ms a step, reader's and book's
    """

    def __init__(self) -> None:
        self.stepper: Stepper | None = None
        self.engine: ModuleType | None = None
        self.pace: EnginePace | None = None

    def configure(self, query: str, preset_name: str = "", your_work: str = "{}") -> str:
        """Read settings from `query` (on top of the preset `preset_name`, if given) and start afresh.

        `your_work` is the reader's passing exercise code as JSON (exercise id → code): with
        ``engine=yours`` the panel trains with the engine it builds (`load_your_engine`).

        Answers ``{"problems": {field: message}}`` when the settings cannot be
        used (the session keeps no stepper) — for ``engine=yours``, also when a
        piece of the reader's engine is missing or raises — else ``{"problems": {},
        "query": the settings written out in full, "unused": the fields that
        change nothing here, "batch_note": what the reader's engine's batch is
        ("" for the book's engine), "view": the data to draw, "frame": …}``.
        """
        self.stepper = self.engine = self.pace = None
        try:
            settings = from_query(query, preset(preset_name) if preset_name else None)
        except SettingsError as error:
            return _json({"problems": error.problems})
        try:
            self.engine = load_your_engine(json.loads(your_work)) if settings.engine == "yours" else None
            self.stepper = self._new_stepper(settings)
        except EngineNotReadyError as error:
            return _json({"problems": {"engine": f"Engine: {error}"}})
        except Exception as error:  # the reader's MLP or train raised while setting up
            return _json(
                {"problems": {"engine": f"Engine: your code raised {type(error).__name__}: {error}"}}
            )
        return _json(
            {
                "problems": {},
                "query": to_query(settings),
                "unused": list(settings.unused()),
                "batch_note": batch_note(settings),
                "view": {
                    "inputs": settings.inputs,
                    "features": list(settings.features),
                    "classes": settings.classes,
                    "points": self.stepper.points,
                    "labels": self.stepper.classes(),
                    "test_points": self.stepper.test_points,
                    "test_labels": self.stepper.classes(self.stepper.test_ys),
                    "plane": self.stepper.plane(),
                },
                "frame": self._frame([]),
            }
        )

    def reset(self) -> str:
        """Start again from the untrained network (same settings, same seed); answers a frame."""
        self.stepper = self._new_stepper(self._stepper().settings)
        return self._frame_json([])

    def step(self, count: int = 1) -> str:
        """Take `count` steps; answers a frame."""
        return self._paced_frame_json(self._stepper().advance(count))

    def train_for(self, milliseconds: float) -> str:
        """Train for about `milliseconds` (at least one step); answers a frame."""
        return self._paced_frame_json(self._stepper().advance_for(milliseconds / 1000))

    def export_model(self) -> str:
        """The trained network as files to save: ``{"json": model file, "python": standalone program}``."""
        stepper = self._stepper()
        return _json({"json": model_json(stepper), "python": model_python(stepper)})

    def import_model(self, text: str, your_work: str = "{}") -> str:
        """Configure the panel with the settings of the model file `text` and give it the file's weights.

        Answers as `configure` does, plus ``"imported": steps`` (how long the file's network had
        trained); a file that is not a model, or does not fit its settings, answers
        ``{"problems": {"model": message}}`` and leaves the panel as it was.
        """
        try:
            saved = read_model_json(text)
        except ModelFileError as error:
            return _json({"problems": {"model": f"Import model: {error}"}})
        answer = json.loads(self.configure(to_query(saved.settings), "", your_work))
        if answer["problems"]:
            return _json(answer)
        self._stepper().load(saved.layers)
        return _json({**answer, "frame": self._frame([]), "imported": saved.steps})

    def code(self, steps: int) -> str:
        """The program of the current settings, run for `steps` steps (as plain text, not JSON)."""
        return generate_code(self._stepper().settings, steps)

    def _new_stepper(self, settings: Settings) -> Stepper:
        if self.engine is None:
            return Stepper(settings)
        with your_engine_installed(self.engine):
            stepper = Stepper(settings)
        self.pace = EnginePace(stepper.trainer, [*settings.hidden, 1], settings.seed)
        return stepper

    def _paced_frame_json(self, records: list[StepRecord]) -> str:
        """The frame of these steps; with the reader's engine, the book's first times a step when due."""
        if self.pace is not None and records:
            self.pace.measure()
        return self._frame_json(records)

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
            "test": stepper.test(),
            "records": [
                [r.loss, r.accuracy, *(stepper.tested[r.step] if stepper.tested else ())] for r in records
            ],
            "note": stepper.note,
            "layers": stepper.layers(),
            "scores": stepper.scores() if stepper.settings.dataset == "four_points" else None,
            "pace": self.pace.summary() if self.pace is not None else None,
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
