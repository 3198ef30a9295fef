"""The generated program: it prints what the stepper reaches, and uses only the public API."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import doctest
import io
import subprocess
import sys

import pytest
from playground_examples import SMALL

from scratchgrad.playground import (
    PRESETS,
    Settings,
    SettingsError,
    Stepper,
    from_query,
    generate_code,
    program,
    to_query,
)


def run_program(code: str) -> str:
    """What `code` prints when run as a script's main module."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<generated>", "exec"), {"__name__": "__main__"})
    return printed.getvalue()


def parse_step_line(printed: str) -> tuple[int, float, float]:
    """(steps, loss, accuracy) from the program's line ``step N: loss L, accuracy A``."""
    words = next(line for line in printed.splitlines() if line.startswith("step "))
    words = words.replace(",", "").replace(":", "").split()
    assert words[2] == "loss", printed
    assert words[4] == "accuracy", printed
    return int(words[1]), float(words[3]), float(words[5])


def parse_test_line(printed: str) -> tuple[float, float] | None:
    """(loss, accuracy) from the program's line ``test: loss L, accuracy A``, if it printed one."""
    lines = [line for line in printed.splitlines() if line.startswith("test: ")]
    if not lines:
        return None
    words = lines[0].replace(",", "").split()
    assert (words[1], words[3]) == ("loss", "accuracy"), printed
    return float(words[2]), float(words[4])


# --- The generated program ---

VARIANTS = [
    *PRESETS.values(),
    dataclasses.replace(SMALL, loss="hinge"),
    dataclasses.replace(SMALL, loss="hinge", l2=0.01),
    dataclasses.replace(SMALL, loss="mse", l2=0.01, activation="relu"),
    dataclasses.replace(SMALL, loss="cross_entropy", l2=0.001, activation="sigmoid"),
    dataclasses.replace(SMALL, optimizer="sgd", lr=0.3, decay=0.05),
    dataclasses.replace(SMALL, optimizer="momentum", lr=0.1, decay=0.01, batch_size=7, seed=3),
    dataclasses.replace(SMALL, optimizer="sgd", lr=0.5, schedule="linear", decay=0.2),  # 0 from step 5 on
    dataclasses.replace(SMALL, optimizer="adam", batch_size=5, seed=11, dataset="circles", noise=0.2),
    dataclasses.replace(SMALL, hidden=(), dataset="xor"),
    dataclasses.replace(SMALL, dataset="spiral", points=30, hidden=(4, 4), batch_size=8, l2=0.001),
    dataclasses.replace(SMALL, dataset="four_points", loss="mse", optimizer="sgd", lr=0.05, batch_size=2),
]


@pytest.mark.parametrize("settings", VARIANTS, ids=[to_query(s) for s in VARIANTS])
def test_the_generated_program_prints_what_the_stepper_reaches(settings):
    steps = 12
    printed = run_program(generate_code(settings, steps=steps))
    stepper = Stepper(settings)
    stepper.advance(steps)
    assert parse_step_line(printed) == (steps, stepper.loss, stepper.accuracy)
    assert parse_test_line(printed) == stepper.test()
    assert (stepper.test() is None) == (not settings.held_out)


def test_the_generated_program_runs_unchanged_in_a_fresh_cpython():
    code = generate_code(PRESETS["micrograd_demo"], steps=3)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    stepper = Stepper(PRESETS["micrograd_demo"])
    stepper.advance(3)
    assert result.stdout == f"step 3: loss {stepper.loss}, accuracy {stepper.accuracy}\n"


@pytest.mark.parametrize("settings", VARIANTS, ids=[to_query(s) for s in VARIANTS])
def test_the_generated_program_uses_only_the_public_package_api(settings):
    public = {"scratchgrad.datasets", "scratchgrad.nn", "scratchgrad.losses", "scratchgrad.optim"}
    public |= {"scratchgrad.train", "scratchgrad.fused"}
    tree = ast.parse(generate_code(settings))
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports
    for node in imports:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        assert node.module in public, ast.unparse(node)
        assert all(not alias.name.startswith("_") for alias in node.names), ast.unparse(node)


def test_the_program_names_its_settings_in_its_first_line():
    first_line = generate_code(PRESETS["xor"]).splitlines()[0]
    assert first_line == f"# The playground's program for {to_query(PRESETS['xor'])}"


def test_no_program_is_written_for_bad_settings_or_steps():
    with pytest.raises(SettingsError, match=r"Learning rate \(lr\): must be greater than 0"):
        generate_code(Settings(lr=0.0))
    with pytest.raises(ValueError, match="steps to be a whole number ≥ 1, got steps=0"):
        generate_code(Settings(), steps=0)


def test_the_docstring_examples_hold():
    results = doctest.testmod(program)
    assert (results.failed, results.attempted > 0) == (0, True)


def test_drawn_points_are_written_out_in_the_program_and_train_as_the_panel_does():
    settings = from_query("dataset=drawn&drawn=0,0,0;1,1,0;0,1,1;1,0,1;0.5,-0.25,1&hidden=4&lr=0.1")
    code = generate_code(settings, 20)
    assert "scratchgrad.datasets" not in code
    xs = "[[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.5, -0.25]]"
    assert f"xs, ys = {xs}, [-1.0, -1.0, 1.0, 1.0, 1.0]" in code
    stepper = Stepper(settings)
    stepper.advance(20)
    namespace = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<drawn>", "exec"), namespace)
    assert namespace["record"].loss == stepper.loss
