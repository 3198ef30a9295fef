"""micrograd's demo, defined once: micrograd's numbers, and the example in the docstring."""

import doctest
import math

from scratchgrad.datasets import moons
from scratchgrad.playground import micrograd_demo


def test_the_schedule_is_micrograds_for_its_100_steps_then_holds_at_zero():
    for k in range(micrograd_demo.STEPS):
        assert math.isclose(micrograd_demo.learning_rate(k), 1.0 - 0.9 * k / 100, rel_tol=0, abs_tol=1e-15)
    assert micrograd_demo.learning_rate(111) > 0
    assert [micrograd_demo.learning_rate(k) for k in (112, 500)] == [0.0, 0.0]


def test_the_network_is_micrograds_2_16_16_1_relu_net_with_a_linear_output():
    net = micrograd_demo.network(rng=0)
    assert [len(layer.neurons) for layer in net.layers] == [16, 16, 1]
    assert [layer.activation for layer in net.layers] == ["relu", "relu", "linear"]
    assert len(net.parameters()) == 337


def test_the_data_are_the_100_moons_of_seed_0():
    assert micrograd_demo.data() == moons(n=100, noise=0.1, seed=0)


def test_the_loss_is_the_mean_hinge_plus_the_l2_penalty():
    net = micrograd_demo.network(rng=0)
    xs, ys = micrograd_demo.data()
    scores = [net(x) for x in xs]
    margins = sum(max(0.0, 1 - y * s.data) for s, y in zip(scores, ys, strict=True)) / len(ys)
    penalty = 1e-4 * sum(p.data**2 for p in net.parameters())
    assert math.isclose(micrograd_demo.loss_function(net)(scores, ys).data, margins + penalty, rel_tol=1e-12)


def test_the_docstring_examples_hold():
    results = doctest.testmod(micrograd_demo)
    assert (results.failed, results.attempted > 0) == (0, True)
