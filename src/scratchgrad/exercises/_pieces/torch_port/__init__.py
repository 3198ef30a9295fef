"""The training loop ported to PyTorch: the same network, data, rate and loss give scratchgrad's losses."""

import math
import warnings

from scratchgrad.datasets import four_points
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.reference_loop import losses as chapter_losses
from scratchgrad.exercises.shares import line_in
from scratchgrad.gradcheck import relative_error
from scratchgrad.losses import mse
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD
from scratchgrad.train import fit
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

DIGITS = 1e-10
"""How far a loss may be from scratchgrad's: 64-bit floats agree to about 1e-16 (measured), 32-bit
ones to only 1e-7 to 1e-9, so this tells the two apart."""


def _runs(engine: Engine) -> list[tuple]:
    """(inputs, layer sizes, xs, ys, steps, learning rate, seed): the chapter's run, then a smaller
    network on other examples, at another rate and with another number of examples."""
    xs, ys = four_points()
    other_xs = [[engine.rng.uniform(-2, 2) for _ in range(2)] for _ in range(5)]
    other_ys = [engine.rng.choice((-1.0, 1.0)) for _ in other_xs]
    seed = engine.rng.randrange(10**6)
    return [(3, [4, 4, 1], xs, ys, 20, 0.2, seed), (2, [3, 1], other_xs, other_ys, 6, 0.05, seed + 1)]


def _model(nin: int, sizes: list[int], seed: int) -> MLP:
    return MLP(nin, sizes, rng=seed)


def _weights(model: MLP) -> list[tuple[list[list[float]], list[float]]]:
    """Per layer: one row of weights per neuron, and the biases (the chapter's starting_weights)."""
    return [
        (
            [[w.data for w in neuron.w] for neuron in layer.neurons],
            [neuron.b.data for neuron in layer.neurons],
        )
        for layer in model.layers
    ]


def _scratchgrad_losses(nin, sizes, xs, ys, steps, rate, seed) -> list[float]:
    """The chapter's scratchgrad run: fit with mean squared error and SGD."""
    model = _model(nin, sizes, seed)
    return fit(model, xs, ys, mse, SGD(model.parameters(), lr=rate), steps=steps).loss


def _slipped_losses(nin, sizes, xs, ys, steps, rate, seed, **slip) -> list[float]:
    """The same run in scratchgrad with one of a port's classic slips, for naming the reader's."""
    return chapter_losses(_model(nin, sizes, seed), xs, ys, steps, rate, **slip)


def _same(yours: list, right: list[float], tolerance: float = DIGITS) -> bool:
    return len(yours) == len(right) and all(
        relative_error(a, b) <= tolerance for a, b in zip(yours, right, strict=True)
    )


def _mixed_floats(error: RuntimeError) -> bool:
    """Whether PyTorch refused to mix 32-bit and 64-bit floats in one operation."""
    return "dtype" in str(error) and "Float" in str(error) and "Double" in str(error)


def _torch():
    import torch  # the runner makes sure it is installed (Exercise.needs)

    return torch


@EXERCISE.check("torch_network: the scratchgrad model's outputs, in 64-bit floats")
def _network(engine: Engine) -> str:
    torch = _torch()
    for nin, sizes, xs, _, _, _, seed in _runs(engine):
        model = _model(nin, sizes, seed)
        network = engine.torch_network(_weights(model))
        _same_network(torch, network, model, xs, engine)
    return "the same outputs as scratchgrad's models of 3 → 4 → 4 → 1 and 2 → 3 → 1 neurons"


def _same_network(torch, network, model, xs, engine) -> None:
    """Fail unless the reader's `network` gives `model`'s outputs on `xs`, as a float64 column."""
    if not callable(network):
        raise Fail(
            f"torch_network should return a network to call on the examples; yours returned {network!r:.80}"
        )
    try:
        outputs = network(torch.tensor(xs, dtype=torch.float64))
    except RuntimeError as error:
        if _mixed_floats(error):
            raise Fail(
                "your network is in 32-bit floats and the examples in 64: give every nn.Linear "
                f"dtype=torch.float64{line_in(engine.torch_network, 'Linear(')}"
            ) from None
        raise
    if not isinstance(outputs, torch.Tensor):
        raise Fail(f"calling your network on the examples should give a tensor; it gave {outputs!r:.80}")
    if outputs.dtype != torch.float64:
        raise Fail(
            f"your network computes in {outputs.dtype}: that is 32-bit floats, which keep only about 7 "
            "digits. Build every nn.Linear and tensor with dtype=torch.float64"
        )
    if tuple(outputs.shape) != (len(xs), 1):
        raise Fail(
            f"for {len(xs)} examples your network's output has shape {tuple(outputs.shape)}; the model "
            f"has one output neuron, so it should be ({len(xs)}, 1): one nn.Linear per layer of the "
            "starting weights, each followed by a tanh"
        )
    right = [model(x).data for x in xs]
    for x, got, want in zip(xs, outputs.detach().squeeze(1).tolist(), right, strict=True):
        if relative_error(got, want) > DIGITS:
            shown = "[" + ", ".join(f"{v:g}" for v in x) + "]"
            raise Fail(
                f"on the example {shown} your network gives {written(got)}; the scratchgrad model with the "
                f"same weights gives {written(want)}: one nn.Linear per layer, its weight row j the weights "
                "of neuron j, its bias the biases, and a tanh after every layer (the last one too)"
            )


