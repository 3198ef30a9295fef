"""The network a Playground page drew with, rebuilt in CPython from the weights the page holds."""

from __future__ import annotations

from scratchgrad.nn import MLP


def model_with(layers: list[dict]) -> MLP:
    """An MLP holding exactly the weights the page drew with (its frame's ``layers``)."""
    sizes = [len(layer["biases"]) for layer in layers]
    model = MLP(
        len(layers[0]["weights"][0]), sizes, activation=layers[0]["activation"], output_activation="linear"
    )
    numbers = [
        n for layer in layers for w, b in zip(layer["weights"], layer["biases"], strict=True) for n in (*w, b)
    ]
    for parameter, number in zip(model.parameters(), numbers, strict=True):
        parameter.data = number
    return model
