"""Stage 1b: the graph of stage 1, a ``grad`` on every node, and tanh — but no backward rule."""

import math

from scratchgrad.stages import by_hand, graph_only
from scratchgrad.stages.by_hand import Value


def test_every_node_starts_with_gradient_zero():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    out = (a * b + Value(10.0)).tanh()
    assert [node.grad for node in (a, b, out)] == [0.0, 0.0, 0.0]


def test_results_are_this_stage_so_they_have_a_grad_too():
    a, b = Value(2.0), Value(-3.0)
    for result in (a + b, a * b, a.tanh()):
        assert type(result) is by_hand.Value
        assert isinstance(result, graph_only.Value)


def test_tanh_records_its_one_child():
    z = Value(0.5, label="z")
    o = z.tanh()
    assert (o.data, o._op, o._prev) == (math.tanh(0.5), "tanh", {z})


def test_gradients_are_set_by_hand_and_nothing_sets_them_for_us():
    a, b = Value(2.0), Value(-3.0)
    e = a * b
    assert not hasattr(e, "backward")
    assert not hasattr(e, "_backward")
    e.grad = 1.0
    a.grad = b.data * e.grad
    assert (a.grad, b.grad) == (-3.0, 0.0)
