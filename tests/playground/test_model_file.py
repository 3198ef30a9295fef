"""Export and import of a trained Playground network: JSON read back exactly, a standalone Python
file that predicts the panel's numbers, and every bad file refused with a message naming why."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys

import pytest

from scratchgrad.features import featured
from scratchgrad.playground import PanelSession, Settings, Stepper, model_file, predict_all, to_query
from scratchgrad.playground.model_file import (
    MAX_FILE_CHARACTERS,
    ModelFileError,
    model_json,
    model_python,
    read_model_json,
)

TRAINED = [
    Settings(points=40, hidden=(4, 3), features=("x1", "x2", "x1_x2", "sin_x2")),
    Settings(dataset="spiral", points=30, noise=0.2, hidden=(5,), batch_size=8),
    Settings(dataset="four_points", hidden=(3,), loss="mse", optimizer="sgd", lr=0.05),
    Settings(dataset="circles", points=30, hidden=(), activation="relu", features=("x1_sq", "x2_sq")),
]
POINTS = [[0.5, 0.25], [-1.0, 2.0], [0.0, -0.0], [3.0, -1.5]]


def trained(settings: Settings, steps: int = 7) -> Stepper:
    stepper = Stepper(settings)
    stepper.advance(steps)
    return stepper


def inputs_of(settings: Settings, point: list[float]) -> list[float]:
    """What the network is given for `point`: the 3-D four points as they are, else its features."""
    return point if settings.dataset == "four_points" else featured([point], settings.features)[0]


@pytest.mark.parametrize("settings", TRAINED, ids=[to_query(s) for s in TRAINED])
def test_a_saved_model_reads_back_with_its_settings_steps_and_every_weight(settings):
    stepper = trained(settings)
    saved = read_model_json(model_json(stepper))
    assert (saved.settings, saved.steps, saved.layers) == (stepper.settings, 7, stepper.layers())


@pytest.mark.parametrize("settings", TRAINED, ids=[to_query(s) for s in TRAINED])
def test_the_standalone_program_predicts_what_the_panel_predicts(settings):
    stepper = trained(settings)
    namespace: dict = {"__name__": "exported"}
    exec(compile(model_python(stepper), "<exported>", "exec"), namespace)
    for point in POINTS:
        point = [*point, 1.0] if settings.dataset == "four_points" else point
        panel = predict_all(stepper.model, [inputs_of(settings, point)])[0]
        assert namespace["predict"](point) == pytest.approx(panel, rel=1e-12, abs=1e-15)


def test_the_standalone_program_runs_in_a_fresh_cpython_and_prints_a_prediction():
    stepper = trained(TRAINED[0])
    result = subprocess.run(
        [sys.executable, "-c", model_python(stepper)], capture_output=True, text=True, check=True
    )
    expected = predict_all(stepper.model, [inputs_of(TRAINED[0], [0.5, 0.25])])[0]
    assert float(result.stdout) == pytest.approx(expected, rel=1e-12)


def good_file() -> dict:
    return json.loads(model_json(trained(TRAINED[0], 2)))


def broken(change) -> str:
    data = good_file()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not a model file: it is not JSON"),
        ("[1, 2]", 'a Playground model says "format": "scratchgrad-playground-model"'),
        (broken(lambda d: d.update(version=2)), "a model file of version 2; this Playground reads version 1"),
        (
            broken(lambda d: d.update(settings="lr=-1")),
            "its settings cannot be used: Learning rate (lr): must be",
        ),
        (broken(lambda d: d.update(steps=-3)), "its step count must be a whole number ≥ 0, got -3"),
        (broken(lambda d: d["layers"].pop()), "its settings make 3 layers of neurons, the file has 2 layers"),
        (broken(lambda d: d["layers"][1]["biases"].pop()), "layer 2 should have 3 neurons"),
        (broken(lambda d: d["layers"][0]["weights"][0].pop()), "layer 1: each neuron should have 4 weights"),
        (
            broken(lambda d: d["layers"][2]["weights"][0].__setitem__(0, "x")),
            "must be a finite number, got 'x'",
        ),
        (
            broken(lambda d: d["layers"][0]["biases"].__setitem__(1, None)),
            "must be a finite number, got None",
        ),
        (" " * (MAX_FILE_CHARACTERS + 1), "it is longer than 1,000,000 characters"),
    ],
)
def test_a_bad_file_is_refused_with_a_message_naming_the_problem(text, message):
    with pytest.raises(ModelFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_model_json(text)


def test_a_panel_imports_an_exported_model_and_shows_its_numbers():
    source = PanelSession()
    source.configure(to_query(TRAINED[0]))
    source.step(9)
    files = json.loads(source.export_model())
    target = PanelSession()
    target.configure("", "xor")
    answer = json.loads(target.import_model(files["json"]))
    assert answer["problems"] == {}
    assert answer["imported"] == 9
    assert answer["query"] == to_query(TRAINED[0])
    assert answer["frame"]["layers"] == source.stepper.layers()
    assert answer["frame"]["steps"] == 0
    assert answer["frame"]["test"] == list(source.stepper.test())
    scores = [source.stepper.model(x) for x in source.stepper.xs]
    assert answer["frame"]["loss"] == source.stepper.trainer.loss(scores, source.stepper.ys).data


def test_a_panel_keeps_its_network_when_an_import_is_refused():
    session = PanelSession()
    session.configure("", "xor")
    before = session.stepper
    answer = json.loads(session.import_model("{}"))
    message = (
        'Import model: not a model file: a Playground model says "format": "scratchgrad-playground-model"'
    )
    assert answer == {"problems": {"model": message}}
    assert session.stepper is before


def test_the_docstring_examples_hold():
    results = doctest.testmod(model_file)
    assert (results.failed, results.attempted > 0) == (0, True)


def test_a_network_of_your_engine_leaves_as_a_scratchgrad_program_that_predicts_the_same():
    from test_your_engine import configure, passing_work

    session = PanelSession()
    configure(session, "dataset=moons&points=30&hidden=3&lr=0.3&engine=yours", passing_work())
    session.step(5)
    files = json.loads(session.export_model())
    assert 'activation="tanh", output_activation="tanh"' in files["python"]
    namespace: dict = {"__name__": "exported"}
    exec(compile(files["python"], "<exported>", "exec"), namespace)
    for point in POINTS:
        panel = predict_all(session.stepper.model, [point])[0]
        assert namespace["predict"](point) == pytest.approx(panel, rel=1e-12, abs=1e-15)
