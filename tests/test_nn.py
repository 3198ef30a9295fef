"""Neuron, Layer, MLP: shapes, parameter counts, micrograd's initial weights, gradients, bad input."""

import itertools
import random
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scratchgrad import Value, nn
from scratchgrad.gradcheck import check_gradients
from scratchgrad.nn import MLP, Layer, Neuron
from strategies import activations, gradient_examples, vectors


def micrograd_initial_weights(rng, sizes):
    """The parameters micrograd's MLP draws: per neuron, nin × uniform(-1, 1), then a bias of 0."""
    weights = []
    for nin, nout in itertools.pairwise(sizes):
        for _ in range(nout):
            weights += [rng.uniform(-1, 1) for _ in range(nin)] + [0.0]
    return weights


def mlp_from_basic_ops(model, x):
    """The model's output computed with one node per multiplication and addition."""
    for layer in model.layers:
        outputs = []
        for neuron in layer.neurons:
            z = neuron.b
            for w, xi in zip(neuron.w, x, strict=True):
                z = z + w * xi
            outputs.append(z if neuron.activation == "linear" else getattr(z, neuron.activation)())
        x = outputs
    return x[0]


def test_mlp_3_4_4_1_has_41_parameters():
    assert len(MLP(3, [4, 4, 1], rng=0).parameters()) == (3 + 1) * 4 + (4 + 1) * 4 + (4 + 1) * 1 == 41


def test_one_output_gives_a_value_more_give_a_list():
    assert isinstance(MLP(2, [3, 1], rng=0)([1.0, 2.0]), Value)
    outputs = MLP(2, [3, 4], rng=0)([1.0, 2.0])
    assert isinstance(outputs, list)
    assert len(outputs) == 4
    assert all(isinstance(o, Value) for o in outputs)
    assert len(Layer(2, 5, rng=0)([1.0, 2.0])) == 5


@pytest.mark.parametrize("seed", [0, 1337])
def test_initial_weights_are_drawn_in_micrograds_order(seed):
    model = MLP(2, [16, 16, 1], rng=seed)
    expected = micrograd_initial_weights(random.Random(seed), [2, 16, 16, 1])
    assert [p.data for p in model.parameters()] == expected


def test_no_rng_draws_from_the_global_generator():
    random.seed(42)
    model = MLP(3, [4, 1])
    random.seed(42)
    assert [p.data for p in model.parameters()] == micrograd_initial_weights(random, [3, 4, 1])


def test_a_shared_random_keeps_drawing_where_it_left_off():
    rng = random.Random(5)
    first, second = Neuron(3, rng=rng), Neuron(3, rng=rng)
    assert [p.data for p in first.parameters() + second.parameters()] == micrograd_initial_weights(
        random.Random(5), [3, 2]
    )


def test_output_activation_none_means_same_as_hidden():
    tanh_net = MLP(2, [3, 1], rng=0)
    assert [layer.activation for layer in tanh_net.layers] == ["tanh", "tanh"]
    demo_net = MLP(2, [16, 16, 1], activation="relu", output_activation="linear", rng=0)
    assert [layer.activation for layer in demo_net.layers] == ["relu", "relu", "linear"]


@gradient_examples
@given(x=vectors(3), activation=activations, output_activation=activations, seed=st.integers(0, 100))
def test_mlp_equals_the_graph_of_basic_ops(x, activation, output_activation, seed):
    fused_net = MLP(3, [4, 4, 1], activation, output_activation, rng=seed)
    basic_net = MLP(3, [4, 4, 1], activation, output_activation, rng=seed)
    fused, basic = fused_net(x), mlp_from_basic_ops(basic_net, x)
    fused.backward()
    basic.backward()
    assert fused.data == pytest.approx(basic.data, abs=1e-12)
    assert [p.grad for p in fused_net.parameters()] == pytest.approx(
        [p.grad for p in basic_net.parameters()], abs=1e-12
    )


@gradient_examples
@given(x=vectors(2), activation=st.sampled_from(["tanh", "sigmoid", "linear"]), seed=st.integers(0, 100))
def test_mlp_gradient_by_input_equals_central_difference(x, activation, seed):
    model = MLP(2, [3, 3, 1], activation, rng=seed)
    check_gradients(model, [x])


