"""Fused nodes: one node, the same numbers and gradients as the graph of basic operations."""

import math
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scratchgrad import Value
from scratchgrad.fused import ACTIVATIONS, activated_sum, activated_sums, sum_of_squares, total
from scratchgrad.gradcheck import check_gradients, numerical_gradients
from strategies import activations, away_from_zero, gradient_examples, reals, sizes, vectors

BASIC_ACTIVATIONS = {
    "tanh": Value.tanh,
    "relu": Value.relu,
    "sigmoid": Value.sigmoid,
    "linear": lambda z: z,
}


def neuron_from_basic_ops(weights, inputs, bias, activation):
    """act(b + Σ wᵢ·xᵢ) with one node per multiplication and addition."""
    z = bias
    for w, x in zip(weights, inputs, strict=True):
        z = z + w * x
    return BASIC_ACTIVATIONS[activation](z)


def pre_activation(weights, inputs, bias):
    return bias + sum(w * x for w, x in zip(weights, inputs, strict=True))


def test_every_activation_has_a_basic_op_version():
    assert set(BASIC_ACTIVATIONS) == set(ACTIVATIONS)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@gradient_examples
@given(z=away_from_zero(-8, 8, margin=1e-3))
def test_activation_derivative_equals_central_difference(name, z):
    value, slope = ACTIVATIONS[name](z)
    assert value == pytest.approx(BASIC_ACTIVATIONS[name](Value(z)).data, abs=1e-15)
    (estimate,) = numerical_gradients(lambda v: Value(ACTIVATIONS[name](v.data)[0]), [z])
    assert slope == pytest.approx(estimate, abs=1e-7)


@gradient_examples
@given(data=st.data(), n=sizes, activation=activations, inputs_are_data=st.booleans())
def test_neuron_gradient_equals_central_difference(data, n, activation, inputs_are_data):
    weights, inputs, bias = data.draw(vectors(n)), data.draw(vectors(n)), data.draw(reals())
    assume(abs(pre_activation(weights, inputs, bias)) > 1e-3)  # relu's kink
    if inputs_are_data:  # plain numbers: constants of the neuron
        check_gradients(lambda w, b: activated_sum(w, inputs, b, activation), [weights, bias])
    else:
        check_gradients(lambda w, x, b: activated_sum(w, x, b, activation), [weights, inputs, bias])


@gradient_examples
@given(data=st.data(), n=sizes, activation=activations)
def test_fused_neuron_equals_the_graph_of_basic_ops(data, n, activation):
    weights, inputs, bias = data.draw(vectors(n)), data.draw(vectors(n)), data.draw(reals())
    as_data = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))  # inputs as numbers or Values
    assume(abs(pre_activation(weights, inputs, bias)) > 1e-9)  # both sums agree on relu's side of 0

    def fresh_arguments():
        x = [number if plain else Value(number) for number, plain in zip(inputs, as_data, strict=True)]
        return [Value(w) for w in weights], x, Value(bias)

    fused_args, basic_args = fresh_arguments(), fresh_arguments()
    fused = activated_sum(*fused_args, activation)
    basic = neuron_from_basic_ops(*basic_args, activation)
    fused.backward()
    basic.backward()

    def grads(weights, inputs, bias):
        return [v.grad for v in [*weights, *inputs, bias] if isinstance(v, Value)]

    assert fused.data == pytest.approx(basic.data, abs=1e-12)
    assert grads(*fused_args) == pytest.approx(grads(*basic_args), abs=1e-12)


def test_neuron_is_one_node_and_data_gets_no_edge():
    weights, bias = [Value(0.5), Value(-1.0)], Value(0.1)
    out = activated_sum(weights, [2.0, 3.0], bias, "tanh")
    assert out.children == (*weights, bias)
    assert out.op == "tanh(Σw·x+b)"


