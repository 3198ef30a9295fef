"""The losses: their values, their gradients against central differences, stability, bad input."""

import doctest
import math
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scratchgrad import Value, losses
from scratchgrad.engine import topological_order
from scratchgrad.gradcheck import check_gradients
from scratchgrad.losses import accuracy, binary_cross_entropy, hinge, mse, softmax_cross_entropy
from strategies import gradient_examples, reals, sizes, vectors

signs = st.sampled_from([-1.0, 1.0])


def values(numbers):
    return [Value(x) for x in numbers]


def grads(vs):
    return [v.grad for v in vs]


# -- mean squared error -------------------------------------------------------


def test_mse_is_the_mean_of_squared_differences():
    assert mse(values([1.0, 2.0, 4.0]), [0.0, 2.0, 1.0]).data == pytest.approx((1 + 0 + 9) / 3)


@gradient_examples
@given(data=st.data(), n=sizes)
def test_mse_gradient_equals_central_difference(data, n):
    targets = data.draw(vectors(n))
    check_gradients(lambda p: mse(p, targets), [data.draw(vectors(n))])


# -- hinge ----------------------------------------------------------------------


def hinge_from_basic_ops(scores, targets, l2, parameters):
    """The demo's loss written with one node per operation, as micrograd builds it."""
    margins = [(1 + -y * s).relu() for s, y in zip(scores, targets, strict=True)]
    return sum(margins) * (1.0 / len(margins)) + l2 * sum(p * p for p in parameters)


@gradient_examples
@given(data=st.data(), n=sizes)
def test_hinge_equals_the_loss_built_from_basic_ops(data, n):
    scores, targets, params = (
        data.draw(vectors(n)),
        data.draw(st.lists(signs, min_size=n, max_size=n)),
        data.draw(vectors(3)),
    )
    fused_inputs, basic_inputs = values(scores + params), values(scores + params)
    fused = hinge(fused_inputs[:n], targets, l2=0.01, parameters=fused_inputs[n:])
    basic = hinge_from_basic_ops(basic_inputs[:n], targets, 0.01, basic_inputs[n:])
    fused.backward()
    basic.backward()
    assert fused.data == pytest.approx(basic.data, abs=1e-12)
    assert grads(fused_inputs) == pytest.approx(grads(basic_inputs), abs=1e-12)


@gradient_examples
@given(data=st.data(), n=sizes)
def test_hinge_gradient_equals_central_difference(data, n):
    targets = data.draw(st.lists(signs, min_size=n, max_size=n))
    scores = data.draw(vectors(n))
    assume(all(abs(1 - y * s) > 1e-3 for s, y in zip(scores, targets, strict=True)))  # away from the kink
    check_gradients(lambda s, p: hinge(s, targets, l2=0.1, parameters=p), [scores, data.draw(vectors(2))])


def test_hinge_costs_nothing_beyond_the_margin():
    scores = values([1.0, 3.0, -2.0])
    loss = hinge(scores, [1.0, 1.0, -1.0])
    loss.backward()
    assert (loss.data, grads(scores)) == (0.0, [0.0, 0.0, 0.0])


def test_hinge_builds_four_nodes_per_example_plus_two():
    n = 100
    loss = hinge(values([0.5] * n), [1.0] * n)
    assert len(topological_order(loss)) == n + 3 * n + 2  # scores; s·(-y), +1, relu each; Σ; ·1/n


# -- binary cross-entropy -----------------------------------------------------


@gradient_examples
@given(z=reals(-20, 20), y=signs)
def test_binary_cross_entropy_is_minus_log_probability_of_the_truth(z, y):
    probability = 1 / (1 + math.exp(-y * z))
    assert binary_cross_entropy([Value(z)], [y]).data == pytest.approx(-math.log(probability), rel=1e-12)


def test_zero_one_targets_give_the_same_loss_as_plus_minus_one():
    logits = [0.3, -1.2, 2.0]
    a = binary_cross_entropy(values(logits), [1, 0, 0]).data
    b = binary_cross_entropy(values(logits), [1.0, -1.0, -1.0]).data
    assert a == b


@pytest.mark.parametrize(("z", "y", "loss", "grad"), [(1000.0, 1.0, 0.0, 0.0), (1000.0, -1.0, 1000.0, 1.0)])
def test_binary_cross_entropy_is_finite_for_huge_logits(z, y, loss, grad):
    logit = Value(z)
    out = binary_cross_entropy([logit], [y])
    out.backward()
    assert (out.data, logit.grad) == (loss, grad)


