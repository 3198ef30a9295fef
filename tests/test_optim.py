"""The optimizers: each update rule step by step, convergence on a bowl, zero_grad, bad arguments."""

import doctest
import math
import re

import pytest

from scratchgrad import Value, optim
from scratchgrad.datasets import four_points
from scratchgrad.losses import mse
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD, Adam


def with_gradients(*pairs):
    """Values with the given (data, grad) pairs, as if backward() had just run."""
    params = []
    for data, grad in pairs:
        p = Value(data)
        p.grad = grad
        params.append(p)
    return params


def minimize_bowl(optimizer_for, steps):
    """Run `steps` steps on (x − 3)² + (y + 1)² from (0, 0); return the final point."""
    x, y = Value(0.0), Value(0.0)
    optimizer = optimizer_for([x, y])
    for _ in range(steps):
        optimizer.zero_grad()
        ((x - 3) ** 2 + (y + 1) ** 2).backward()
        optimizer.step()
    return x.data, y.data


def test_sgd_moves_each_parameter_by_lr_times_its_gradient():
    a, b = with_gradients((1.0, 0.5), (-2.0, -4.0))
    SGD([a, b], lr=0.1).step()
    assert (a.data, b.data) == (1.0 - 0.1 * 0.5, -2.0 - 0.1 * -4.0)


def test_momentum_builds_up_speed_under_a_steady_gradient():
    (p,) = with_gradients((0.0, 1.0))
    optimizer = SGD([p], lr=0.1, momentum=0.9)
    optimizer.step()
    assert p.data == pytest.approx(-0.1)
    optimizer.step()  # velocity 0.9·1 + 1
    assert p.data == pytest.approx(-0.1 - 0.1 * 1.9)


def test_schedule_sets_the_learning_rate_of_step_k():
    (p,) = with_gradients((0.0, 1.0))
    seen = []

    def schedule(k):
        seen.append(k)
        return 1.0 - 0.9 * k / 100

    optimizer = SGD([p], lr=1.0, schedule=schedule)
    for _ in range(3):
        optimizer.step()
    assert seen == [0, 1, 2]
    assert optimizer.lr == 1.0 - 0.9 * 2 / 100
    assert p.data == pytest.approx(-(1.0 + 0.991 + 0.982))
    assert optimizer.steps == 3


def test_adam_first_step_moves_every_parameter_by_about_lr():
    small, large = with_gradients((1.0, 1e-3), (1.0, -50.0))
    Adam([small, large], lr=0.01).step()
    assert small.data == pytest.approx(1.0 - 0.01 * 1e-3 / (1e-3 + 1e-8), rel=1e-12)
    assert large.data == pytest.approx(1.01, rel=1e-9)


def test_adam_second_step_follows_the_bias_corrected_averages():
    (p,) = with_gradients((0.0, 2.0))
    optimizer = Adam([p], lr=0.1, betas=(0.5, 0.75))
    optimizer.step()
    p.grad = -1.0
    optimizer.step()
    m = (0.5 * (0.5 * 2.0) + 0.5 * -1.0) / (1 - 0.5**2)
    v = (0.75 * (0.25 * 4.0) + 0.25 * 1.0) / (1 - 0.75**2)
    first_step = 0.1 * 2.0 / (2.0 + 1e-8)
    assert p.data == pytest.approx(-first_step - 0.1 * m / (math.sqrt(v) + 1e-8), rel=1e-12)


@pytest.mark.parametrize(
    ("optimizer_for", "steps"),
    [
        (lambda ps: SGD(ps, lr=0.1), 100),
        (lambda ps: SGD(ps, lr=0.05, momentum=0.8), 100),
        (lambda ps: Adam(ps, lr=0.1), 300),
    ],
)
def test_optimizers_find_the_bottom_of_a_bowl(optimizer_for, steps):
    assert minimize_bowl(optimizer_for, steps) == pytest.approx((3.0, -1.0), abs=1e-3)


def test_zero_grad_sets_every_gradient_to_zero():
    params = with_gradients((1.0, 3.0), (2.0, -1.0))
    SGD(params, lr=0.1).zero_grad()
    assert [p.grad for p in params] == [0.0, 0.0]


def test_forgetting_zero_grad_doubles_the_gradients():
    model = MLP(3, [4, 4, 1], rng=0)
    xs, ys = four_points()
    optimizer = SGD(model.parameters(), lr=0.1)

    def gradients_after_backward():
        mse([model(x) for x in xs], ys).backward()
        return [p.grad for p in model.parameters()]

    once = gradients_after_backward()
    twice = gradients_after_backward()
    assert twice == pytest.approx([2 * g for g in once], rel=1e-12)
    optimizer.zero_grad()
    assert gradients_after_backward() == pytest.approx(once, rel=1e-12)


def test_optimizer_accepts_a_generator_of_parameters():
    model = MLP(2, [3, 1], rng=0)
    assert len(SGD(iter(model.parameters()), lr=0.1).params) == 13


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: SGD([], lr=0.1), ValueError, "SGD got no parameters to optimize: the list is empty"),
        (lambda: Adam([]), ValueError, "Adam got no parameters to optimize"),
        (lambda: SGD(MLP(1, [1], rng=0), lr=0.1), TypeError, "pass model.parameters(), got MLP"),
        (lambda: SGD([1.0], lr=0.1), TypeError, "SGD needs every parameter to be a Value, got float 1.0"),
        (lambda: SGD([Value(1.0)] * 2, lr=0.1), ValueError, "SGD got the same parameter twice"),
        (lambda: SGD([Value(1.0)], lr=0), ValueError, "SGD needs lr > 0, got lr=0"),
        (lambda: SGD([Value(1.0)], lr=-0.5), ValueError, "SGD needs lr > 0, got lr=-0.5"),
        (lambda: SGD([Value(1.0)], lr="fast"), ValueError, "SGD needs lr > 0, got lr='fast'"),
        (lambda: Adam([Value(1.0)], lr=math.inf), ValueError, "Adam needs lr > 0, got lr=inf"),
        (lambda: SGD([Value(1.0)], lr=0.1, momentum=1.0), ValueError, "SGD needs 0 ≤ momentum < 1"),
        (lambda: SGD([Value(1.0)], lr=0.1, schedule=0.5), TypeError, "schedule to be a function"),
        (lambda: Adam([Value(1.0)], betas=(0.9, 1.0)), ValueError, "Adam needs both betas in [0, 1)"),
        (lambda: Adam([Value(1.0)], eps=0.0), ValueError, "Adam needs eps > 0, got eps=0.0"),
    ],
)
def test_bad_arguments_raise_errors_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_a_schedule_that_goes_negative_is_caught_at_that_step():
    optimizer = SGD([Value(1.0)], lr=1.0, schedule=lambda k: 0.5 - k)
    optimizer.step()
    with pytest.raises(
        ValueError, match=re.escape("SGD schedule(1) must give a learning rate ≥ 0, got lr=-0.5")
    ):
        optimizer.step()


def test_docstring_examples_hold():
    assert doctest.testmod(optim).failed == 0
