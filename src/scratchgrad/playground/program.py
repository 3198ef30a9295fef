"""The Python program a set of playground settings stands for, written out as source code: the
panel trains with no hidden machinery, since `scratchgrad.playground.Stepper` runs the set-up part
of this very program (`setup_code`) and then calls ``trainer.step()`` as its loop does, so "Show
the code" shows exactly what trains, and the program runs unchanged in CPython or in a page's
block, printing what the panel shows after the same number of steps.

Example:
    >>> from scratchgrad.playground.settings import Settings
    >>> code = generate_code(Settings(dataset="xor", hidden=(4,), lr=0.1), steps=50)
    >>> print(code, end="")  # doctest: +ELLIPSIS
    # The playground's program for dataset=xor&noise=0.1&points=100&test_fraction=0.3&...
    from scratchgrad.datasets import xor
    ...
    for _ in range(50):
        record = trainer.step()
    print(f"step {len(trainer.history)}: loss {record.loss}, accuracy {record.accuracy}")
"""

from __future__ import annotations

from scratchgrad._checks import whole_number
from scratchgrad.playground.settings import Settings, SettingsError, to_query

__all__ = ["YOUR_MODULE", "featured_call", "features_import", "generate_code", "setup_code"]

YOUR_MODULE = "my_scratchgrad_engine"
"""What the program of ``engine=yours`` imports: the reader's engine, named like the file Export saves."""


def generate_code(settings: Settings, steps: int = 100) -> str:
    """The whole program: `setup_code`, then `steps` training steps and the lines that print them.

    The printed loss and accuracy are those of the last step's batch, measured before its update
    (the numbers the panel shows after `steps` steps); with points held out, then the loss and
    accuracy of the trained model on them (the panel's test loss and accuracy).

    Raises:
        SettingsError: the settings have problems (see `Settings.problems`).
        ValueError: `steps` is not a whole number ≥ 1.
    """
    whole_number(steps, "generate_code", "steps")
    scores = "[score.data for score in test_scores]" if settings.engine == "yours" else "test_scores"
    tested = (
        "test_scores = [model(x) for x in test_xs]\n"
        "test_loss = trainer.loss(test_scores, test_ys).data\n"
        f'print(f"test: loss {{test_loss}}, accuracy {{accuracy({scores}, test_ys)}}")\n'
    )
    return (
        setup_code(settings)
        + (
            f"\nfor _ in range({steps}):\n"
            "    record = trainer.step()\n"
            'print(f"step {len(trainer.history)}: loss {record.loss}, accuracy {record.accuracy}")\n'
        )
        + (tested if settings.held_out else "")
    )


def setup_code(settings: Settings) -> str:
    """The program's first part: imports, data, model, optimizer, loss and a `Trainer` named ``trainer``."""
    problems = settings.problems()
    if problems:
        raise SettingsError(problems)
    if settings.engine == "yours":
        return _your_setup_code(settings)
    loss_name = _loss_function(settings)
    optimizer_class = "Adam" if settings.optimizer == "adam" else "SGD"
    penalty = settings.l2 and settings.loss != "hinge"  # hinge takes its own l2 argument
    imports = [
        *_data_import(settings),
        *features_import(settings),
        *(["from scratchgrad.fused import sum_of_squares"] if penalty else []),
        f"from scratchgrad.losses import {', '.join(sorted({loss_name, *_accuracy_import(settings)}))}",
        "from scratchgrad.nn import MLP",
        f"from scratchgrad.optim import {optimizer_class}",
        "from scratchgrad.train import Trainer",
    ]
    lines = [
        f"# The playground's program for {to_query(settings)}",
        *imports,
        "",
        *_data_lines(settings),
        f"model = {_model_call(settings)}",
        "parameters = model.parameters()",
        f"optimizer = {_optimizer_call(settings)}",
    ]
    trainer_arguments = ["model", "xs", "ys", loss_name, "optimizer"]
    if settings.l2:
        call = (
            f"hinge(scores, targets, l2={settings.l2!r}, parameters=parameters)"
            if settings.loss == "hinge"
            else f"{loss_name}(scores, targets) + sum_of_squares(parameters) * {settings.l2!r}"
        )
        lines += ["", "", "def loss(scores, targets):", f"    return {call}", "", ""]
        trainer_arguments[3] = "loss"
    trainer_arguments += _batch_arguments(settings)
    lines.append(f"trainer = Trainer({', '.join(trainer_arguments)})")
    return "\n".join(lines) + "\n"