@gradient_examples
@given(data=st.data(), n=sizes)
def test_binary_cross_entropy_gradient_equals_central_difference(data, n):
    targets = data.draw(st.lists(signs, min_size=n, max_size=n))
    check_gradients(lambda z: binary_cross_entropy(z, targets), [data.draw(vectors(n))])


# -- softmax cross-entropy ----------------------------------------------------


def test_softmax_cross_entropy_is_minus_log_softmax_of_the_label():
    row = [1.0, 2.0, 0.5]
    expected = -math.log(math.exp(2.0) / sum(math.exp(z) for z in row))
    assert softmax_cross_entropy([values(row)], [1]).data == pytest.approx(expected, rel=1e-12)


@gradient_examples
@given(row=vectors(4), shift=reals(-500, 500), label=st.integers(0, 3))
def test_adding_a_constant_to_every_logit_changes_nothing(row, shift, label):
    plain = softmax_cross_entropy([values(row)], [label]).data
    shifted = softmax_cross_entropy([values([z + shift for z in row])], [label]).data
    assert shifted == pytest.approx(plain, abs=1e-9)


def test_softmax_cross_entropy_is_finite_for_huge_logits():
    row = values([1000.0, 0.0, -1000.0])
    loss = softmax_cross_entropy([row], [2])
    loss.backward()
    assert loss.data == 2000.0
    assert grads(row) == [1.0, 0.0, -1.0]


@gradient_examples
@given(data=st.data(), classes=st.integers(2, 4))
def test_softmax_cross_entropy_gradient_equals_central_difference(data, classes):
    labels = data.draw(st.lists(st.integers(0, classes - 1), min_size=2, max_size=2))
    rows = [data.draw(vectors(classes)), data.draw(vectors(classes))]
    check_gradients(lambda a, b: softmax_cross_entropy([a, b], labels), rows)


# -- accuracy -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "targets", "expected"),
    [
        (values([0.3, -2.0, 0.1, -0.1]), [1.0, -1.0, -1.0, -1.0], 0.75),
        ([0.3, -2.0], [1, 0], 1.0),  # 0/1 targets, plain numbers
        ([0.0], [1.0], 0.0),  # a score of exactly 0 is not positive
        ([values([0.1, 0.7, 0.2]), values([0.9, 0.0, 0.1])], [1, 2], 0.5),
        ([[3.0, 3.0]], [0], 1.0),  # ties go to the first class
    ],
)
def test_accuracy_counts_right_predictions(scores, targets, expected):
    assert accuracy(scores, targets) == expected


# -- bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: mse(values([1.0]), [1.0, 2.0]), ValueError, "mse got 1 outputs but 2 targets"),
        (lambda: mse([], []), ValueError, "mse needs at least one example, got none"),
        (
            lambda: mse(Value(1.0), [1.0]),
            TypeError,
            "mse needs a list of outputs, one per example, got Value",
        ),
        (lambda: mse([values([1.0, 2.0])], [1.0]), TypeError, "mse needs one Value per example, got list"),
        (lambda: hinge(values([1.0]), [0.0]), ValueError, "hinge needs targets of +1 or -1, got 0.0"),
        (lambda: hinge(values([1.0]), [1.0], l2=-0.1), ValueError, "hinge needs l2 ≥ 0"),
        (lambda: hinge(values([1.0]), [1.0], l2=1e-4), ValueError, "no parameters to penalise"),
        (
            lambda: binary_cross_entropy(values([1.0, 2.0]), [0, -1]),
            ValueError,
            "all in {0, 1} or all in {-1, 1}",
        ),
        (
            lambda: softmax_cross_entropy([values([1.0, 2.0])], [2]),
            ValueError,
            "label 2 is not a class index 0 … 1",
        ),
        (
            lambda: softmax_cross_entropy([values([1.0])], [True]),
            ValueError,
            "label True is not a class index",
        ),
        (lambda: softmax_cross_entropy([Value(1.0)], [0]), TypeError, "each row to be a list of Values"),
        (
            lambda: accuracy([1.0], 1.0),
            TypeError,
            "accuracy needs a list of targets, one per example, got float",
        ),
    ],
)
def test_bad_input_raises_error_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_docstring_examples_hold():
    assert doctest.testmod(losses).failed == 0
