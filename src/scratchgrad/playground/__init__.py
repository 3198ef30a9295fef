"""The training playground: settings, the program they stand for, and a stepper the browser drives.

* `settings` — `Settings`, their checks, URL query strings and presets;
* `program` — `generate_code`: the exact Python program the panel runs;
* `stepper` — `Stepper`, which trains that program step by step, and `predict`;
* `panel` — `PanelSession`, the JSON-speaking side of the browser panel.

Example:
    >>> stepper = Stepper(PRESETS["xor"])
    >>> stepper.advance(5)[-1].step
    4
"""

from scratchgrad.playground.panel import PanelSession
from scratchgrad.playground.program import generate_code, setup_code
from scratchgrad.playground.settings import (
    FIELDS,
    PRESETS,
    Field,
    Settings,
    SettingsError,
    from_query,
    preset,
    to_query,
)
from scratchgrad.playground.stepper import Stepper, predict, predict_all

__all__ = [
    "FIELDS",
    "PRESETS",
    "Field",
    "PanelSession",
    "Settings",
    "SettingsError",
    "Stepper",
    "from_query",
    "generate_code",
    "predict",
    "predict_all",
    "preset",
    "setup_code",
    "to_query",
]
