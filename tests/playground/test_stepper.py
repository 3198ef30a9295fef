"""The stepper: it trains the generated program step by step, and `predict` without a graph."""

from __future__ import annotations

import doctest
import math
import random

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from playground_examples import SMALL

from scratchgrad.losses import accuracy
from scratchgrad.nn import MLP
from scratchgrad.playground import PRESETS, Settings, Stepper, micrograd_demo, predict, predict_all
from scratchgrad.playground import stepper as stepper_module
from scratchgrad.train import Trainer

# --- The stepper ---


@pytest.mark.parametrize("activation", ["tanh", "relu", "sigmoid", "linear"])
@pytest.mark.parametrize("outputs", [1, 3])
def test_predict_equals_the_graphs_forward_pass_exactly(activation, outputs):
    model = MLP(2, [5, 4, outputs], activation=activation, output_activation="linear", rng=7)
    rng = random.Random(1)
    for _ in range(50):
        point = [rng.uniform(-3, 3), rng.uniform(-3, 3)]
        out = model(point)
        expected = out.data if outputs == 1 else [v.data for v in out]
        assert predict(model, point) == expected


@pytest.mark.parametrize("outputs", [1, 3])
def test_predict_all_gives_each_points_forward_pass_exactly(outputs):
    model = MLP(2, [5, 4, outputs], activation="tanh", output_activation="linear", rng=3)
    rng = random.Random(2)
    points = [[rng.uniform(-3, 3), rng.uniform(-3, 3)] for _ in range(40)]
    expected = [model(p).data if outputs == 1 else [v.data for v in model(p)] for p in points]
    assert predict_all(model, points) == expected
    assert predict_all(model, []) == []


@given(st.lists(st.floats(-1e3, 1e3), min_size=3, max_size=3))
@hypothesis_settings(max_examples=50)
def test_predict_equals_the_forward_pass_for_any_point(point):
    model = MLP(3, [4, 4, 1], activation="tanh", rng=0)
    assert predict(model, point) == model(point).data


def test_advance_takes_exactly_the_steps_asked_for():
    stepper = Stepper(SMALL)
    assert stepper.steps == 0
    assert [r.step for r in stepper.advance(1)] == [0]
    assert [r.step for r in stepper.advance(4)] == [1, 2, 3, 4]
    assert stepper.steps == 5
    assert stepper.loss == stepper.trainer.history.loss[-1]


def test_advance_for_stops_before_a_step_that_would_overrun_the_slice():
    def clock_of(times):
        ticks = iter(times)
        return lambda: next(ticks)

    stepper = Stepper(SMALL)
    # steps of 1 s in a 3.5 s slice: after 3 steps (3 s) a fourth would end at 4 s
    assert len(stepper.advance_for(3.5, clock=clock_of([0, 1, 2, 3, 4]))) == 3
    # steps of 0.05 s in a 0.07 s slice: one step, not two (0.1 s)
    assert len(stepper.advance_for(0.07, clock=clock_of([0, 0.05, 0.1]))) == 1
    # a first step longer than the slice is still taken
    assert len(stepper.advance_for(0.07, clock=clock_of([0, 0.5, 1.0]))) == 1
    assert stepper.steps == 5


def test_before_any_step_the_stepper_reports_the_untrained_network_on_all_points():
    stepper = Stepper(SMALL)
    assert (stepper.loss, stepper.accuracy) == stepper.initial
    first = stepper.advance(1)[0]
    assert (first.loss, first.accuracy) == stepper.initial  # full batch: step 1 sees the untrained network


def test_a_new_stepper_with_the_same_settings_repeats_the_run_exactly():
    first, second = Stepper(PRESETS["spiral"]), Stepper(PRESETS["spiral"])
    assert [r.loss for r in first.advance(5)] == [r.loss for r in second.advance(5)]


@pytest.mark.parametrize("name", [n for n in PRESETS if n != "micrograd_demo"])
def test_every_preset_learns_its_data(name):
    stepper = Stepper(PRESETS[name])
    records = stepper.advance(150)
    assert stepper.note is None
    assert records[-1].loss < stepper.initial[0] / 2
    assert sum(r.accuracy for r in records[-10:]) / 10 > stepper.initial[1]


def test_the_micrograd_demo_preset_trains_as_micrograd_demo_defines_it():
    stepper = Stepper(PRESETS["micrograd_demo"])
    assert [stepper.trainer.optimizer.schedule(k) for k in range(150)] == [
        micrograd_demo.learning_rate(k) for k in range(150)
    ]
    xs, ys = micrograd_demo.data()
    net = micrograd_demo.network(rng=micrograd_demo.DATA_SEED)
    trainer = Trainer(net, xs, ys, micrograd_demo.loss_function(net), micrograd_demo.optimizer(net))
    assert stepper.advance(3) == [trainer.step() for _ in range(3)]


