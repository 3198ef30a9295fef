"""The per-node gradient check: every node against central differences, and the op that went wrong."""

import math

import pytest

from scratchgrad import Value
from scratchgrad.drawn_graph.check import check_graph, forward_rule
from scratchgrad.drawn_graph.record import record_backward
from scratchgrad.graph import graph_nodes
from scratchgrad.stages import closures, overwrite_bug


class OffTanh(closures.Value):
    """A reader's Value whose tanh backward forgets to square: (1 - t) where (1 - t**2) belongs."""

    def tanh(self):
        t = math.tanh(self.data)
        out = OffTanh(t, "", (self,), "tanh")

        def _backward():
            self.grad += (1 - t) * out.grad

        out._backward = _backward
        return out


def checked(root):
    nodes = graph_nodes(root)
    result = check_graph(nodes, record_backward(nodes))
    return nodes, result


def neuron(value_class):
    """o = tanh(x*w + b) * 2, labelled, in any Value class."""
    x, w, b = value_class(0.5, label="x"), value_class(-1.5, label="w"), value_class(0.25, label="b")
    xw = x * w
    xw.label = "xw"
    n = xw + b
    n.label = "n"
    t = n.tanh()
    t.label = "t"
    o = t * value_class(2.0, label="two")
    o.label = "o"
    return o


@pytest.mark.parametrize("value_class", [Value, closures.Value], ids=["package", "closures"])
def test_a_correct_engine_has_every_node_ok(value_class):
    nodes, result = checked(neuron(value_class))
    assert [check.status for check in result.nodes] == ["ok"] * len(nodes)
    assert result.culprits == []


def test_a_wrong_tanh_backward_flags_the_node_below_it_and_blames_tanh():
    x = OffTanh(0.3, label="x")
    t = x.tanh()
    t.label = "t"
    o = t * 2.0
    o.label = "o"
    nodes, result = checked(o)
    names = [node.name for node in nodes]
    wrong = [names[i] for i in result.wrong]
    assert wrong == ["x"]  # exactly the node the tanh's backward feeds; t and o are right
    [culprit] = result.culprits
    assert (names[culprit.node], names[culprit.child]) == ("t", "x")
    expected = 2.0 * (1 - math.tanh(0.3) ** 2)
    assert culprit.expected == pytest.approx(expected, rel=1e-6)
    assert culprit.got == pytest.approx(2.0 * (1 - math.tanh(0.3)), rel=1e-9)
    x_check = result.nodes[names.index("x")]
    assert x_check.expected == pytest.approx(expected, rel=1e-6)


def test_the_overwrite_bug_is_found_on_a_value_used_twice():
    b = overwrite_bug.Value(3.0, label="b")
    d = b + b  # kept in a set: one child, used twice
    d.label = "d"
    nodes, result = checked(d)
    b_check = result.nodes[[node.name for node in nodes].index("b")]
    assert (b_check.status, b_check.got) == ("wrong", 1.0)
    assert b_check.expected == pytest.approx(2.0)
    assert [nodes[c.node].name for c in result.culprits] == ["d"]


def test_an_op_the_check_cannot_recompute_leaves_the_nodes_below_it_unchecked():
    a = closures.Value(2.0, label="a")
    out = closures.Value(a.data * 3, label="out", _children=(a,), _op="mystery")
    out._backward = lambda: None
    nodes, result = checked(out)
    statuses = {nodes[c.node].name: c.status for c in result.nodes}
    assert statuses == {"a": "unchecked", "out": "ok"}
    assert "mystery" in result.nodes[0].reason


def test_checking_leaves_the_gradients_and_closures_as_they_were():
    o = neuron(closures.Value)
    nodes = graph_nodes(o)
    closures_before = [node.value._backward for node in nodes]
    check_graph(nodes, record_backward(nodes))
    assert [node.value.grad for node in nodes] == [0.0] * len(nodes)
    assert [node.value._backward for node in nodes] == closures_before


@pytest.mark.parametrize(
    ("op", "inputs", "result"),
    [
        ("+ -1", [3.0], 2.0),
        ("* 2.5", [2.0], 5.0),
        ("**2", [3.0], 9.0),
        ("2**", [3.0], 8.0),
        ("-", [5.0, 2.0], 3.0),
    ],
)
def test_forward_rules_read_the_constant_from_the_op_name(op, inputs, result):
    assert forward_rule(op)(inputs) == pytest.approx(result)


def test_an_unknown_op_has_no_rule():
    assert forward_rule("softmax") is None
