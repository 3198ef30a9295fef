"""Neurons, layers and MLPs, built from the reader's own Value."""

import math

import scratchgrad.nn
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import close
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

XS = ([2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0])
YS = (1.0, -1.0, -1.0, 1.0)


def _as_list(outputs: object) -> list:
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def _parameters(model: object, what: str, expected: int) -> list:
    params = list(model.parameters())
    if len({id(p) for p in params}) != len(params):
        raise Fail(
            f"{what}.parameters() lists some Values twice — does it hold the same neuron more than once?"
        )
    if len(params) != expected:
        raise Fail(f"{what}.parameters() should hold {expected} Values; yours holds {len(params)}")
    return params


@EXERCISE.check("Neuron(3): 3 weights and a bias")
def _neuron_parameters(engine: Engine) -> str:
    neuron = engine.Neuron(3)
    params = list(neuron.parameters())
    if len(params) != 4:
        raise Fail(
            f"Neuron(3).parameters() should hold 4 Values (3 weights and the bias); yours holds {len(params)}"
        )
    if not all(isinstance(p, engine.Value) and -1 <= p.data <= 1 for p in neuron.w):
        raise Fail("Neuron(3).w should be 3 Values with random data in [−1, 1]")
    return "4 Values"


DRAWN_NEURONS = 700
"""Neuron(3)s made to look at how their 2,100 starting weights are drawn: enough that a correct
U(−1, 1) fails the checks below with a chance far under one in a million (its largest draw stays
under 0.9 with chance 0.95²¹⁰⁰ ≈ 1e-47; its mean is off by 0.1, eight standard deviations, with
less than 1e-14)."""


@EXERCISE.check("weights and biases start in [−1, 1], the weights random")
def _starting_numbers(engine: Engine) -> str:
    neurons = [engine.Neuron(3) for _ in range(DRAWN_NEURONS)]
    for part, numbers in (
        ("weights", [w.data for n in neurons for w in n.w]),
        ("biases", [n.b.data for n in neurons]),
    ):
        outside = [x for x in numbers if not -1 <= x <= 1]
        if outside:
            raise Fail(
                f"a Neuron's {part} should start in [−1, 1]; one of yours started at {written(outside[0])}"
            )
        if part == "biases":  # the task draws the weights; a bias may start anywhere in [−1, 1], 0 too
            continue
        low, high, mean = min(numbers), max(numbers), sum(numbers) / len(numbers)
        if low > -0.9 or high < 0.9 or abs(mean) > 0.1:
            raise Fail(
                f"over {len(numbers)} {part} of new Neurons, yours ranged from {written(low)} to "
                f"{written(high)} with mean {written(mean)}: drawn from U(−1, 1) they would spread over "
                "the whole of [−1, 1] around 0 — draw each with random.uniform(-1, 1)"
            )
    return f"{3 * DRAWN_NEURONS} starting weights spread over [−1, 1] around 0; every bias in [−1, 1]"


@EXERCISE.check("Neuron computes tanh(w·x + b), and backward reaches w and b")
def _neuron_output(engine: Engine) -> str:
    neuron = engine.Neuron(3)
    weights, bias, x = [0.5, -1.0, 0.25], 0.1, [1.0, 2.0, -4.0]
    for wi, value in zip(neuron.w, weights, strict=False):
        wi.data = value
    neuron.b.data = bias
    out = neuron(x)
    want = math.tanh(sum(w * xi for w, xi in zip(weights, x, strict=False)) + bias)
    if not close(getattr(out, "data", out), want):
        raise Fail(
            f"with w = {weights}, b = {bias}, x = {x} the neuron should give tanh(−2.4) = "
            f"{written(want)}; yours "
            f"gives {written(getattr(out, 'data', out))}"
        )
    out.backward()
    slope = 1 - want**2
    for i, (wi, xi) in enumerate(zip(neuron.w, x, strict=False)):
        if not close(wi.grad, slope * xi):
            raise Fail(
                f"d out/d w{i + 1} should be (1 − out²)·x{i + 1} = {written(slope * xi)}; yours is "
                f"{written(wi.grad)}"
            )
    if not close(neuron.b.grad, slope):
        raise Fail(f"d out/d b should be 1 − out² = {written(slope)}; yours is {written(neuron.b.grad)}")
    return f"tanh(−2.4) = {written(want)}, and every gradient right"


