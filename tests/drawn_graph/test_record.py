"""Recording backward: the visits in the order backward() makes them, the shares, the lines that ran."""

import importlib
import inspect

import pytest

from reader_work import LEARNER
from scratchgrad import Value
from scratchgrad.drawn_graph.record import record_backward
from scratchgrad.graph import graph_nodes
from scratchgrad.stages import closures, graph_only


def five_nodes(value_class):
    """e = a * b; d = e + c: the five Values a, b, c, d, e."""
    a, b, c = value_class(2.0, label="a"), value_class(-3.0, label="b"), value_class(10.0, label="c")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    return d


def recorded(root):
    nodes = graph_nodes(root)
    return nodes, record_backward(nodes)


@pytest.mark.parametrize("value_class", [Value, closures.Value], ids=["package", "closures"])
def test_visits_follow_backward_from_the_output_with_the_chain_rule_shares(value_class):
    nodes, recording = recorded(five_nodes(value_class))
    names = [node.name for node in nodes]
    visited = [names[visit.node] for visit in recording.visits]
    assert visited[:1] == ["d"]
    assert visited.index("e") < visited.index("a")
    assert sorted(visited) == sorted(names)
    shares = {
        (names[visit.node], names[update.child]): update.after - update.before
        for visit in recording.visits
        for update in visit.updates
    }
    assert shares == {("d", "e"): 1.0, ("d", "c"): 1.0, ("e", "a"): -3.0, ("e", "b"): 2.0}
    assert recording.seeded[names.index("d")] == 1.0
    assert recording.error is None


def test_closure_lines_are_the_lines_of_the_op_s_backward():
    nodes, recording = recorded(five_nodes(closures.Value))
    names = [node.name for node in nodes]
    [times] = [visit for visit in recording.visits if names[visit.node] == "e"]
    source, first = inspect.getsourcelines(closures.Value.__mul__)
    lines = {update.child: update.line for update in times.updates}
    assert lines[names.index("a")].text.strip() == "self.grad += other.data * out.grad"
    assert lines[names.index("b")].text.strip() == "other.grad += self.data * out.grad"
    assert first < lines[names.index("a")].line < first + len(source)


def test_package_lines_are_the_chain_rule_line_of_value_backward_and_the_op_s_method():
    nodes, recording = recorded(five_nodes(Value))
    names = [node.name for node in nodes]
    [times] = [visit for visit in recording.visits if names[visit.node] == "e"]
    assert {update.line.text.strip() for update in times.updates} == {"child.grad += local * grad"}
    assert times.origin.line == Value.__mul__.__code__.co_firstlineno


def test_recording_puts_every_gradient_back():
    d = five_nodes(Value)
    d.backward()
    nodes = graph_nodes(d)
    before = [node.value.grad for node in nodes]
    record_backward(nodes)
    assert [node.value.grad for node in nodes] == before


def test_a_value_without_gradients_says_so():
    a = graph_only.Value(2.0, label="a")
    _nodes, recording = recorded(a * graph_only.Value(3.0))
    assert recording.grads == []
    assert "no gradient" in recording.error


def test_a_backward_that_raises_is_reported_with_the_visits_before_it():
    class Broken(closures.Value):
        def __mul__(self, other):
            out = super().__mul__(other)

            def _backward():
                raise ArithmeticError("the reader's bug")

            out._backward = _backward
            return out

    _nodes, recording = recorded(Broken(2.0, label="a") * Broken(3.0, label="b"))
    assert recording.error == "backward() raised ArithmeticError: the reader's bug"
    assert len(recording.visits) == 1


def test_a_relu_that_is_off_but_receives_an_infinite_gradient_is_recorded_as_visited():
    a = Value(-1.0, label="a")
    off = (a * 3.0).relu()
    off.label = "off"
    root = off * 1e300 * 1e300  # finite local derivatives whose product overflows: off.grad is inf
    nodes, recording = recorded(root)
    names = [node.name for node in nodes]
    visited = [names[visit.node] for visit in recording.visits]
    assert "off" in visited
    assert "a" in visited
    assert visited.count("off") == 1
    assert str(recording.grads[names.index("a")]) == "nan"


def test_a_gradient_that_stays_nan_is_not_recorded_as_an_update():
    x = Value(float("nan"), label="x")
    y = x * 2.0
    y.label = "y"
    root = y + y  # y receives NaN twice: the second share leaves it NaN, which is no change
    _, recording = recorded(root)
    updates = [update for visit in recording.visits for update in visit.updates]
    assert all(not (update.before != update.before and update.after != update.after) for update in updates)