def test_a_learning_rate_far_too_large_pauses_training_with_a_note():
    stepper = Stepper(
        Settings(points=20, hidden=(8,), activation="relu", loss="mse", optimizer="sgd", lr=10.0)
    )
    records = stepper.advance(100)
    assert stepper.note is not None
    assert stepper.note.startswith(f"Training diverged at step {len(records)}: the loss became ")
    assert "Lower the learning rate (now 10.0) and press Reset." in stepper.note
    assert not math.isfinite(records[-1].loss)
    assert stepper.advance(5) == []
    assert stepper.advance_for(1.0) == []


def test_a_float_overflow_inside_a_step_pauses_training_with_a_note(monkeypatch):
    stepper = Stepper(SMALL)
    stepper.advance(2)

    def overflowing_step():
        raise OverflowError("intermediate overflow in fsum")

    monkeypatch.setattr(stepper.trainer, "step", overflowing_step)
    assert stepper.advance(3) == []
    assert stepper.note.startswith(
        "Training diverged at step 3: the numbers grew too large for a float (intermediate overflow in fsum)."
    )


def test_the_plane_is_a_square_around_every_point_with_a_margin():
    stepper = Stepper(PRESETS["moons"])
    x_min, x_max, y_min, y_max = stepper.plane()
    assert x_max - x_min == pytest.approx(y_max - y_min)
    first, second = [p[0] for p in stepper.xs], [p[1] for p in stepper.xs]
    extent = max(max(first) - min(first), max(second) - min(second))
    assert min(first) - x_min >= 0.2 * extent - 1e-12
    assert x_max - max(first) >= 0.2 * extent - 1e-12
    assert min(second) - y_min >= 0.2 * extent - 1e-12
    assert y_max - max(second) >= 0.2 * extent - 1e-12
    assert Stepper(PRESETS["four_points"]).plane() is None


def test_classes_are_indices_from_the_targets():
    assert Stepper(PRESETS["xor"]).classes() == [0, 1, 1, 0]
    spiral = Stepper(PRESETS["spiral"])
    assert spiral.classes() == spiral.ys
    assert sorted(set(spiral.classes())) == [0, 1, 2]


def test_layers_hand_over_every_parameter_in_order():
    stepper = Stepper(PRESETS["moons"])
    stepper.advance(2)
    flat = [
        number
        for layer in stepper.layers()
        for weights, bias in zip(layer["weights"], layer["biases"], strict=True)
        for number in (*weights, bias)
    ]
    assert flat == [p.data for p in stepper.model.parameters()]
    assert [layer["activation"] for layer in stepper.layers()] == ["tanh", "tanh", "linear"]


def test_the_docstring_examples_hold():
    results = doctest.testmod(stepper_module)
    assert (results.failed, results.attempted > 0) == (0, True)


# --- held-out points and features ---


def test_squared_features_make_the_circles_learnable_without_a_hidden_layer():
    """A linear model on x₁, x₂ draws one line; on x₁², x₂² a circle: the circles' own boundary."""
    common = dict(dataset="circles", points=200, noise=0.05, hidden=(), lr=0.1, optimizer="adam")
    squared = Stepper(Settings(**common, features=("x1_sq", "x2_sq")))
    plain = Stepper(Settings(**common))
    squared.advance(300)
    plain.advance(300)
    assert squared.test()[1] >= 0.95
    assert squared.accuracy >= 0.95
    assert plain.test()[1] < 0.8


def test_each_step_records_the_held_out_loss_of_the_weights_it_started_from():
    stepper = Stepper(Settings(points=40, test_fraction=0.25, hidden=(4,)))
    before = stepper.test()
    stepper.advance(2)
    assert stepper.tested[0] == before
    assert stepper.tested[1] != before
    assert len(stepper.test_xs) == 10
    assert len(stepper.xs) == 30
    assert Stepper(Settings(points=40, test_fraction=0.0)).test() is None


def test_the_held_out_figures_are_always_those_of_the_weights_as_they_are_now():
    stepper = Stepper(Settings(points=40, test_fraction=0.25, hidden=(4,)))

    def measured_afresh() -> tuple[float, float]:  # as the shown program would: a graph of every test point
        loss = stepper.trainer.loss([stepper.model(x) for x in stepper.test_xs], stepper.test_ys).data
        return loss, accuracy(predict_all(stepper.model, stepper.test_xs), stepper.test_ys)

    first = stepper.test()
    assert first == measured_afresh()
    stepper.advance(3)
    assert stepper.test() != first
    assert stepper.test() == measured_afresh()
    assert stepper.tested[-1] != stepper.test()  # the last step started from other weights
    stepper.load(Stepper(Settings(points=40, test_fraction=0.25, hidden=(4,), seed=5)).layers())
    assert stepper.test() == measured_afresh()
    stepper.advance(1)
    assert stepper.test() == measured_afresh()


def test_the_overfitting_preset_overfits_the_held_out_loss_climbs_as_training_loss_falls():
    stepper = Stepper(PRESETS["overfitting"])
    stepper.advance(400)
    held_out = [loss for loss, _ in stepper.tested]
    best = min(range(len(held_out)), key=held_out.__getitem__)
    assert stepper.loss < stepper.trainer.history.loss[best] / 10
    assert held_out[-1] > 3 * held_out[best]