@EXERCISE.check("Layer(3, 4): four different neurons")
def _layer(engine: Engine) -> str:
    layer = engine.Layer(3, 4)
    neurons = list(layer.neurons)
    if len({id(n) for n in neurons}) != len(neurons):
        raise Fail(
            "Layer(3, 4) holds the same neuron more than once — make a new Neuron for each: "
            "[Neuron(nin) for _ in range(nout)]"
        )
    drawn = {tuple(w.data for w in neuron.w) for neuron in neurons}
    if len(drawn) == 1:
        raise Fail(
            "the four neurons of Layer(3, 4) have the same weights — is the random generator seeded "
            "again in every Neuron? Draw each weight afresh: random.uniform(-1, 1)"
        )
    _parameters(layer, "Layer(3, 4)", 16)
    outputs = _as_list(layer([1.0, -2.0, 0.5]))
    if len(outputs) != 4:
        raise Fail(f"Layer(3, 4) should give 4 outputs; yours gives {len(outputs)}")
    return "16 parameters, 4 outputs"


@EXERCISE.check("MLP(3, [4, 4, 1]): 41 parameters, and the gradients of the package's network")
def _mlp(engine: Engine) -> str:
    model = engine.MLP(3, [4, 4, 1])
    params = _parameters(model, "MLP(3, [4, 4, 1])", 41)
    reference = scratchgrad.nn.MLP(3, [4, 4, 1])
    for mine, theirs in zip(model.layers, reference.layers, strict=True):
        for n_mine, n_theirs in zip(mine.neurons, theirs.neurons, strict=True):
            for w_mine, w_theirs in zip(n_mine.w, n_theirs.w, strict=True):
                w_theirs.data = w_mine.data
            n_theirs.b.data = n_mine.b.data
    single = model(XS[0])
    if isinstance(single, (list, tuple)):
        raise Fail(
            f"with one output neuron, MLP(3, [4, 4, 1]) should return that Value itself; yours returns a "
            f"{type(single).__name__} of {len(single)}"
        )
    outputs = [_as_list(model(x)) for x in XS]
    if any(len(out) != 1 for out in outputs):
        raise Fail(f"MLP(3, [4, 4, 1]) should give one output per example; yours gives {len(outputs[0])}")
    loss = sum((out[0] - y) ** 2 for out, y in zip(outputs, YS, strict=False))
    reference_loss = sum((reference(x) - y) ** 2 for x, y in zip(XS, YS, strict=False))
    if not close(loss.data, reference_loss.data, 1e-9):
        raise Fail(
            "with the same weights, the squared error over the four points should be "
            f"{written(reference_loss.data)}; yours is "
            f"{written(loss.data)}{_why_outputs_differ(model, reference)}"
        )
    loss.backward()
    reference_loss.backward()
    twin = _twins(model, reference)
    for mine in params:
        if id(mine) not in twin:
            raise Fail(
                "MLP(3, [4, 4, 1]).parameters() holds a Value that is no weight or bias of its neurons"
            )
        where, theirs = twin[id(mine)]
        if not close(mine.grad, theirs.grad, 1e-9):
            raise Fail(
                f"the gradient of {where} should be {written(theirs.grad)}; yours is {written(mine.grad)}"
            )
    return f"41 parameters; loss {written(loss.data)} and all 41 gradients as in scratchgrad.nn.MLP"


def _twins(model: object, reference: object) -> dict[int, tuple[str, object]]:
    """Each of the reader's weights and biases, by identity: where it sits, and the package's twin."""
    twins = {}
    for i, (mine, theirs) in enumerate(zip(model.layers, reference.layers, strict=True)):
        for j, (n_mine, n_theirs) in enumerate(zip(mine.neurons, theirs.neurons, strict=True)):
            for k, (w_mine, w_theirs) in enumerate(zip(n_mine.w, n_theirs.w, strict=True)):
                twins[id(w_mine)] = (f"layer {i}, neuron {j}, weight {k}", w_theirs)
            twins[id(n_mine.b)] = (f"layer {i}, neuron {j}, bias", n_theirs.b)
    return twins


def _why_outputs_differ(model: object, reference: object) -> str:
    """A hint for the commonest ways an MLP's output goes wrong, or the general question."""
    x = XS[0]
    mine = getattr(_as_list(model(x))[0], "data", None)
    theirs = reference(x).data
    if close(mine, math.atanh(theirs), 1e-9):
        return " — your last layer gives w·x + b without tanh; this course's MLP applies tanh in every layer"
    return " — is every layer fed the outputs of the one before, and does every neuron apply tanh?"
