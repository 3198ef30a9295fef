"""A wrong backward rule is traced node by node to the reader's rule and line, in every exercise that
writes rules; the book's pieces and later pieces are never blamed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scratchgrad.exercises import check
from scratchgrad.exercises.registry import by_id


@dataclass(frozen=True)
class Bug:
    """A rule of `piece` made wrong by one edit, checked in `exercise`: the first wrong gradient is
    `child`'s, passed by the rule for `op`, on the edited line."""

    name: str
    exercise: str
    piece: str
    old: str
    new: str
    child: str
    op: str
    check: str  # a fragment of the title of a check whose message must carry the blame


BUGS = [
    Bug(
        "ld-add",
        "local-derivatives",
        "local-derivatives",
        "other.grad = 1.0 * out.grad",
        "other.grad = -1.0 * out.grad",
        "b",
        "+",
        "the neuron",
    ),
    Bug(
        "ld-mul",
        "local-derivatives",
        "local-derivatives",
        "other.grad = self.data * out.grad",
        "other.grad = self.data",
        "w1",
        "*",
        "the neuron",
    ),
    Bug(
        "ld-tanh",
        "local-derivatives",
        "local-derivatives",
        "(1 - t**2) * out.grad",
        "(1 - t) * out.grad",
        "n",
        "tanh",
        "the neuron",
    ),
    Bug(
        "backward-earlier-mul",
        "backward",
        "local-derivatives",
        "self.grad = other.data * out.grad",
        "self.grad = self.data * out.grad",
        "d",
        "*",
        "L = (a·b + c)·f",
    ),
    Bug(
        "backward-earlier-tanh",
        "backward",
        "local-derivatives",
        "(1 - t**2) * out.grad",
        "(1 + t**2) * out.grad",
        "t2",
        "tanh",
        "tanh(tanh(tanh",
    ),
    Bug(
        "acc-add",
        "accumulate",
        "accumulate",
        "other.grad += 1.0 * out.grad",
        "other.grad += 2.0 * out.grad",
        "c",
        "+",
        "L = (a·b + c)·(a·b)",
    ),
    Bug(
        "acc-mul",
        "accumulate",
        "accumulate",
        "other.grad += self.data * out.grad",
        "other.grad += self.data",
        "x",
        "*",
        "x feeds two neurons",
    ),
    Bug(
        "acc-tanh",
        "accumulate",
        "accumulate",
        "(1 - t**2) * out.grad",
        "(1 - t) * out.grad",
        "z2",
        "tanh",
        "x feeds two neurons",
    ),
    Bug(
        "pow",
        "power-and-exp",
        "power-and-exp",
        "k * self.data ** (k - 1) * out.grad",
        "k * self.data ** k * out.grad",
        "e",
        "**2",
        "the rules combine",
    ),
    Bug(
        "exp",
        "power-and-exp",
        "power-and-exp",
        "self.grad += out.data * out.grad",
        "self.grad += self.data * out.grad",
        "x",
        "exp",
        "the rules combine",
    ),
    Bug(  # the earlier piece is to blame, not the piece under check
        "power-after-earlier-add",
        "power-and-exp",
        "accumulate",
        "other.grad += 1.0 * out.grad",
        "other.grad += 2.0 * out.grad",
        "ex3",
        "+",
        "** and exp add their share",
    ),
]
SUB_RULE = """
    def __sub__(self, other):  # self - other, with its own rule
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, "", (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out
"""


def _sources(bug: Bug) -> tuple[str, dict[str, str], str]:
    """The exercise's source, the reader's earlier pieces, and the wrong line as written."""
    wrong = by_id(bug.piece).solution
    assert bug.old in wrong, bug
    wrong = wrong.replace(bug.old, bug.new, 1)
    line = next(n for n, text in enumerate(wrong.splitlines(), 1) if bug.new in text)
    quoted = f"line {line}: `{wrong.splitlines()[line - 1].strip()}`"
    if bug.piece == bug.exercise:
        return wrong, {}, quoted
    return by_id(bug.exercise).solution, {bug.piece: wrong}, quoted


@pytest.mark.parametrize("bug", BUGS, ids=lambda bug: bug.name)
def test_a_wrong_rule_is_named_with_the_first_wrong_node_and_the_readers_line(bug):
    source, earlier, line = _sources(bug)
    report = check(bug.exercise, source, earlier, seed=1)
    [message] = [entry.message for entry in report.checks if bug.check in entry.title]
    blamed = (
        f"The first wrong gradient is {bug.child}'s: your rule for {bug.op} (your code for {bug.piece!r}, "
    )
    assert blamed + f"{line})" in message, message
    assert "<reference" not in message
    assert "the book's" not in message


