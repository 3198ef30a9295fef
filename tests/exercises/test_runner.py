"""Composition of the reader's engine across exercises, and robustness against any code."""

from __future__ import annotations

import builtins
import json
import re

import pytest
from adversaries import BORROWED_SLOPES

import scratchgrad.exercises
from scratchgrad.exercises import EXERCISES, check
from scratchgrad.exercises.registry import by_id
from scratchgrad.exercises.sandbox import CPU_CLOCK

FOREVER = "\nwhile True:\n    pass\n"
TEN_MEGABYTES = "\nprint('x' * 10_000_000)\nfor _ in range(1000):\n    print('y' * 1000)\n"
SABOTAGE = """
import builtins, sys
import scratchgrad.exercises.runner as runner
del builtins.len, builtins.isinstance
builtins.print = None
runner.Fail = None
sys.modules["scratchgrad.exercises.oracle"] = None
depth, frame = 0, sys._getframe()
while frame is not None:
    depth, frame = depth + 1, frame.f_back
sys.setrecursionlimit(depth + 20)
"""
"""Code that deletes or breaks what the checks use: builtins, the runner's names, a module, and a
recursion limit 20 frames above its own (a fixed 50 is below where pytest-xdist's workers run it)."""


def test_earlier_pieces_are_the_readers_when_given_else_the_reference():
    mine = by_id("value-graph").solution.replace("class Value:", "class Value:\n    mine = True")
    report = check("backward", by_id("backward").solution, {"value-graph": mine})
    assert report.passed, report.text()
    sources = {piece.exercise: piece.source for piece in report.pieces}
    assert sources == {
        "value-graph": "yours",
        "tanh-derivative": "reference",
        "local-derivatives": "reference",
        "topological-order": "reference",
    }


def test_a_readers_earlier_class_is_what_later_pieces_extend():
    marked = by_id("value-graph").solution + "\nValue.made_by_the_reader = True\n"
    probe = by_id("backward").solution + "\nassert Value.made_by_the_reader\n"
    assert check("backward", probe, {"value-graph": marked}).passed
    assert check("backward", probe).outcome == "raised"


def test_an_earlier_piece_that_raises_is_replaced_by_the_reference_and_says_so():
    report = check("backward", by_id("backward").solution, {"topological-order": "1 / 0"})
    assert report.passed, report.text()
    piece = next(piece for piece in report.pieces if piece.exercise == "topological-order")
    assert (piece.source, piece.note) == ("reference", "yours raised ZeroDivisionError when loaded")


def test_a_wrong_earlier_piece_shows_in_the_later_check():
    wrong_rule = by_id("local-derivatives").wrong_source("product-not-swapped")
    report = check("backward", by_id("backward").solution, {"local-derivatives": wrong_rule})
    assert report.outcome == "failed"
    assert "uses  local-derivatives: Value — yours" in report.lines()
    first = (
        "FAIL  L = (a·b + c)·f, by L.backward(): dL/dd should be -2.0; your d.grad is 4.0. The first wrong "
        "gradient is d's: your rule for * (your code for 'local-derivatives', line 26: "
        "`self.grad = self.data * out.grad`) passed 4.0 to d.grad from L.grad = 1.0, where the chain rule "
        "gives dL/dd × L.grad = -2.0 × 1.0 = -2.0. Node by node"
    )
    assert any(line.startswith(first) for line in report.lines())


def test_a_wrong_backward_names_every_wrong_node_and_sends_the_graph_to_draw():
    report = check("backward", by_id("backward").wrong_source("not-reversed"))
    first = report.checks[0]
    assert first.message.startswith(
        "dL/de should be -2.0; your e.grad is 0.0: for L, your backward() ran the rule of e before the rule "
        "of d, which uses e: e's gradient was not complete yet (the rules in the order called: "
    )
    assert ") — walk the order output first. Node by node, against central differences: " in first.message
    study = json.loads(first.graph["study"])
    marked = {
        node["name"]: check["status"]
        for node, check in zip(study["nodes"], study["check"]["nodes"], strict=True)
    }
    assert marked == {"c": "wrong", "a": "wrong", "b": "wrong", "e": "wrong", "d": "ok", "f": "ok", "L": "ok"}
    assert re.search(
        r'\[label="\{ a \| data 2.0000 \| grad -?0.0000 \}"', first.graph["dot"]
    )  # labelled by the check


