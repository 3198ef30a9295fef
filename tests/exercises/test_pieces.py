"""Every exercise: the stub fails, the reference passes, each known-wrong variant fails as intended."""

from __future__ import annotations

from pathlib import Path

import pytest
from adversaries import RULES_WITH_EQUALS

from scratchgrad.exercises import EXERCISES, MissingTool, check, check_all, describe
from scratchgrad.exercises.exercise import Exercise
from scratchgrad.exercises.registry import COMMAND_LINE_ONLY, ENGINE_PIECES, UnknownExerciseError, by_id

DOCS = Path(__file__).resolve().parents[2] / "docs"
WRONG = [(exercise.id, wrong) for exercise in EXERCISES for wrong in exercise.wrong]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_stub_runs_and_fails_at_least_one_check(exercise):
    report = check(exercise.id, exercise.stub)
    assert report.outcome == "failed", report.text()
    assert any(not line.passed for line in report.checks)


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_reference_solution_passes_every_check(exercise):
    report = check(exercise.id, exercise.solution)
    assert report.passed, report.text()
    assert [line.title for line in report.checks] == [hidden.title for hidden in exercise.checks]
    assert all(piece.source == "reference" for piece in report.pieces)


@pytest.mark.parametrize(("exercise_id", "wrong"), WRONG, ids=[f"{e}-{w.name}" for e, w in WRONG])
def test_known_wrong_variant_fails_with_its_message(exercise_id, wrong):
    exercise = by_id(exercise_id)
    source = exercise.wrong_source(wrong.name)
    assert source != exercise.solution
    report = check(exercise_id, source)
    assert report.outcome == "failed", report.text()
    failures = [line.message for line in report.checks if not line.passed]
    assert any(wrong.message in message for message in failures), report.text()


def test_the_track_covers_at_least_twelve_exercises_over_ten_chapters():
    assert len(EXERCISES) >= 12
    assert len({exercise.chapter for exercise in EXERCISES}) >= 10


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_exercise_belongs_to_a_chapter_and_builds_only_on_earlier_ones(exercise):
    assert (DOCS / f"{exercise.chapter}.md").is_file()
    earlier = [other.id for other in EXERCISES[: EXERCISES.index(exercise)]]
    assert set(exercise.requires) <= set(earlier)
    assert len(exercise.wrong) >= 2
    assert exercise.hints
    assert exercise.checks


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_the_solution_defines_what_the_exercise_provides(exercise):
    names = {name.split(".")[0] for name in exercise.provides}
    assert all(f"def {name}" in exercise.solution or f"class {name}" in exercise.solution for name in names)


def test_a_correct_solution_in_other_words_passes():
    loops_instead_of_recursion = """
def topological_order(root):
    order, done, stack = [], set(), [(root, False)]
    while stack:
        node, children_listed = stack.pop()
        if children_listed:
            order.append(node)
        elif node not in done:
            done.add(node)
            stack.append((node, True))
            stack.extend((child, False) for child in node._prev if child not in done)
    return order
"""
    assert check("topological-order", loops_instead_of_recursion).passed
    central_difference_with_a_helper = """
def _nudged(f, x, step):
    return f(x + step)

def slope(f, x, h=1e-6):
    return (_nudged(f, x, h) - _nudged(f, x, -h)) / (2 * h)
"""
    assert check("slope", central_difference_with_a_helper).passed


def test_describe_lists_every_exercise_for_the_page_build():
    described = describe()
    assert [item["id"] for item in described] == [exercise.id for exercise in EXERCISES]
    backward = next(item for item in described if item["id"] == "backward")
    assert backward["builds_on"] == [
        "value-graph",
        "tanh-derivative",
        "local-derivatives",
        "topological-order",
    ]
    assert backward["stub"] == by_id("backward").stub
    assert backward["solution"].startswith("class Value(Value):")
    assert len(backward["hints"]) == 3


def test_an_unknown_exercise_names_the_known_ones():
    with pytest.raises(
        UnknownExerciseError,
        match="no exercise 'nope'; the exercises are: slope, descent, trace, value-graph",
    ):
        by_id("nope")


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda exercise: exercise.id)
def test_a_dunder_in_a_task_or_hint_is_code_so_that_markdown_keeps_its_underscores(exercise):
    """Outside backticks, Markdown reads ``__init__`` as bold "init"."""
    for text in (exercise.task, *exercise.hints):
        outside_code = "".join(text.split("`")[::2])
        assert "__" not in outside_code, text


