"""Stage 1: a Value that records data, children, op and label, and nothing else yet."""

from scratchgrad.stages.graph_only import Value


def test_result_remembers_its_operands_and_operation():
    a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
    e = a * b
    d = e + c
    assert (e.data, e._op, e._prev) == (-6.0, "*", {a, b})
    assert (d.data, d._op, d._prev) == (4.0, "+", {e, c})


def test_input_has_no_children_and_no_op():
    a = Value(2.0, label="a")
    assert (a.label, a._prev, a._op) == ("a", set(), "")


def test_expression_l_can_be_walked_back_to_its_inputs():
    a, b, c, f = (Value(x, label=name) for x, name in [(2.0, "a"), (-3.0, "b"), (10.0, "c"), (-2.0, "f")])
    out = (a * b + c) * f
    seen, stack = set(), [out]
    while stack:
        node = stack.pop()
        seen.add(node)
        stack.extend(node._prev)
    assert out.data == -8.0
    assert len(seen) == 7
    assert {v.label for v in seen if not v._prev} == {"a", "b", "c", "f"}


def test_value_used_twice_is_one_child():
    a = Value(3.0)
    assert (a + a)._prev == {a}


def test_no_gradients_yet():
    d = Value(2.0) * Value(3.0)
    assert not hasattr(d, "grad")
    assert not hasattr(d, "backward")


def test_repr_shows_data():
    assert repr(Value(2.0) + Value(0.5)) == "Value(data=2.5)"