@EXERCISE.check("train_in_torch: scratchgrad's losses, step for step, at two rates")
def _training(engine: Engine) -> str:
    torch = _torch()
    for run in _runs(engine):
        nin, sizes, xs, ys, steps, rate, seed = run
        model = _model(nin, sizes, seed)
        network = engine.torch_network(_weights(model))
        _same_network(torch, network, model, xs, engine)
        right = _scratchgrad_losses(*run)
        yours = _trained(engine, network, [list(x) for x in xs], list(ys), steps, rate)
        if _same(yours, right):
            continue
        raise Fail(_what_differs(run, yours, right))
    return "20 steps at learning rate 0.2 and 6 at 0.05, every loss to 10 digits"


def _trained(engine: Engine, network, xs, ys, steps, rate) -> list[float]:
    """The reader's losses, as floats; a port that cuts the loss off from the network fails in words."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            losses = engine.train_in_torch(network, xs, ys, steps, rate)
        except RuntimeError as error:
            if _mixed_floats(error):
                raise Fail(
                    "your examples and your network hold different kinds of float: torch.tensor(xs) makes "
                    f"32-bit floats{line_in(engine.train_in_torch, 'torch.tensor(')}; the network is 64-bit. "
                    "Give every tensor dtype=torch.float64"
                ) from None
            if "does not require grad" in str(error):
                raise Fail(
                    "backward() found no graph behind your loss: it is cut off from the network. "
                    ".detach(), .item(), torch.no_grad() or a new torch.tensor(...) of the outputs makes a "
                    "tensor with no record of how it was made; compute the loss from the network's output "
                    "as it comes"
                ) from None
            raise
    if any("target size" in str(warning.message) for warning in caught):
        raise Fail(
            "your loss compares every output with every target: the network's output has shape (n, 1) and "
            "the targets (n,), and PyTorch broadcasts the two to (n, n)"
            f"{line_in(engine.train_in_torch, 'loss =')}. "
            "Squeeze the output to (n,): network(inputs).squeeze(1)"
        )
    if not isinstance(losses, (list, tuple)) or len(losses) != steps:
        raise Fail(
            f"train_in_torch(…, steps={steps}, …) should return {steps} losses; yours: {losses!r:.120}"
        )
    if not all(isinstance(loss, float) for loss in losses):
        kind = type(next(loss for loss in losses if not isinstance(loss, float))).__name__
        raise Fail(f"return the losses as floats, loss.item(); yours holds a {kind}")
    return list(losses)


def _what_differs(run: tuple, yours: list[float], right: list[float]) -> str:
    step = next(i for i, (a, b) in enumerate(zip(yours, right, strict=True)) if relative_error(a, b) > DIGITS)
    rate = run[5]
    found = (
        f"with learning_rate={rate:g}, at step {step} the loss should be {written(right[step])} "
        f"(scratchgrad's); yours is {written(yours[step])}"
    )
    if all(
        math.isfinite(a) and math.isfinite(b) and relative_error(a, b) < 1e-5
        for a, b in zip(yours, right, strict=True)
    ):
        return (
            f"{found}: they agree to about 7 digits, as much as 32-bit floats keep. Give every tensor "
            "dtype=torch.float64 (torch.tensor(xs) alone makes 32-bit floats)"
        )
    slips = (
        ({"summed": True}, "your loss is the sum of the squared errors; the chapter's is their mean"),
        ({"zero": False}, "your loop never zeroes the gradients: they pile up across steps. Call "
         "optimizer.zero_grad() before loss.backward() in every step"),
        ({"sign": -1.0}, "your loop moves uphill: step against the gradient, as torch.optim.SGD does"),
        ({"pairs": True}, "your loss compares every output with every target: squeeze(1) the output"),
    )  # fmt: skip
    for slip, diagnosis in slips:
        if _same(yours, _slipped_losses(*run, **slip), 1e-9):
            return f"{found} — {diagnosis}"
    nin, sizes, xs, ys, steps, _, seed = run
    for other in (0.2, 0.1, 0.05, 0.01, 1.0):
        if other != rate and _same(yours, _scratchgrad_losses(nin, sizes, xs, ys, steps, other, seed), 1e-9):
            return f"{found} — your loop steps with {other:g}: use the learning_rate it is given"
    if _same(yours[:-1], right[1:], 1e-9):
        return f"{found} — each of your losses is the next step's: append the loss measured before the update"
    return found
