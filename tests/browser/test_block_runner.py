"""The worker's Python side (web/worker/block_runner.py), run here under CPython.

The browser tests prove the same behaviour end to end in Pyodide; these pin down the rules
one at a time, fast: namespaces, seeding, trimmed tracebacks, drawings, forgetting modules.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from scratchgrad import Value
from scratchgrad.graph import to_dot

RUNNER_PATH = Path(__file__).resolve().parents[2] / "web" / "worker" / "block_runner.py"


@pytest.fixture
def runner():
    """A fresh copy of block_runner with a display that records what it was sent."""
    spec = importlib.util.spec_from_file_location("block_runner_under_test", RUNNER_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.sent = []
    module.set_display(lambda mime_type, data, label: module.sent.append((mime_type, data, label)))
    return module


def test_blocks_of_a_page_share_their_namespace(runner, capsys):
    namespace = runner.new_namespace()
    assert runner.run_block("x = 20", "<page block 0>", namespace) is None
    assert runner.run_block("print(x + 1)", "<page block 1>", namespace) is None
    assert capsys.readouterr().out == "21\n"


def test_new_namespace_is_main_and_seeds_random_like_the_build(runner):
    random.seed(12345)
    namespace = runner.new_namespace()
    first_draw = random.random()
    random.seed(runner.PAGE_SEED)
    assert first_draw == random.random()
    assert namespace["__name__"] == "__main__"
    assert set(namespace) == {"__name__", "show_graph"}


def test_traceback_starts_at_the_readers_block(runner):
    code = "def f(n):\n    return 1 / n\n\nf(0)\n"
    traceback = runner.run_block(code, "<page block 4>", runner.new_namespace())
    lines = traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "<page block 4>", line 4, in <module>'
    assert lines[2] == "    f(0)"
    assert '  File "<page block 4>", line 2, in f' in lines
    assert "    return 1 / n" in lines
    assert lines[-1] == "ZeroDivisionError: division by zero"
    assert "block_runner" not in traceback


def test_traceback_keeps_frames_inside_the_package(runner):
    traceback = runner.run_block("Value(1.0) + 'text'", "<page block 0>", {"Value": Value})
    assert 'File "<page block 0>", line 1, in <module>' in traceback
    assert "scratchgrad" in traceback
    assert traceback.rstrip().splitlines()[-1].startswith("TypeError")


def test_syntax_error_points_at_the_readers_line(runner):
    traceback = runner.run_block("x = 1\ny = (", "<page block 2>", runner.new_namespace())
    assert 'File "<page block 2>", line 2' in traceback
    assert traceback.rstrip().splitlines()[-1].startswith("SyntaxError")
    assert "Traceback (most recent call last)" not in traceback


def test_keyboard_interrupt_is_reported_not_raised(runner):
    traceback = runner.run_block("raise KeyboardInterrupt", "<page block 0>", runner.new_namespace())
    assert traceback.rstrip().splitlines()[-1] == "KeyboardInterrupt"


def test_output_printed_without_newline_is_flushed_at_the_end(runner, capfd):
    runner.run_block("print('no newline', end='')", "<page block 0>", runner.new_namespace())
    assert capfd.readouterr().out == "no newline"


def test_graph_option_sends_the_dot_of_each_expression(runner):
    namespace = runner.new_namespace()
    code = "from scratchgrad import Value\na = Value(2.0, label='a')\nL = a * 3\n"
    assert runner.run_block(code, "<page block 0>", namespace, graphs=["L", "a"]) is None
    assert runner.sent == [
        (runner.DOT_MIME_TYPE, to_dot(namespace["L"]), "L"),
        (runner.DOT_MIME_TYPE, to_dot(namespace["a"]), "a"),
    ]


def test_graph_option_of_a_stage_value_keeps_the_build_drawing(runner):
    code = "from scratchgrad.stages.graph_only import Value\nL = Value(2.0) * Value(3.0)\n"
    assert runner.run_block(code, "<page block 0>", runner.new_namespace(), graphs=["L"]) is None
    assert runner.sent == [(runner.BUILD_FIGURE_MIME_TYPE, "", "L")]


def test_show_graph_of_something_else_than_a_value_is_an_error_the_reader_sees(runner):
    traceback = runner.run_block("show_graph(3)", "<page block 0>", runner.new_namespace())
    last_line = traceback.rstrip().splitlines()[-1]
    assert last_line == "TypeError: show_graph() draws the graph of a Value, got int"
    assert runner.sent == []


def test_show_graph_in_the_readers_code(runner):
    code = "from scratchgrad import Value\nshow_graph(Value(1.0, label='one') * 2, rankdir='TB')\n"
    assert runner.run_block(code, "<page block 0>", runner.new_namespace()) is None
    [(mime_type, dot, label)] = runner.sent
    assert (mime_type, label) == (runner.DOT_MIME_TYPE, "")
    assert 'rankdir="TB"' in dot
    assert "one" in dot


def test_show_graph_without_a_page_says_so(runner):
    runner.set_display(runner._display_needs_a_page)
    traceback = runner.run_block(
        "show_graph(Value(1.0))", "<page block 0>", {**runner.new_namespace(), "Value": Value}
    )
    assert "show_graph() draws in the browser page" in traceback


def test_forget_modules_drops_packages_but_keeps_the_standard_library(runner):
    import scratchgrad  # noqa: F401 (it must be in sys.modules for the baseline below)

    baseline = set(sys.modules) - {"scratchgrad", "scratchgrad.engine"}
    before = dict(sys.modules)
    try:
        assert runner.forget_modules_imported_since(baseline) == ["scratchgrad", "scratchgrad.engine"]
        assert "scratchgrad" not in sys.modules
        assert all(name in sys.modules for name in baseline)
    finally:
        sys.modules.update(before)


def test_forget_modules_never_drops_the_standard_library(runner):
    import json  # noqa: F401 (imported, so the baseline below leaves out a loaded module)

    baseline = set(sys.modules) - {"json", "json.decoder"}
    assert runner.forget_modules_imported_since(baseline) == []
