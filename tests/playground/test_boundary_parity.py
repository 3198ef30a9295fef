"""The boundary picture's forward pass in JavaScript (web/worker/boundary.js) against Python's.

The Playground's worker draws the decision boundary with its own forward pass, for speed. It must
say what `predict_all` and `class_index` say on the same weights: the same class, NaN and
infinities in the same places (a diverged network must look diverged in both), and every finite
number equal but for the last bits, where JavaScript's exp and tanh may round otherwise than C's.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from missing_tools import missing
from scratchgrad.features import FEATURES, featured
from scratchgrad.nn import MLP
from scratchgrad.playground.stepper import class_index, predict_all

ROOT = Path(__file__).resolve().parents[2]
POINTS = [
    [0.5, -1.0],
    [0.0, 0.0],
    [-0.0, 2.0],
    [1e308, 1e308],
    [math.inf, 1.0],
    [-math.inf, 0.5],
    [math.nan, 0.0],
]


def js_literal(number: float) -> str:
    return (
        "NaN"
        if number != number
        else ("Infinity" if number == math.inf else "-Infinity" if number == -math.inf else repr(number))
    )


def javascript_outputs(layers: list[dict], points: list[list[float]]) -> list[dict]:
    if shutil.which("node") is None:
        missing("node (Node.js 20) is needed to run the page's JavaScript")
    points_js = "[" + ",".join("[" + ",".join(js_literal(x) for x in point) + "]" for point in points) + "]"
    script = f"""
import {{ classify, forward }} from {json.dumps((ROOT / "web/worker/boundary.js").as_uri())};
const layers = {json.dumps(layers)};
const row = (x) => {{
  const out = forward(layers, x);
  return {{ out: out.map(String), cls: classify(out)[0] }};
}};
const rows = {points_js}.map(row);
console.log(JSON.stringify(rows));
"""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def agree(javascript: str, python: float) -> bool:
    """Whether JavaScript's String() of a number and Python's float are the same number (NaN and
    ±Infinity exactly; a finite one to within two units in the last place)."""
    number = float(javascript.replace("Infinity", "inf"))
    if number != number or python != python:
        return number != number and python != python
    if math.isinf(number) or math.isinf(python):
        return number == python
    return abs(number - python) <= 2 * math.ulp(python)


@pytest.mark.parametrize("activation", ["tanh", "relu", "sigmoid", "linear"])
@pytest.mark.parametrize("outputs", [1, 3])
def test_the_boundary_forward_pass_is_predict_all_number_for_number(activation, outputs):
    model = MLP(2, [4, 3, outputs], rng=7, activation=activation)
    layers = [
        {
            "activation": layer.activation,
            "weights": [[w.data for w in neuron.w] for neuron in layer.neurons],
            "biases": [neuron.b.data for neuron in layer.neurons],
        }
        for layer in model.layers
    ]
    python = predict_all(model, POINTS)
    javascript = javascript_outputs(layers, POINTS)
    for point, py, js in zip(POINTS, python, javascript, strict=True):
        row = py if isinstance(py, list) else [py]
        assert len(js["out"]) == len(row)
        assert all(agree(j, float(p)) for j, p in zip(js["out"], row, strict=True)), (point, js["out"], row)
        if all(x == x for x in row):
            assert js["cls"] == class_index(py), point


def test_class_index_is_predicted_class_as_an_index():
    assert [class_index(score) for score in (-0.3, 0.0, 2.0)] == [0, 0, 1]
    assert class_index([0.1, 0.7, 0.7]) == 1


def test_the_boundary_features_are_scratchgrads_formula_for_formula():
    """A cell of the plane reaches the network as `featured` describes a point: same names, same
    numbers (sin to within two units in the last place), in the order asked."""
    points = [[0.5, -1.0], [0.0, -0.0], [3.0, 1e-300], [-2.5, 7.25]]
    names = list(FEATURES)
    script = f"""
import {{ FEATURES, featured }} from {json.dumps((ROOT / "web/worker/boundary.js").as_uri())};
const names = {json.dumps(names)};
console.log(JSON.stringify({{
  names: Object.keys(FEATURES),
  rows: {json.dumps(points)}.map((point) => featured(names, point).map(String)),
}}));
"""
    if shutil.which("node") is None:
        missing("node (Node.js 20) is needed to run the page's JavaScript")
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    javascript = json.loads(result.stdout)
    assert javascript["names"] == names
    for point, js_row, py_row in zip(points, javascript["rows"], featured(points, names), strict=True):
        assert all(agree(j, p) for j, p in zip(js_row, py_row, strict=True)), (point, js_row, py_row)
