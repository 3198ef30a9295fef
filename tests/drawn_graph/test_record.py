"""Recording backward: the visits in the order backward() makes them, the shares, the lines that ran."""

import inspect

import pytest

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


def test_a_learners_engine_is_recorded_with_the_lines_of_their_rules():
    from reader_work import LEARNER
    from scratchgrad.page.reader_engine import ReaderEngine

    with ReaderEngine.load("accumulating-gradients", LEARNER).standing_in():
        from scratchgrad.stages.closures import Value as Yours

        a, b = Yours(2.0, "a"), Yours(-3.0, "b")
        product = a * b
        product.label = "p"
        root = product + a  # a used twice: two shares meet
        root.label = "y"
    nodes, recording = recorded(root)
    names = [node.name for node in nodes]
    assert recording.error is None
    assert recording.grads[names.index("a")] == pytest.approx(-2.0)
    [times] = [visit for visit in recording.visits if names[visit.node] == "p"]
    source = LEARNER["accumulate"].splitlines()
    lines = {names[update.child]: source[update.line.line - 1].strip() for update in times.updates}
    assert lines == {
        "a": "self.grad += result.grad * other.data",
        "b": "other.grad += result.grad * self.data",
    }
    assert {update.line.file for update in times.updates} == {"<yours: accumulate>"}


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
