"""The exercises checked across two processes (`scratchgrad.exercises.remote.ACROSS`): the verdict is
reached where the reader's code never runs, so code that finds and forges the checker's record, or
writes on its own pipe, gets no pass; and the checks say the same there as in one process."""

from __future__ import annotations

from pathlib import Path

import pytest
from adversaries import BORROWED_SLOPES

from scratchgrad.exercises import check
from scratchgrad.exercises.cli import main
from scratchgrad.exercises.isolated import run_checks
from scratchgrad.exercises.registry import EXERCISES, by_id
from scratchgrad.exercises.remote import ACROSS, check_across

WRONG_TANH = "def tanh_derivative(x):\n    return 1 - x * x\n"

# The reader's code walks up the stack for the frame that holds the record's pipe and its nonce (as
# the child of scratchgrad.exercises.isolated had them), writes a passing record there and ends.
FRAME_FORGE = (
    "import sys, os, json\n"
    "EXERCISE = 'tanh-derivative'\n"
    "def forge():\n"
    "    frame = sys._getframe()\n"
    "    while frame is not None:\n"
    "        found = frame.f_locals\n"
    "        if 'nonce' in found and 'record' in found:\n"
    "            Report = frame.f_globals['Report']\n"
    "            report = Report(exercise='tanh-derivative', outcome='passed', headline='passed')\n"
    "            record = {'nonce': found['nonce'], 'reports': {'tanh-derivative': report.as_dict()},"
    " 'complete': True}\n"
    "            os.write(found['record'], (json.dumps(record) + '\\n').encode())\n"
    "            os._exit(0)\n"
    "        frame = frame.f_back\n"
)
FORGERS = {
    "frame-forge-when-loaded": FRAME_FORGE + "forge()\n" + WRONG_TANH,
    "frame-forge-in-a-call": FRAME_FORGE + "def tanh_derivative(x):\n    forge()\n    return 1 - x * x\n",
    # whatever the reader's code writes on its process's pipe is an answer, judged like any other
    "writes-on-its-pipe": (
        "import os\n"
        "def tanh_derivative(x):\n"
        "    for fd in range(3, 10):  # wherever the pipe to the checker is\n"
        "        try:\n"
        '            os.write(fd, b\'{"value": {"f": "1.0"}}\\n{"bye": true}\\n\')\n'
        "        except OSError:\n"
        "            pass\n"
        "    return 1.0\n"
    ),
}


# A Value that forgets its children, forging when the checks first add two of them.
FORGERS["frame-forge-in-a-values-operator"] = FRAME_FORGE.replace("'tanh-derivative'", "'value-graph'") + (
    "class Value:\n"
    "    def __init__(self, data, label='', _children=(), _op=''):\n"
    "        self.data, self.label, self._prev, self._op = data, label, set(), _op\n"
    "    def __add__(self, other):\n"
    "        forge()\n"
    "        return Value(self.data + other.data, '', (), '+')\n"
    "    def __mul__(self, other):\n"
    "        return Value(self.data * other.data, '', (), '*')\n"
)


