"""Training: the Trainer's step equals the hand-written loop; the toy sets and W1 are learned."""

import doctest
import re

import pytest

from scratchgrad import Value, train
from scratchgrad.datasets import four_points, moons, spiral, xor
from scratchgrad.losses import accuracy, mse, softmax_cross_entropy
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD, Adam
from scratchgrad.playground import micrograd_demo
from scratchgrad.train import Batches, History, StepRecord, Trainer, fit


def test_trainer_step_equals_the_hand_written_loop():
    xs, ys = four_points()
    by_hand, trained = MLP(3, [4, 4, 1], rng=7), MLP(3, [4, 4, 1], rng=7)
    trainer = Trainer(trained, xs, ys, mse, SGD(trained.parameters(), lr=0.1))
    for k in range(5):
        scores = [by_hand(x) for x in xs]
        loss = mse(scores, ys)
        by_hand.zero_grad()
        loss.backward()
        for p in by_hand.parameters():
            p.data -= 0.1 * p.grad
        assert trainer.step() == StepRecord(k, loss.data, accuracy(scores, ys))
    assert [p.data for p in trained.parameters()] == [p.data for p in by_hand.parameters()]


def test_fit_returns_the_history_and_calls_back_every_step():
    xs, ys = four_points()
    model = MLP(3, [4, 4, 1], rng=0)
    seen = []
    history = fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.1), steps=4, callback=seen.append)
    assert [r.step for r in seen] == [0, 1, 2, 3]
    assert history == History([r.loss for r in seen], [r.accuracy for r in seen])
    assert len(history) == 4


def examples_and_a_model_that_notes_them() -> tuple[list[list[float]], Value, object, list[int]]:
    """Ten examples 0..9, a one-parameter model of them, and the list of examples it has seen."""
    parameter = Value(0.5)
    visited: list[int] = []

    def model(x):
        visited.append(int(x[0]))
        return parameter * x[0]

    return [[float(i)] for i in range(10)], parameter, model, visited


def test_mini_batches_visit_every_example_once_per_epoch():
    xs, parameter, model, visited = examples_and_a_model_that_notes_them()
    trainer = Trainer(model, xs, [1.0] * 10, mse, SGD([parameter], lr=1e-3), batch_size=4, seed=3)
    batches = []
    for _ in range(6):  # two epochs of batches 4, 4, 2
        visited.clear()
        trainer.step()
        batches.append(list(visited))
    assert [len(b) for b in batches] == [4, 4, 2, 4, 4, 2]
    first_epoch = [i for batch in batches[:3] for i in batch]
    second_epoch = [i for batch in batches[3:] for i in batch]
    assert sorted(first_epoch) == list(range(10)) == sorted(second_epoch)
    assert first_epoch != list(range(10))  # shuffled
    assert first_epoch != second_epoch  # shuffled anew each epoch


def test_a_trainer_takes_the_batches_that_batches_of_its_seed_draw():
    xs, parameter, model, visited = examples_and_a_model_that_notes_them()
    trainer = Trainer(model, xs, [1.0] * 10, mse, SGD([parameter], lr=1e-3), batch_size=3, seed=7)
    batches = Batches(10, 3, seed=7)
    for _ in range(8):
        visited.clear()
        trainer.step()
        assert visited == batches.next()


def test_without_a_size_every_batch_is_every_example_in_order():
    batches = Batches(4, seed=9)
    assert [batches.next() for _ in range(3)] == [[0, 1, 2, 3]] * 3


def test_mini_batch_order_is_set_by_the_seed():
    xs, ys = moons(n=20, seed=0)

    def losses_with(seed):
        model = MLP(2, [4, 1], rng=0)
        return fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.1), steps=6, batch_size=5, seed=seed).loss

    assert losses_with(1) == losses_with(1)
    assert losses_with(1) != losses_with(2)


def test_four_points_reach_loss_below_one_hundredth():
    xs, ys = four_points()
    model = MLP(3, [4, 4, 1], rng=0)
    history = fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.1), steps=100)
    assert history.loss[-1] < 0.01
    assert history.accuracy[-1] == 1.0


def test_xor_is_learned():
    xs, ys = xor()
    model = MLP(2, [4, 1], rng=0)
    fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.5), steps=200)
    predictions = [model(x).data for x in xs]
    assert accuracy(predictions, ys) == 1.0
    assert mse([model(x) for x in xs], ys).data < 0.01


def test_spiral_is_learned_with_softmax_cross_entropy():
    xs, ys = spiral(n_per_class=20, classes=3, noise=0.1, seed=0)
    model = MLP(2, [16, 3], activation="relu", output_activation="linear", rng=0)
    history = fit(model, xs, ys, softmax_cross_entropy, Adam(model.parameters(), lr=0.05), steps=150)
    assert history.loss[-1] < history.loss[0] / 3
    assert accuracy([model(x) for x in xs], ys) >= 0.9


@pytest.mark.slow
def test_w1_reaches_full_training_accuracy_within_100_steps():
    xs, ys = micrograd_demo.data()
    model = micrograd_demo.network(rng=1)
    loss, optimizer = micrograd_demo.loss_function(model), micrograd_demo.optimizer(model)
    history = fit(model, xs, ys, loss, optimizer, steps=micrograd_demo.STEPS)
    assert accuracy([model(x) for x in xs], ys) == 1.0
    assert history.loss[-1] < history.loss[0] / 10


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda m: Trainer(m, [[1.0]], [1.0, 2.0], mse, SGD(m.parameters(), lr=0.1)),
            ValueError,
            "1 examples but 2 targets",
        ),
        (
            lambda m: Trainer(m, [], [], mse, SGD(m.parameters(), lr=0.1)),
            ValueError,
            "at least one example, got none",
        ),
        (
            lambda m: Trainer(m, [[1.0]], [1.0], "mse", SGD(m.parameters(), lr=0.1)),
            TypeError,
            "loss to be callable, got str",
        ),
        (
            lambda m: Trainer(None, [[1.0]], [1.0], mse, SGD(m.parameters(), lr=0.1)),
            TypeError,
            "model to be callable",
        ),
        (
            lambda m: Trainer(m, [[1.0]] * 3, [1.0] * 3, mse, SGD(m.parameters(), lr=0.1), batch_size=0),
            ValueError,
            "batch_size None or 1 … 3",
        ),
        (
            lambda m: Trainer(m, [[1.0]] * 3, [1.0] * 3, mse, SGD(m.parameters(), lr=0.1), batch_size=4),
            ValueError,
            "got 4",
        ),
        (
            lambda m: fit(m, [[1.0]], [1.0], mse, SGD(m.parameters(), lr=0.1), steps=0),
            ValueError,
            "fit needs steps to be a whole number ≥ 1, got steps=0",
        ),
        (
            lambda m: Trainer(m, [[1.0]], [1.0], lambda s, y: 0.5, SGD(m.parameters(), lr=0.1)).step(),
            TypeError,
            "to return a Value, got float",
        ),
    ],
)
def test_bad_arguments_raise_errors_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call(MLP(1, [1], rng=0))


def test_docstring_examples_hold():
    assert doctest.testmod(train).failed == 0