def test_a_wrong_share_names_the_readers_rule_and_line_that_passed_it():
    source = by_id("power-and-exp").wrong_source("power-rule")
    line = next(number for number, text in enumerate(source.splitlines(), 1) if "self.grad +=" in text)
    report = check("power-and-exp", source)
    assert report.checks[0].message.endswith(
        f"The first wrong gradient is x's: your rule for **3 (your code for 'power-and-exp', line {line}: "
        f"`{source.splitlines()[line - 1].strip()}`) passed 10.125 to x.grad from out.grad = 1.0, where the "
        "chain rule gives dout/dx × out.grad = 6.75 × 1.0 = 6.75. "
        "Node by node, against central differences: x: expected 6.75, got 10.125."
    )


def test_the_graph_of_a_failed_check_quotes_the_readers_own_line_that_ran():
    source = by_id("power-and-exp").wrong_source("exp-rule")
    study = json.loads(check("power-and-exp", source).checks[3].graph["study"])
    [visit] = [step for step in study["steps"] if step["lines"]]
    [line] = visit["lines"]
    assert line["file"] == "<yours: power-and-exp>"
    assert line["text"] == source.splitlines()[line["line"] - 1]
    assert "self.grad +=" in line["text"]


def test_a_check_of_rules_called_one_by_one_has_no_graph_to_rerun():
    report = check("local-derivatives", by_id("local-derivatives").wrong_source("product-not-swapped"))
    failed = [line for line in report.checks if not line.passed]
    assert failed
    assert all(line.graph is None for line in failed)


def test_code_that_raises_gets_the_error_and_its_line():
    report = check("slope", "def slope(f, x, h=1e-6):\n    return 1\n\nslope(None, 0) / 0\n")
    assert (report.outcome, report.verdict) == ("raised", "fail")
    assert report.error.type == "ZeroDivisionError"
    assert (report.error.where, report.error.line) == ("your code for 'slope'", 4)
    assert (
        report.headline
        == "your code raised ZeroDivisionError: division by zero (your code for 'slope', line 4)"
    )


def test_a_syntax_error_names_its_line():
    report = check("slope", "def slope(f, x, h=1e-6)\n    return 1\n")
    assert report.outcome == "raised"
    assert (report.error.type, report.error.line) == ("SyntaxError", 1)


def test_a_check_that_raises_in_the_readers_method_fails_that_check_only():
    source = by_id("backward").solution.replace("self.grad = 1.0", "self.grad = 1.0 / 0")
    report = check("backward", source)
    assert report.outcome == "failed"
    assert all("raised ZeroDivisionError" in line.message for line in report.checks), report.text()
    assert all("your code for 'backward', line 4" in line.message for line in report.checks)


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_a_solution_that_never_ends_is_stopped_with_a_clear_verdict(exercise):
    report = check(exercise.id, exercise.solution + FOREVER, time_limit=0.5)
    assert report.outcome == "stopped"
    clock = " of CPU time" if CPU_CLOCK else ""
    assert (
        report.headline == f"did not finish: ran longer than 0.5 s{clock} — is there a loop that never ends?"
    ), report.text()
    assert check(exercise.id, exercise.solution).passed


def test_a_backward_that_never_ends_stops_inside_the_check():
    source = by_id("backward").solution.replace("self.grad = 1.0", "while True:\n            pass")
    report = check("backward", source, time_limit=0.5)
    assert report.outcome == "stopped"
    assert report.checks[-1].message.startswith("did not finish: ran longer than 0.5 s")