def test_relu_that_is_off_passes_no_gradient():
    weights, x, bias = [Value(1.0)], Value(-2.0), Value(0.5)
    out = activated_sum(weights, [x], bias, "relu")
    out.backward()
    assert (out.data, weights[0].grad, x.grad, bias.grad) == (0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("activation", sorted(ACTIVATIONS))
def test_a_nan_input_gives_a_nan_neuron_with_the_basic_ops_gradients(activation):
    fused_w, basic_w = [Value(0.5)], [Value(0.5)]
    fused_b, basic_b = Value(0.1), Value(0.1)
    fused = activated_sum(fused_w, [math.nan], fused_b, activation)
    basic = neuron_from_basic_ops(basic_w, [math.nan], basic_b, activation)
    fused.backward()
    basic.backward()
    assert math.isnan(fused.data)
    assert math.isnan(basic.data)
    same = [(a.grad, b.grad) for a, b in ((fused_w[0], basic_w[0]), (fused_b, basic_b))]
    assert all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in same), same


def test_relu_neuron_of_nan_passes_the_gradient_on():
    weights, bias = [Value(2.0)], Value(0.0)
    out = activated_sum(weights, [math.nan], bias, "relu")
    out.backward()
    assert math.isnan(out.data)
    assert bias.grad == 1.0  # PyTorch's relu at NaN: NaN out, slope 1


def test_layer_gradient_accumulates_on_the_shared_inputs():
    rows = [[Value(0.5), Value(-1.0)], [Value(2.0), Value(0.25)]]
    x = [Value(1.0), Value(3.0)]
    outs = activated_sums(rows, [Value(0.0), Value(0.0)], x, "linear")
    total(outs).backward()
    assert [v.grad for v in x] == [0.5 + 2.0, -1.0 + 0.25]


@gradient_examples
@given(data=st.data(), activation=activations)
def test_activated_sums_equals_one_activated_sum_per_row(data, activation):
    rows = [data.draw(vectors(3)) for _ in range(4)]
    biases, inputs = data.draw(vectors(4)), data.draw(vectors(3))
    together = activated_sums(
        [[Value(w) for w in r] for r in rows], [Value(b) for b in biases], inputs, activation
    )
    apart = [
        activated_sum([Value(w) for w in r], inputs, Value(b), activation)
        for r, b in zip(rows, biases, strict=True)
    ]
    assert [v.data for v in together] == [v.data for v in apart]


@gradient_examples
@given(numbers=st.lists(reals(), min_size=1, max_size=6))
def test_total_and_sum_of_squares_gradients_equal_central_differences(numbers):
    check_gradients(lambda vs: total(vs), [numbers])
    check_gradients(lambda vs: sum_of_squares(vs), [numbers])


def test_total_adds_without_losing_small_terms():
    numbers = [1e16, 1.0, -1e16]
    running = 0.0
    for x in numbers:
        running += x  # 1e16 + 1 rounds back to 1e16: the 1 is lost
    assert running == 0.0
    assert total([Value(x) for x in numbers]).data == 1.0


def test_sum_of_squares_is_one_node_with_derivative_two_v():
    vs = [Value(3.0), Value(-0.5)]
    out = sum_of_squares(vs)
    out.backward()
    assert (out.data, [v.grad for v in vs], out.children) == (9.25, [6.0, -1.0], tuple(vs))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: activated_sum([Value(1.0)], [1.0], Value(0.0), "softplus"),
            ValueError,
            "unknown activation 'softplus'; choose from tanh, relu, sigmoid, linear",
        ),
        (
            lambda: activated_sum([Value(1.0)], [1.0, 2.0], Value(0.0)),
            ValueError,
            "activated_sum: 1 weights but 2 inputs",
        ),
        (
            lambda: activated_sum([Value(1.0)], ["x"], Value(0.0)),
            TypeError,
            "for activated_sum: Value and str 'x'",
        ),
        (lambda: total([]), ValueError, "total: needs at least one Value, got none"),
        (lambda: total([Value(1.0), 2.0]), TypeError, "total: every item must be a Value, got float 2.0"),
        (lambda: sum_of_squares([]), ValueError, "sum_of_squares: needs at least one Value"),
    ],
)
def test_bad_input_raises_error_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_extreme_pre_activations_stay_finite():
    for name, expected in [("tanh", (1.0, 0.0)), ("sigmoid", (1.0, 0.0))]:
        assert ACTIVATIONS[name](1000.0) == expected
    assert ACTIVATIONS["sigmoid"](-1000.0) == (0.0, 0.0)
    assert math.isfinite(activated_sum([Value(1e3)], [1e3], Value(0.0), "tanh").data)
