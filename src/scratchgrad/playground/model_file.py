"""Taking a trained Playground network away and bringing it back: `model_json` writes what the
network is (its settings, its steps, every weight and bias) as JSON, and `read_model_json` reads
it back, refusing with a message that names the problem anything that is not such a file or whose
weights do not fit its settings; `model_python` writes a standalone program that rebuilds the same
network with the package's `MLP` and answers ``predict(point)`` with the panel's numbers, in any
Python with ``scratchgrad`` installed.

Example:
    >>> from scratchgrad.playground.settings import Settings
    >>> from scratchgrad.playground.stepper import Stepper
    >>> stepper = Stepper(Settings(dataset="xor", hidden=(2,)))
    >>> saved = read_model_json(model_json(stepper))
    >>> saved.settings == stepper.settings, saved.layers == stepper.layers()
    (True, True)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from scratchgrad._checks import is_number
from scratchgrad.playground.program import featured_call, features_import
from scratchgrad.playground.settings import Settings, SettingsError, from_query, to_query

__all__ = [
    "FORMAT",
    "MAX_FILE_CHARACTERS",
    "ModelFileError",
    "SavedModel",
    "model_json",
    "model_python",
    "read_model_json",
]

FORMAT = "scratchgrad-playground-model"
VERSION = 1
MAX_FILE_CHARACTERS = 1_000_000
"""The longest text read as a model file: the largest network the settings allow, with 400 drawn
points, is saved in about a tenth of it. The page reads no more of a chosen file than this."""


class ModelFileError(ValueError):
    """A file that is not a Playground model, or whose weights do not fit its settings."""


@dataclass(frozen=True)
class SavedModel:
    """A model read back: its settings, the steps that trained it, and its layers (as `Stepper.layers`)."""

    settings: Settings
    steps: int
    layers: list[dict[str, Any]]


def model_json(stepper: Any) -> str:
    """The trained network of `stepper` (a `Stepper`) as JSON text."""
    return json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "settings": to_query(stepper.settings),
            "steps": stepper.steps,
            "layers": stepper.layers(),
        },
        indent=1,
        allow_nan=False,
    )


def read_model_json(text: str) -> SavedModel:
    """The model saved in `text` by `model_json`.

    Raises:
        ModelFileError: the text is not such a model, or its weights are not numbers, or their
            shape is not the network its settings describe; the message says which.
    """
    if len(text) > MAX_FILE_CHARACTERS:
        raise ModelFileError(
            f"not a model file: it is longer than {MAX_FILE_CHARACTERS:,} characters, "
            "and a Playground model file is never that long"
        )
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ModelFileError(f"not a model file: it is not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelFileError(f'not a model file: a Playground model says "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise ModelFileError(
            f"a model file of version {data.get('version')!r}; this Playground reads version {VERSION}"
        )
    try:
        settings = from_query(str(data.get("settings", "")))
    except SettingsError as error:
        raise ModelFileError("its settings cannot be used: " + "; ".join(error.problems.values())) from None
    steps = data.get("steps")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
        raise ModelFileError(f"its step count must be a whole number ≥ 0, got {steps!r}")
    layers = data.get("layers")
    _check_layers(layers, settings)
    return SavedModel(settings, steps, layers)


def _check_layers(layers: Any, settings: Settings) -> None:
    sizes = [*settings.hidden, settings.classes if settings.classes > 2 else 1]
    if not isinstance(layers, list) or len(layers) != len(sizes):
        count = len(layers) if isinstance(layers, list) else "no list of"
        raise ModelFileError(f"its settings make {len(sizes)} layers of neurons, the file has {count} layers")
    inputs = settings.inputs
    for number, (layer, size) in enumerate(zip(layers, sizes, strict=True), start=1):
        weights = layer.get("weights") if isinstance(layer, dict) else None
        biases = layer.get("biases") if isinstance(layer, dict) else None
        if (
            not isinstance(weights, list)
            or not isinstance(biases, list)
            or len(weights) != size
            or len(biases) != size
        ):
            raise ModelFileError(f"layer {number} should have {size} neurons, each with weights and a bias")
        for row in weights:
            if not isinstance(row, list) or len(row) != inputs:
                raise ModelFileError(f"layer {number}: each neuron should have {inputs} weights")
        for value in [*biases, *(w for row in weights for w in row)]:
            if not is_number(value) or not math.isfinite(value):
                raise ModelFileError(
                    f"layer {number}: every weight and bias must be a finite number, got {value!r}"
                )
        inputs = size


def model_python(stepper: Any) -> str:
    """A standalone Python program that rebuilds the trained network of `stepper` and predicts with it.

    The network is the package's `MLP` with the panel's sizes and activations, its parameters set
    to the trained numbers (in `MLP.parameters` order: each neuron's weights, then its bias). A
    reader's engine trains tanh in every layer, the output too; the file says so and builds that.
    """
    settings, layers = stepper.settings, stepper.layers()
    hidden_activation = layers[0]["activation"]
    output_activation = layers[-1]["activation"]
    sizes = [len(layer["biases"]) for layer in layers]
    numbers = [
        number
        for layer in layers
        for row, b in zip(layer["weights"], layer["biases"], strict=True)
        for number in (*row, b)
    ]
    featured = featured_call(settings, "[point]")
    lines = [
        f"# A network trained {stepper.steps} steps in scratchgrad's Playground, for {to_query(settings)}",
        "# Run it with scratchgrad installed: predict(point) gives the panel's output for a point.",
        *features_import(settings),
        "from scratchgrad.nn import MLP",
        "",
        f'model = MLP({settings.inputs}, {sizes}, activation="{hidden_activation}", '
        f'output_activation="{output_activation}")',
        "TRAINED = [",
        *(f"    {', '.join(map(repr, numbers[i : i + 4]))}," for i in range(0, len(numbers), 4)),
        "]",
        "for parameter, number in zip(model.parameters(), TRAINED, strict=True):",
        "    parameter.data = number",
        "",
        "",
        "def predict(point):",
        f'    """The network\'s output for `point`, {_point_words(settings)}: {_output_words(settings)}."""',
        f"    inputs = {featured}[0]" if featured else "    inputs = point",
        "    output = model(inputs)",
        "    return [score.data for score in output] if isinstance(output, list) else output.data",
        "",
        "",
        'if __name__ == "__main__":',
        f"    print(predict({_example_point(settings)!r}))",
    ]
    return "\n".join(lines) + "\n"


def _point_words(settings: Settings) -> str:
    return "[x1, x2, x3]" if settings.dataset == "four_points" else "[x1, x2] on the plane"


def _output_words(settings: Settings) -> str:
    if settings.classes > 2:
        return "one score per class, the largest wins"
    return "a score, class +1 when it is > 0, else -1"


def _example_point(settings: Settings) -> list[float]:
    return [2.0, 3.0, -1.0] if settings.dataset == "four_points" else [0.5, 0.25]