def test_a_loop_on_one_line_in_the_readers_method_stops_inside_the_check_too():
    source = by_id("backward").solution.replace("self.grad = 1.0", "while True: pass")
    report = check("backward", source, time_limit=0.5)
    assert report.outcome == "stopped"
    assert report.checks[-1].message.startswith("did not finish: ran longer than 0.5 s")


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_ten_megabytes_of_output_are_capped_and_counted(exercise):
    report = check(exercise.id, exercise.solution + TEN_MEGABYTES)
    assert report.passed, report.headline
    assert len(report.output) == 20_000
    printed = 10_000_000 + 1 + 1000 * (1000 + 1)  # each print adds a newline
    assert report.output_dropped == printed - 20_000


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_deleting_the_checkers_names_lasts_only_as_long_as_the_readers_code(exercise):
    report = check(exercise.id, exercise.solution + SABOTAGE)
    assert report.passed, report.text()
    assert builtins.len("abc") == 3
    assert builtins.print is not None
    assert check(exercise.id, exercise.stub).outcome == "failed"


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_deleting_the_pieces_own_names_fails_with_a_message_that_says_so(exercise):
    names = {name.split(".")[0] for name in exercise.provides}
    deletion = "".join(f"\ndel {name}" for name in sorted(names) if name != "Value")
    if not deletion:
        deletion = "\ndel Value"
    report = check(exercise.id, exercise.solution + deletion)
    assert report.outcome == "failed"
    assert any("the code does not define it, or deleted it" in line.message for line in report.checks)


def test_a_keyboard_interrupt_stops_the_check():
    report = check("slope", "raise KeyboardInterrupt", time_limit=60)
    assert report.outcome == "stopped"
    assert report.headline == "stopped before the checks finished (interrupted)"


def test_the_report_is_json_with_the_shape_the_page_reads():
    report = check("backward", by_id("backward").stub)
    data = json.loads(report.to_json())
    assert set(data) == {
        "exercise",
        "verdict",
        "outcome",
        "headline",
        "checks",
        "error",
        "pieces",
        "output",
        "output_dropped",
        "seconds",
        "seed",
    }
    assert (data["exercise"], data["verdict"], data["outcome"]) == ("backward", "fail", "failed")
    assert set(data["checks"][0]) == {"title", "passed", "message", "graph"}
    assert data["pieces"][0] == {
        "exercise": "value-graph",
        "provides": ["Value"],
        "source": "reference",
        "note": "",
    }
    assert report.lines()[-1] == f"FAILED: 5 of 5 checks failed (seed {report.seed})"


def test_the_same_seed_checks_the_same_cases_and_a_failure_names_it():
    wrong = by_id("topological-order").wrong_source("no-visited-set")
    first, again = check("topological-order", wrong, seed=7), check("topological-order", wrong, seed=7)
    assert first.seed == again.seed == 7
    assert first.headline == again.headline == "5 of 6 checks failed (seed 7)"
    assert [line.passed for line in first.checks] == [line.passed for line in again.checks]

    def graph(report):  # the random graph its check failed on (the order found may vary with a set)
        [random] = [line for line in report.checks if line.title.startswith("five random graphs")]
        return random.message.split(", your topological_order")[0]

    assert graph(first) == graph(again)
    assert graph(check("topological-order", wrong, seed=8)) != graph(first)


def test_check_all_uses_only_the_readers_passing_pieces():
    pieces = {
        "value-graph": by_id("value-graph").solution,
        "topological-order": by_id("topological-order").wrong_source("no-visited-set"),
        "backward": by_id("backward").solution,
    }
    reports = scratchgrad.exercises.check_all(pieces)
    assert {name: report.passed for name, report in reports.items()} == {
        "value-graph": True,
        "topological-order": False,
        "backward": True,
    }
    sources = {piece.exercise: piece.source for piece in reports["backward"].pieces}
    assert (sources["value-graph"], sources["topological-order"]) == ("yours", "reference")


def test_a_time_limit_must_be_positive():
    with pytest.raises(ValueError, match="time_limit must be a number of seconds > 0 or None, got 0"):
        check("slope", "", time_limit=0)


@pytest.mark.parametrize("source", BORROWED_SLOPES.values(), ids=BORROWED_SLOPES.keys())
def test_borrowed_code_is_told_so_however_it_was_loaded(source):
    report = check("slope", source, seed=1)
    assert report.outcome == "failed"
    assert "takes the book's implementation" in report.checks[-1].message