def test_a_wrong_loss_measured_before_the_step_gets_no_hint_about_when_it_is_measured():
    exercise = by_id("training")
    report = check("training", exercise.wrong_source("first-example-only"))
    failures = " ".join(line.message for line in report.checks if not line.passed)
    assert "your line 6" in failures, report.text()
    assert "measured before the step" not in failures, report.text()


def test_a_slope_that_ignores_h_is_told_so_and_a_typo_is_not():
    ignored = "def slope(f, x, h=1e-6):\n    step = 1e-6\n    return (f(x + step) - f(x)) / step\n"
    typo = "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(h)) / h\n"
    told = " ".join(line.message for line in check("slope", ignored).checks if not line.passed)
    untold = " ".join(line.message for line in check("slope", typo).checks if not line.passed)
    assert "does slope use the h it is given" in told
    assert "h it is given" not in untold
    assert "central difference" not in untold
    assert "subtract f(x), not f(h)" in untold


def test_a_none_from_the_readers_method_is_not_blamed_on_the_book_and_gets_no_swap_hint():
    source = by_id("composed-ops").wrong_source("rmul-returns-none")
    failures = " ".join(line.message for line in check("composed-ops", source).checks if not line.passed)
    assert "a None that a method of yours returned" in failures
    assert "it was given one of your Values" not in failures
    assert "not self / other" not in failures


def test_a_wrong_reflected_subtraction_gets_the_swap_hint_only_when_it_swapped():
    source = by_id("composed-ops").solution.replace("return other + (-self)", "return other + self")
    failures = " ".join(line.message for line in check("composed-ops", source).checks if not line.passed)
    assert "2 - a" in failures
    assert "not self - other" not in failures


def test_a_zero_division_in_the_readers_log_rule_gets_no_advice_about_shifted_exps():
    source = by_id("softmax-cross-entropy").wrong_source("log-rule-divides-by-out")
    report = check("softmax-cross-entropy", source)
    failures = " ".join(line.message for line in report.checks if not line.passed)
    assert "in your rule for log" in failures
    assert "log Σ exp(z − m)" not in failures


def test_an_exercise_whose_tool_is_missing_is_not_checked_and_says_how_to_get_it(monkeypatch):
    monkeypatch.setattr(Exercise, "missing_tools", lambda self: list(self.needs))
    with pytest.raises(MissingTool, match=r"'torch-port' is checked with torch.*: pip install torch"):
        check("torch-port", by_id("torch-port").solution)
    reports = check_all({"torch-port": by_id("torch-port").solution, "slope": by_id("slope").solution})
    assert list(reports) == ["slope"]  # nothing here can say whether the port passes


def test_only_an_exercise_that_needs_a_tool_is_for_the_command_line_only():
    described = {item["id"]: item for item in describe()}
    assert [e.id for e in COMMAND_LINE_ONLY] == ["torch-port"]
    assert described["torch-port"]["command_line_only"] is True
    assert described["torch-port"]["needs"] == ["torch"]
    assert not any(item["command_line_only"] for key, item in described.items() if key != "torch-port")
    assert [e.id for e in ENGINE_PIECES] == [e.id for e in EXERCISES if e.id != "torch-port"]


def test_the_accumulate_stub_hands_over_no_rule_and_its_check_names_every_line_that_assigns():
    stub = by_id("accumulate").stub
    assert "def " not in stub
    assert ".grad" not in stub
    report = check("accumulate", stub, {"local-derivatives": RULES_WITH_EQUALS}, seed=1)
    message = report.checks[0].message
    assert message.startswith("3 of your 3 rules lose a share: (1) your rule for +"), message
    lines = RULES_WITH_EQUALS.splitlines()
    assigning = {
        "+": "self.grad = out.grad",
        "*": "self.grad = other.data * out.grad",
        "tanh": "self.grad = tanh_derivative(self.data) * out.grad",
    }
    for rule, line in assigning.items():
        number = 1 + next(i for i, text in enumerate(lines) if text.strip() == line)
        where = f"(your code for 'local-derivatives') sets a.grad with `=` (line {number}: `{line}`)"
        assert f"your rule for {rule} {where}" in message, message


def test_the_order_stub_leaves_the_whole_walk_to_the_reader():
    stub = by_id("topological-order").stub
    assert [
        line for line in stub.splitlines() if line.strip() and not line.strip().startswith(('"""', "pass"))
    ] == ["def topological_order(root):"]
    assert not check("topological-order", stub, seed=1).passed
