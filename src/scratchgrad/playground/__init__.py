"""The training playground: `settings` (what to train, checked, as a URL query string), `program`
(`generate_code`, the exact Python program those settings stand for), `stepper` (`Stepper`, which
runs that program step by step for the browser, and `predict`) and `panel` (`PanelSession`, the
side of the browser's panel that speaks JSON).

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