@gradient_examples
@given(x=vectors(2), seed=st.integers(0, 100))
def test_relu_mlp_gradient_equals_central_difference_away_from_kinks(x, seed):
    model = MLP(2, [3, 1], activation="relu", output_activation="linear", rng=seed)
    hidden = model.layers[0]
    assume(
        all(
            abs(n.b.data + sum(w.data * xi for w, xi in zip(n.w, x, strict=True))) > 1e-3
            for n in hidden.neurons
        )
    )
    check_gradients(model, [x])


def test_zero_grad_resets_every_parameter():
    model = MLP(2, [3, 1], rng=0)
    model([1.0, -1.0]).backward()
    assert any(p.grad != 0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0 for p in model.parameters())


def test_reprs_name_the_shape_and_activation():
    assert repr(Neuron(3, "relu", rng=0)) == "Neuron(3, activation='relu')"
    assert repr(Layer(3, 2, "linear", rng=0)) == "Layer(3, 2, activation='linear')"
    assert repr(MLP(2, [1], rng=0)) == "MLP([Layer(2, 1, activation='tanh')])"


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: Neuron(3, rng=0)([1.0, 2.0]), ValueError, "Neuron expects 3 inputs, got 2"),
        (lambda: MLP(2, [3, 1], rng=0)([1.0, 2.0, 3.0]), ValueError, "MLP expects 2 inputs, got 3"),
        (lambda: Layer(2, 3, rng=0)([1.0]), ValueError, "Layer expects 2 inputs, got 1"),
        (lambda: MLP(2, [3, 1], rng=0)(1.0), TypeError, "MLP expects a list of 2 inputs, got float 1.0"),
        (lambda: MLP(0, [1]), ValueError, "MLP needs nin to be a whole number ≥ 1, got nin=0"),
        (lambda: MLP(2, []), ValueError, "MLP needs a non-empty list of layer sizes, got nouts=[]"),
        (lambda: MLP(2, 3), ValueError, "MLP needs a non-empty list of layer sizes, got nouts=3"),
        (lambda: MLP(2, [0, 1]), ValueError, "Layer needs nout to be a whole number ≥ 1, got nout=0"),
        (lambda: Neuron(2.5), ValueError, "Neuron needs nin to be a whole number ≥ 1, got nin=2.5"),
        (lambda: Neuron(2, "softmax"), ValueError, "unknown activation 'softmax'; choose from tanh, relu"),
        (lambda: MLP(2, [1], output_activation="step"), ValueError, "unknown activation 'step'"),
        (lambda: Neuron(2, False), TypeError, "for micrograd's nonlin=False write activation='linear'"),
        (lambda: Layer(2, 3, True), TypeError, "for micrograd's nonlin=True write activation='relu'"),
        (lambda: Neuron(2, "relu", nonlin=True), TypeError, "got nonlin=True and activation='relu'"),
        (lambda: Layer(2, 3, nonlin=1), TypeError, "got nonlin=1 and activation='tanh': give one of them"),
        (
            lambda: MLP(2, [1], rng="seed"),
            TypeError,
            "MLP needs rng to be a random.Random, an int seed or None, got str 'seed'",
        ),
    ],
)
def test_bad_input_raises_error_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


@pytest.mark.parametrize(("nonlin", "activation"), [(True, "relu"), (False, "linear")])
def test_micrograds_nonlin_keyword_means_what_it_means_in_micrograd(nonlin, activation):
    assert Neuron(3, nonlin=nonlin, rng=0).activation == activation
    layer = Layer(3, 2, nonlin=nonlin, rng=0)
    assert [n.activation for n in layer.neurons] == [activation, activation]


def test_nonlin_layer_computes_what_the_named_activation_computes():
    x = [1.0, -2.0, 0.5]
    micrograd_style = Layer(3, 4, nonlin=True, rng=3)(x)
    named = Layer(3, 4, "relu", rng=3)(x)
    assert [v.data for v in micrograd_style] == [v.data for v in named]


def test_an_mlp_checks_its_inputs_once_per_forward_pass(monkeypatch):
    checks = []
    original = nn._check_inputs
    monkeypatch.setattr(nn, "_check_inputs", lambda *args: checks.append(args[2]) or original(*args))
    MLP(3, [4, 4, 1], rng=0)([1.0, 2.0, 3.0])
    assert checks == ["MLP"]
