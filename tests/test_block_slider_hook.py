"""hooks/helpers/block_slider.py: slider= names one number of the block's code, or the build fails."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
block_slider = importlib.import_module("helpers.block_slider")

CODE = "lr = 0.1  # the learning rate\n\nx = 3.0\nfor step in range(8):\n    x = x - lr * 2 * x\n"


def test_the_spec_starts_at_the_number_the_code_sets() -> None:
    spec = block_slider.slider_spec("lr 0.01 0.4 0.01", CODE, "page, block 1")
    assert spec == {"name": "lr", "min": 0.01, "max": 0.4, "step": 0.01, "value": 0.1}
    assert json.loads(block_slider.slider_attribute("lr 0.01 0.4 0.01", CODE, "page")) == spec


@pytest.mark.parametrize(
    ("option", "code", "problem"),
    [
        ("lr 0.01 0.4", CODE, "a name and three numbers"),
        ("2lr 0.01 0.4 0.01", CODE, "a name and three numbers"),
        ("lr low 0.4 0.01", CODE, "must be numbers"),
        ("lr 0.4 0.01 0.01", CODE, "lowest < highest"),
        ("lr 0.01 0.4 0", CODE, "a step > 0"),
        ("eta 0.01 0.4 0.01", CODE, "found 0 such lines"),
        ("lr 0.01 0.4 0.01", CODE + "lr = 0.2\n", "found 2 such lines"),
        ("lr 0.01 0.4 0.01", "lr = 2 * 0.05\n", "found 0 such lines"),  # not a plain number
        ("lr 0.01 0.4 0.01", "    lr = 0.1\n", "found 0 such lines"),  # not at the left margin
        ("lr 0.2 0.4 0.01", CODE, "outside the slider's range 0.2 to 0.4"),
    ],
)
def test_a_slider_the_code_cannot_follow_fails_the_build_naming_why(option, code, problem) -> None:
    with pytest.raises(PluginError, match="page, block 1") as failure:
        block_slider.slider_spec(option, code, "page, block 1")
    assert problem in str(failure.value)
