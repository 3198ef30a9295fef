"""Stage 5: the textbook Neuron, Layer and MLP on the closures Value equal the package's network."""

import random

import pytest

import scratchgrad
from scratchgrad.datasets import four_points
from scratchgrad.stages import closures
from scratchgrad.stages.textbook_nn import MLP, Layer, Neuron, train


def test_a_neuron_is_tanh_of_its_weighted_sum():
    neuron = Neuron(2, random.Random(0))
    neuron.w[0].data, neuron.w[1].data, neuron.b.data = -3.0, 1.0, 6.8813735870195432
    out = neuron([2.0, 0.0])
    assert out.data == pytest.approx(0.5**0.5)
    out.backward()
    assert [p.grad for p in neuron.parameters()] == pytest.approx([1.0, 0.0, 0.5])


def test_a_neuron_takes_exactly_as_many_inputs_as_it_has_weights():
    with pytest.raises(ValueError, match="zip"):
        Neuron(3, random.Random(0))([1.0, 2.0])


def test_layers_and_networks_have_the_textbook_shapes():
    assert len(Layer(3, 4, random.Random(0))([1.0, 2.0, 3.0])) == 4
    assert isinstance(Layer(3, 1, random.Random(0))([1.0, 2.0, 3.0]), closures.Value)  # as micrograd's
    model = MLP(3, [4, 4, 1])
    assert len(model.parameters()) == 41  # (3+1)·4 + (4+1)·4 + (4+1)·1
    assert isinstance(model([1.0, 2.0, 3.0]), closures.Value)
    assert len(MLP(3, [4, 2])([1.0, 2.0, 3.0])) == 2


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_same_seed_gives_the_packages_network_output_and_gradients(seed):
    story, package = MLP(3, [4, 4, 1], rng=seed), scratchgrad.MLP(3, [4, 4, 1], rng=seed)
    assert [p.data for p in story.parameters()] == [p.data for p in package.parameters()]
    xs, ys = four_points()
    losses = []
    for model in (story, package):
        loss = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys, strict=True)), 0.0)
        loss.backward()
        losses.append(loss.data)
    assert losses[0] == pytest.approx(losses[1], rel=1e-12)
    assert [p.grad for p in story.parameters()] == pytest.approx(
        [p.grad for p in package.parameters()], rel=1e-9, abs=1e-12
    )


def test_the_loop_trains_the_four_points_as_the_packages_fit_does():
    xs, ys = four_points()
    story = MLP(3, [4, 4, 1], rng=0)
    losses = train(story, xs, ys, steps=100, learning_rate=0.2)
    packaged = scratchgrad.MLP(3, [4, 4, 1], rng=0)
    history = scratchgrad.train.fit(
        packaged,
        xs,
        ys,
        scratchgrad.losses.mse,
        scratchgrad.optim.SGD(packaged.parameters(), lr=0.2),
        steps=100,
    )
    assert len(losses) == 100
    assert losses[-1] < losses[0] / 100
    assert losses == pytest.approx(history.loss, rel=1e-9)