def test_the_package_backward_is_watched_through_its_watch_callback_not_traced(monkeypatch):
    import sys

    monkeypatch.setattr(sys, "settrace", lambda *args: pytest.fail("the recorder traced backward()"))
    _, recording = recorded(five_nodes(Value))
    assert recording.error is None
    assert all(
        line.text.strip().startswith("child.grad +=") for visit in recording.visits for line in visit.lines
    )


def test_closures_are_watched_by_wrapping_them_not_traced(monkeypatch):
    import sys

    monkeypatch.setattr(sys, "settrace", lambda *args: pytest.fail("the recorder traced backward()"))
    _, recording = recorded(five_nodes(closures.Value))
    assert recording.error is None
    assert len(recording.visits) == 5


def learners_reused_value(stage: str):
    """y = a * b + a on the learner's engine of "The += bug", a page that loads both the closure
    stage's stand-in (their += rules) and the overwrite stage's (a copy of them rewritten with =)."""
    from reader_work import LEARNER
    from scratchgrad.page.reader_engine import ReaderEngine

    engine = ReaderEngine.load("accumulating-gradients", LEARNER)
    assert {stand_in.module for stand_in, _ in engine.stand_ins} >= {
        "scratchgrad.stages.closures",
        "scratchgrad.stages.overwrite_bug",
    }
    with engine.standing_in():
        value_class = importlib.import_module(stage).Value
        a, b = value_class(2.0, "a"), value_class(-3.0, "b")
        product = a * b
        product.label = "p"
        root = product + a  # a used twice: two shares meet
        root.label = "y"
    nodes, recording = recorded(root)
    names = [node.name for node in nodes]
    [times] = [visit for visit in recording.visits if names[visit.node] == "p"]
    return names, recording, {names[update.child]: update.line for update in times.updates}


def test_a_learners_engine_is_recorded_with_the_lines_of_their_rules():
    names, recording, lines = learners_reused_value("scratchgrad.stages.closures")
    assert recording.error is None
    assert recording.grads[names.index("a")] == pytest.approx(-2.0)
    assert {name: line.text.strip() for name, line in lines.items()} == {
        "a": "self.grad += result.grad * other.data",
        "b": "other.grad += result.grad * self.data",
    }
    assert {line.file for line in lines.values()} == {"<yours: accumulate>"}
    source = LEARNER["accumulate"].splitlines()
    assert [source[line.line - 1] for line in lines.values()] == [line.text for line in lines.values()]


def test_the_overwrite_stages_copy_of_a_learners_rules_is_quoted_under_a_name_of_its_own():
    names, recording, lines = learners_reused_value("scratchgrad.stages.overwrite_bug")
    assert recording.grads[names.index("a")] == pytest.approx(-3.0)  # the share of p overwrote y's
    assert {name: line.text.strip() for name, line in lines.items()} == {
        "a": "self.grad = result.grad * other.data",
        "b": "other.grad = result.grad * self.data",
    }
    assert {line.file for line in lines.values()} == {"<yours: accumulate, with the overwrite bug>"}


def test_a_rule_that_loops_over_its_children_is_given_its_loop_s_line():
    class Looping(closures.Value):
        def __mul__(self, other):
            out = super().__mul__(other)
            locals_ = {self: other.data, other: self.data}

            def _backward():
                for child, local in locals_.items():
                    child.grad += local * out.grad

            out._backward = _backward
            return out

    _, recording = recorded(Looping(2.0, label="a") * Looping(3.0, label="b"))
    [times] = [visit for visit in recording.visits if visit.updates]
    assert {update.line.text.strip() for update in times.updates} == {"child.grad += local * out.grad"}
    assert [update.after for update in times.updates] == [3.0, 2.0]


def test_a_closure_gradient_that_stays_nan_is_not_recorded_as_an_update():
    x = closures.Value(float("nan"), label="x")
    y = x * 2.0
    y.label = "y"
    _, recording = recorded(y + y)  # y receives NaN twice: the second share leaves it NaN
    updates = [update for visit in recording.visits for update in visit.updates]
    assert all(not (update.before != update.before and update.after != update.after) for update in updates)
    assert any(update.after != update.after for update in updates)  # the first NaN is an update
