"""The ``slider=`` option of a runnable block: a control for one number in the block's code.

``slider="lr 0.01 0.4 0.01"`` names a variable, the lowest and highest value and the step. The
block's code must set that variable exactly once, on a line of its own at the left margin, to a
plain number inside the range (``lr = 0.1``). The page (web/page/value-slider.js) draws a range
input starting at that number; moving it rewrites the number in the reader's editor, as typing
would, and runs the block again — so every number shown is still the output of the code above it.
"""

from __future__ import annotations

import json
import re

from mkdocs.exceptions import PluginError

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
"""A plain number literal, as web/page/value-slider.js matches it too."""


def assignment(name: str) -> re.Pattern[str]:
    """The line that sets `name` to a plain number: ``name = 0.1`` at the left margin."""
    return re.compile(rf"^{re.escape(name)}\s*=\s*({NUMBER})\s*(?:#.*)?$", re.MULTILINE)


def slider_spec(option: str, source: str, where: str) -> dict[str, object]:
    """The slider's {name, min, max, step, value}, or a PluginError that names what is wrong."""
    parts = option.split()
    if len(parts) != 4 or not parts[0].isidentifier():
        raise PluginError(
            f'{where}: slider= takes a name and three numbers, "lr 0.01 0.4 0.01"; got {option!r}'
        )
    name = parts[0]
    try:
        low, high, step = (float(part) for part in parts[1:])
    except ValueError:
        raise PluginError(f"{where}: slider={option!r}: its range and step must be numbers") from None
    if not (low < high and step > 0):
        raise PluginError(f"{where}: slider={option!r}: needs lowest < highest and a step > 0")
    lines = assignment(name).findall(source)
    if len(lines) != 1:
        raise PluginError(
            f"{where}: slider= moves {name}, so the code must set it once to a plain number on a line "
            f"of its own ({name} = 0.1); found {len(lines)} such lines"
        )
    value = float(lines[0])
    if not low <= value <= high:
        raise PluginError(f"{where}: {name} = {lines[0]} is outside the slider's range {low:g} to {high:g}")
    return {"name": name, "min": low, "max": high, "step": step, "value": value}


def slider_attribute(option: str, source: str, where: str) -> str:
    """The runnable block's data-sg-slider attribute (its JSON, HTML-escaped by the caller)."""
    return json.dumps(slider_spec(option, source, where))
