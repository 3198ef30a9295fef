"""Stage 4: tanh and sigmoid built from exp and arithmetic get their gradients for free."""

import pytest

import scratchgrad
from scratchgrad.stages import closures
from scratchgrad.stages.composed_ops import sigmoid_from_exp, tanh_from_exp

INPUTS = [-3.0, -0.8, -0.01, 0.0, 0.3, 1.5, 4.0]


def value_and_gradient(value_class, function, x):
    v = value_class(x)
    out = function(v)
    out.backward()
    return out.data, v.grad


@pytest.mark.parametrize("value_class", [closures.Value, scratchgrad.Value])
@pytest.mark.parametrize("x", INPUTS)
def test_tanh_from_exp_matches_tanh(value_class, x):
    composed = value_and_gradient(value_class, tanh_from_exp, x)
    primitive = value_and_gradient(value_class, value_class.tanh, x)
    assert composed == pytest.approx(primitive, abs=1e-12)


@pytest.mark.parametrize("x", INPUTS)
def test_sigmoid_from_exp_matches_the_engines_sigmoid(x):
    composed = value_and_gradient(closures.Value, sigmoid_from_exp, x)
    primitive = value_and_gradient(scratchgrad.Value, scratchgrad.Value.sigmoid, x)
    assert composed == pytest.approx(primitive, abs=1e-12)