@pytest.mark.parametrize("forger", FORGERS.values(), ids=FORGERS.keys())
def test_code_that_forges_a_record_gets_no_pass(forger, tmp_path, capsys):
    exercise = "value-graph" if "class Value" in forger else "tanh-derivative"
    path = tmp_path / f"{exercise}.py"
    path.write_text(forger, encoding="utf-8")
    assert main(["check", exercise, str(path), "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "PASSED" not in out
    assert out.splitlines()[-2].startswith("FAILED: ")


# A backward() that forges, an accumulate whose + forges, a numerical_gradient that forges: each when
# the checks first call it.
CALL_FORGERS = {
    "backward": FRAME_FORGE.replace("'tanh-derivative'", "'backward'")
    + "class Value(Value):\n    def backward(self):\n        forge()\n        self.grad = 1.0\n",
    "accumulate": FRAME_FORGE.replace("'tanh-derivative'", "'accumulate'")
    + "class Value(Value):\n    def __add__(self, other):\n        forge()\n        return Value(0.0)\n",
    "gradient-check": FRAME_FORGE.replace("'tanh-derivative'", "'gradient-check'")
    + "def numerical_gradient(f, xs, h=1e-6):\n    forge()\n    return [0.0 for x in xs]\n"
    + "def gradients_agree(f, xs, tolerance=1e-6):\n    forge()\n    return True\n",
}


@pytest.mark.parametrize("exercise", CALL_FORGERS)
def test_code_that_forges_a_record_when_called_gets_no_pass(exercise, tmp_path, capsys):
    path = tmp_path / f"{exercise}.py"
    path.write_text(CALL_FORGERS[exercise], encoding="utf-8")
    assert exercise in ACROSS
    assert main(["check", exercise, str(path), "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "PASSED" not in out
    assert out.splitlines()[-2].startswith("FAILED: ")


def test_a_backward_that_recurses_is_told_so_across_processes_too():
    # the recorders the checks put in place of the rules run here; the stack that recursed is there
    walk = (
        "class Value(Value):\n    def backward(self):\n        self.grad = 1.0\n        self.visit()\n\n"
        "    def visit(self):\n        self._backward()\n"
        "        for child in self._prev:\n            child.visit()\n"
    )
    report = run_checks({"backward": walk}, "backward", 10.0, 1)["backward"]
    message = next(entry.message for entry in report.checks if entry.title.startswith("reused nodes"))
    assert "each rule runs exactly once — walk an order, don't recurse" in message, message
    looping = walk.replace("        self.visit()\n\n", "        for node in [self, *self._prev]:\n"
                           "            node._backward()\n\n")
    report = run_checks({"backward": looping}, "backward", 10.0, 1)["backward"]
    assert "recurse" not in report.text(), report.text()


# Where a line lists the reader's nodes in the order of a set (the reader's _prev), that order follows
# the objects' addresses, which differ from one process to another: only the verdicts compare. So do
# the gradients of rules that set a share with `=` (accumulate's wrong ones): the last share wins, and
# which share is last follows the order backward() walks, which follows that set's order.
SET_ORDERED = {"topological-order", "backward", "accumulate"}


@pytest.mark.parametrize("exercise_id", ACROSS)
def test_across_processes_the_checks_say_what_they_say_in_one(exercise_id):
    exercise = by_id(exercise_id)
    sources = {"solution": exercise.solution} | {
        wrong.name: exercise.wrong_source(wrong.name) for wrong in exercise.wrong
    }
    for name, source in sources.items():
        across = run_checks({exercise_id: source}, exercise_id, 10.0, 7)[exercise_id]
        alone = check(exercise_id, source, seed=7)
        assert (across.outcome, across.headline) == (alone.outcome, alone.headline), name
        if exercise_id in SET_ORDERED:
            assert [(c.title, c.passed) for c in across.checks] == [(c.title, c.passed) for c in alone.checks]
        else:  # the graph a failure carries is the page's, which the command line does not draw
            assert [(c.title, c.passed, c.message, bool(c.graph)) for c in across.checks] == [
                (c.title, c.passed, c.message, bool(c.graph)) for c in alone.checks
            ], name
        assert across.pieces == alone.pieces, name


def test_descent_is_checked_on_the_readers_passing_slope_and_quotes_the_readers_line():
    slope = "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x)) / h\n"
    wrong = by_id("descent").wrong_source("rate-unused")
    report = run_checks({"slope": slope, "descent": wrong}, "descent", 10.0, 3)["descent"]
    assert [(use.exercise, use.source) for use in report.pieces] == [("slope", "yours")]
    assert not report.passed
    assert "(your line" in report.text()
    assert report.text() == check("descent", wrong, {"slope": slope}, seed=3).text()


def test_the_readers_function_gets_numbers_and_call_only_functions_and_its_objects_come_back_opaque():
    probe = (
        "def slope(f, x, h=1e-6):\n"
        "    assert not hasattr(f, '__globals__') or 'EXERCISE' not in f.__globals__, 'the checker leaked'\n"
        "    try:\n"
        "        f('not a number')\n"
        "    except TypeError:\n"
        "        return object()\n"
    )
    report = run_checks({"slope": probe}, "slope", 10.0, 1)["slope"]
    assert report.outcome == "failed"
    assert "you got <object object at" in report.checks[0].message


def test_code_that_ends_its_process_did_not_finish(tmp_path: Path):
    report = run_checks({"slope": "import os\nos._exit(0)\n"}, "slope", 10.0, 1)["slope"]
    assert report.outcome == "stopped"
    assert "did not finish: your code's process ended (exit code 0)" in report.headline


def test_input_and_writes_on_the_standard_streams_do_not_touch_the_checkers_pipe():
    slope = (
        "import os, sys\n"
        "def slope(f, x, h=1e-6):\n"
        "    os.write(1, b'not an answer\\n')\n"
        "    sys.__stdout__.write('nor this\\n')\n"
        "    try:\n"
        "        input()\n"
        "    except EOFError:\n"
        "        pass\n"
        "    return (f(x + h) - f(x)) / h\n"
    )
    assert run_checks({"slope": slope}, "slope", 10.0, 1)["slope"].passed


def test_a_number_that_claims_to_equal_everything_arrives_as_a_plain_number():
    liar = (
        "class Anything(float):\n"
        "    def __sub__(self, other):\n"
        "        return 0.0\n"
        "    __rsub__ = __sub__\n"
        "def tanh_derivative(x):\n"
        "    return Anything(42.0)\n"
    )
    report = run_checks({"tanh-derivative": liar}, "tanh-derivative", 10.0, 1)["tanh-derivative"]
    assert not report.passed
    assert "yours gives 42.0" in report.checks[0].message


# What the reader's process may rewrite before the facts on its functions are read: the judge of
# borrowed code, had it run there (it ran there until the judgement moved to the checks' process).
SILENCED_JUDGE = (
    "import sys\n"
    "for module in list(sys.modules.values()):\n"
    "    if hasattr(module, 'borrowed_names'):\n"
    "        module.borrowed_names = lambda *a, **k: ''\n"
)


@pytest.mark.parametrize(
    "source",
    [*BORROWED_SLOPES.values(), SILENCED_JUDGE + BORROWED_SLOPES["the reference's function itself"]],
    ids=[*BORROWED_SLOPES.keys(), "with the judge of borrowed code silenced"],
)
def test_borrowed_code_is_judged_where_the_readers_code_cannot_reach(source):
    report = check_across("slope", source, {}, time_limit=10.0, seed=1)
    assert report.outcome == "failed"
    assert "takes the book's implementation" in report.checks[-1].message


def test_trace_returns_the_checks_own_records_and_may_mark_its_copies():
    marking = (
        "def trace(root):\n"
        "    nodes, edges = [], []\n"
        "    def visit(node):\n"
        "        if getattr(node, 'seen', False):\n"
        "            return\n"
        "        node.seen = True\n"
        "        nodes.append(node)\n"
        "        for child in node._prev:\n"
        "            edges.append((child, node))\n"
        "            visit(child)\n"
        "    visit(root)\n"
        "    return nodes, edges\n"
    )
    report = check_across("trace", marking, {}, time_limit=10.0, seed=1)
    assert report.passed, report.text()
    wrong = marking.replace("edges.append((child, node))", "edges.append((node, child))")
    report = check_across("trace", wrong, {}, time_limit=10.0, seed=1)
    assert "your pairs run (node, child) (your line 9:" in report.text()


def test_a_piece_checked_across_builds_on_the_readers_earlier_passing_piece():
    # accumulate, checked first, passes: power-and-exp then runs on the reader's accumulate, not the book's
    pieces = {"accumulate": by_id("accumulate").solution, "power-and-exp": by_id("power-and-exp").solution}
    report = run_checks(pieces, "power-and-exp", 10.0, 1)["power-and-exp"]
    assert report.passed, report.text()
    assert ("accumulate", "yours") in [(use.exercise, use.source) for use in report.pieces]


def test_a_list_the_readers_function_changes_in_place_is_changed_for_the_checks_too():
    solution = by_id("gradient-check").solution
    in_place = solution.replace("up, down = list(xs), list(xs)", "up, down = xs, list(xs)")
    assert in_place != solution
    report = run_checks({"gradient-check": in_place}, "gradient-check", 10.0, 1)["gradient-check"]
    assert "changed the list xs it was given" in report.text(), report.text()


def test_the_exercises_checked_across_are_the_storys_beginning():
    # so a piece checked across two processes builds only on pieces checked that way too
    assert list(ACROSS) == [exercise.id for exercise in EXERCISES[: len(ACROSS)]]
