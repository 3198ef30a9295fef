"""Stage 2: backward through `_backward` closures and a recursive topological sort."""

import math
import sys

import pytest

import scratchgrad
from scratchgrad.stages.closures import Value, topological_order_recursive


def test_gradient_accumulates_over_reused_value():
    a = Value(3.0)
    (a + a).backward()
    assert a.grad == 2.0


def test_input_backward_does_nothing():
    a = Value(3.0)
    a._backward()
    assert a.grad == 0.0


def test_topological_order_puts_children_first():
    a, b = Value(1.0), Value(2.0)
    e = a * b
    d = e + a
    order = topological_order_recursive(d)
    assert len(order) == 4
    assert order[-1] is d
    assert order.index(e) > max(order.index(a), order.index(b))


SEED_NEURON = [2.0, 0.0, -3.0, 1.0, 6.8813735870195432]  # x1, x2, w1, w2, b

EXPRESSIONS = {
    "a*b + c": ([2.0, -3.0, 10.0], lambda a, b, c: a * b + c),
    "tanh neuron": (SEED_NEURON, lambda x1, x2, w1, w2, b: (x1 * w1 + x2 * w2 + b).tanh()),
    "number on the right": ([0.7, -1.3], lambda a, b: a * 2 + b * 0.5 + 1),
    "number on the left": ([0.7, -1.3], lambda a, b: 2 * a + 1 + b),
    "subtraction": ([0.7, -1.3], lambda a, b: a - b - 1),
    "reflected subtraction": ([0.7, -1.3], lambda a, b: 3 - a * b),
    "negation": ([0.7, -1.3], lambda a, b: -a * b),
    "division": ([0.7, -1.3], lambda a, b: a / b + b / 4),
    "reflected division": ([0.7, -1.3], lambda a, b: 2 / a + b),
    "power": ([0.7, -1.3], lambda a, b: a**3 + b**-2),
    "exp": ([0.7, -1.3], lambda a, b: (a * b).exp()),
    "tanh": ([0.7, -1.3], lambda a, b: (a + b).tanh() * a),
    "log": ([0.7, 1.3], lambda a, b: (a * b).log() + a.log()),
    "sigmoid": ([0.7, -1.3], lambda a, b: (a * b).sigmoid() * a),
    "relu, both sides of the corner": ([0.7, -1.3], lambda a, b: a.relu() * 3 + b.relu() + (a * b).relu()),
}


def value_and_gradients(value_class, name):
    numbers, expression = EXPRESSIONS[name]
    inputs = [value_class(x) for x in numbers]
    out = expression(*inputs)
    out.backward()
    return [out.data, *(v.grad for v in inputs)]


@pytest.mark.parametrize("name", EXPRESSIONS)
def test_value_and_gradients_equal_the_final_engine(name):
    """Two implementations of the same rules, one with closures, one with stored numbers, must agree."""
    closures_result = value_and_gradients(Value, name)
    assert closures_result == pytest.approx(
        value_and_gradients(scratchgrad.Value, name), rel=1e-12, abs=1e-15
    )


def test_seed_facts_hold():
    assert value_and_gradients(Value, "a*b + c") == [4.0, -3.0, 2.0, 1.0]
    neuron = value_and_gradients(Value, "tanh neuron")
    assert neuron == pytest.approx([math.sqrt(0.5), -1.5, 0.5, 1.0, 0.0, 0.5], abs=1e-12)


def test_exponent_must_be_a_number():
    with pytest.raises(TypeError, match="plain-number exponent, got Value"):
        Value(2.0) ** Value(3.0)


def test_repr_shows_data_and_grad():
    assert repr(Value(2.0)) == "Value(data=2.0, grad=0.0)"


def deep_chain(value_class, depth):
    x0 = value_class(1.0)
    x = x0
    for _ in range(depth):
        x = x * 1.0001
    return x0, x


def test_recursive_sort_fails_on_a_deep_graph_that_the_final_engine_handles():
    depth = 2 * sys.getrecursionlimit()  # 2,000 with the default limit
    _, old = deep_chain(Value, depth)
    with pytest.raises(RecursionError):
        old.backward()
    x0, new = deep_chain(scratchgrad.Value, depth)
    new.backward()
    assert x0.grad == pytest.approx(1.0001**depth, rel=1e-9)