def test_the_first_wrong_node_of_the_message_is_the_one_blamed():
    source, earlier, _ = _sources(BUGS[1])  # ld-mul: x1w1 gives both x1 and w1 their share; w1 is wrong
    report = check("local-derivatives", source, earlier, seed=1)
    [message] = [entry.message for entry in report.checks if "the neuron" in entry.title]
    assert message.startswith("o = tanh(x1·w1 + x2·w2 + b): do/dw1 should be 1.0; your w1.grad is 2.0. ")
    assert "The first wrong gradient is w1's" in message


def test_a_rule_that_sets_is_blamed_where_a_node_used_twice_loses_a_share():
    wrong = "other.grad = self.data * out.grad"
    source = by_id("accumulate").solution.replace("other.grad += self.data * out.grad", wrong)
    line = next(n for n, text in enumerate(source.splitlines(), 1) if wrong in text)
    report = check("accumulate", source, seed=1)
    checks = {entry.title: entry for entry in report.checks}
    # L = d·e gives e (its other) the first share e gets; a node used once may be set: no failure there
    assert checks["L = (a·b + c)·(a·b): e = a·b used twice"].passed
    [message] = [entry.message for entry in report.checks if "x feeds two neurons" in entry.title]
    assert (
        f"The first wrong gradient is x's: your rule for * (your code for 'accumulate', line {line}: "
        f"`{wrong}`) sets x.grad with `=`, so the share x already held from another use is lost: "
        "add yours with +="
    ) in message


def test_a_composed_operation_written_as_its_own_rule_is_blamed_too():
    source = by_id("composed-ops").solution.replace(
        "    def __sub__(self, other):  # self - other\n        return self + (-other)\n", SUB_RULE
    )
    report = check("composed-ops", source, seed=1)
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "other.grad += out.grad" in text)
    messages = " ".join(entry.message for entry in report.checks if not entry.passed)
    assert (
        f"The first wrong gradient is b's: your rule for - (your code for 'composed-ops', line {line}: "
        in messages
    )


def test_the_books_rules_are_never_blamed():
    report = check("accumulate", "class Value(Value):\n    pass\n", seed=1)  # the book's = rules, unfixed
    assert not report.passed
    assert "The first wrong gradient" not in report.text()


def test_a_single_rule_check_quotes_the_line_that_set_the_share():
    bug = BUGS[2]  # ld-tanh
    source, earlier, line = _sources(bug)
    report = check("local-derivatives", source, earlier, seed=1)
    [message] = [entry.message for entry in report.checks if entry.title.startswith("tanh:")]
    assert message.endswith(f"yours is 0.585786 (your code for 'local-derivatives', {line})"), message


def test_a_wrong_forward_pass_is_not_blamed_on_a_rule():
    # tanh's data is wrong (tanh(2x)); its rule is right for that data, and no rule is blamed for it
    source = by_id("accumulate").solution.replace("t = math.tanh(self.data)", "t = math.tanh(2 * self.data)")
    report = check("accumulate", source, seed=1)
    assert not report.passed
    assert "The first wrong gradient" not in report.text()


def test_a_gradient_by_hand_names_the_readers_line_that_set_it():
    source = by_id("backprop-by-hand").solution.replace("c.grad = 1.0 * d.grad", "c.grad = 1.0")
    source = source.replace("(a, b, c, f, e, d, L)", "(x, y, z, w, e, d, L)")  # the reader's own names
    source = source.replace("a.", "x.").replace("b.", "y.").replace("c.", "z.").replace("f.", "w.")
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "z.grad = 1.0" in text)
    report = check("backprop-by-hand", source, seed=1)
    assert report.checks[0].message == (
        f"dL/dc should be -2.0; your c.grad is 1.0 (your line {line}: `z.grad = 1.0`)"
    ), report.text()


def test_a_wrong_descent_quotes_the_line_of_the_loop_that_moves_x():
    source = by_id("descent").solution.replace("x = x - lr * slope(f, x)", "x = x - slope(f, x)")
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "x = x - slope(f, x)" in text)
    report = check("descent", source, seed=1)
    assert all(f"(your line {line}: `x = x - slope(f, x)`)" in entry.message for entry in report.checks), (
        report.text()
    )