def _your_setup_code(settings: Settings) -> str:
    """The set-up with the reader's engine: their MLP (tanh neurons), their ``train`` on each batch."""
    lines = [
        f"# The playground's program for {to_query(settings)}",
        f"# Your engine: {YOUR_MODULE}.py, the file the Your turn exercises export, next to this one.",
        "import random",
        "",
        f"from {YOUR_MODULE} import MLP, train",
        *_data_import(settings),
        *features_import(settings),
        *[f"from scratchgrad.losses import {name}" for name in _accuracy_import(settings)],
        "from scratchgrad.playground.your_engine import YourTrainer",
        "",
        *_data_lines(settings),
        f"random.seed({settings.seed})  # your Neuron draws its weights with random.uniform",
        f"model = MLP({settings.inputs}, {[*settings.hidden, 1]})",
    ]
    trainer_arguments = ["model", "train", "xs", "ys", f"lr={settings.lr!r}", *_batch_arguments(settings)]
    lines.append(f"trainer = YourTrainer({', '.join(trainer_arguments)})")
    return "\n".join(lines) + "\n"


def _batch_arguments(settings: Settings) -> list[str]:
    """The trainer's batch arguments, the same for the book's `Trainer` and the reader's `YourTrainer`."""
    if settings.batch_size is None:
        return []
    return [f"batch_size={settings.batch_size}", f"seed={settings.seed}"]


def features_import(settings: Settings) -> list[str]:
    """The import line of `featured` when the settings' network takes features (see `featured_call`)."""
    return ["from scratchgrad.features import featured"] if featured_call(settings, "") else []


def _accuracy_import(settings: Settings) -> list[str]:
    return ["accuracy"] if settings.held_out else []


def featured_call(settings: Settings, points: str) -> str | None:
    """The source text that turns `points` (source text too) into the network's inputs, or None when
    the inputs are the points themselves (x₁ and x₂ only, or four_points, which has no features).

    Example: ``featured(points, ["x1", "x2", "x1_sq"])``, the call the shown program and an
    exported model file both write."""
    if settings.dataset == "four_points" or settings.features == ("x1", "x2"):
        return None
    names = ", ".join(f'"{name}"' for name in settings.features)
    return f"featured({points}, [{names}])"


def _data_lines(settings: Settings) -> list[str]:
    """The data: drawn, then split into the points to train on and those held out, then featured.

    With features the plane's points keep their names (``points``, ``test_points``) and the
    network's inputs are ``xs`` and ``test_xs``; without, the points are the inputs."""
    featured_ = featured_call(settings, "points")
    raw, test_raw = ("points", "test_points") if featured_ else ("xs", "test_xs")
    lines = [f"{raw}, ys = {_data_call(settings)}"]
    if settings.held_out:
        lines.append(
            f"({raw}, ys), ({test_raw}, test_ys) = "
            f"split({raw}, ys, test_fraction={settings.test_fraction!r}, seed={settings.seed})"
        )
    if featured_:
        lines.append(f"xs = {featured_}")
        if settings.held_out:
            lines.append(f"test_xs = {featured_call(settings, 'test_points')}")
    return lines


def _loss_function(settings: Settings) -> str:
    if settings.loss == "cross_entropy":
        return "softmax_cross_entropy" if settings.classes > 2 else "binary_cross_entropy"
    return settings.loss


def _data_import(settings: Settings) -> list[str]:
    """The import of the data set's function, and `split` when points are held out; none for the
    reader's drawn points (written out)."""
    if settings.dataset == "drawn":
        return []
    return [f"from scratchgrad.datasets import {settings.dataset}{', split' if settings.held_out else ''}"]


def _data_call(settings: Settings) -> str:
    name, noise, seed = settings.dataset, settings.noise, settings.seed
    if name == "drawn":  # class 1 is target +1, class 0 is -1, as the two-class data sets have
        xs = [[x1, x2] for x1, x2, _ in settings.drawn]
        ys = [1.0 if cls else -1.0 for _, _, cls in settings.drawn]
        return f"{xs!r}, {ys!r}"
    if name in ("four_points", "xor"):
        return f"{name}()"
    if name == "spiral":
        return f"spiral(n_per_class={settings.points // 3}, noise={noise!r}, seed={seed})"
    return f"{name}(n={settings.points}, noise={noise!r}, seed={seed})"


def _model_call(settings: Settings) -> str:
    sizes = [*settings.hidden, 1 if settings.classes == 2 else settings.classes]
    return (
        f'MLP({settings.inputs}, {sizes}, activation="{settings.activation}", '
        f'output_activation="linear", rng={settings.seed})'
    )


def _optimizer_call(settings: Settings) -> str:
    lr = settings.lr
    if settings.optimizer == "adam":
        return f"Adam(parameters, lr={lr!r})"
    arguments = [f"lr={lr!r}"]
    if settings.optimizer == "momentum":
        arguments.append("momentum=0.9")
    if settings.decay and settings.schedule == "linear":
        arguments.append(f"schedule=lambda t: max({lr!r} * (1 - {settings.decay!r} * t), 0.0)")
    elif settings.decay:
        arguments.append(f"schedule=lambda t: {lr!r} / (1 + {settings.decay!r} * t)")
    return f"SGD(parameters, {', '.join(arguments)})"
