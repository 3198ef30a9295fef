"""The playground's Python side: settings and their checks, URLs, the generated program, the stepper."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import doctest
import io
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from scratchgrad import playground
from scratchgrad.nn import MLP
from scratchgrad.playground import (
    FIELDS,
    PRESETS,
    PanelSession,
    Settings,
    SettingsError,
    Stepper,
    from_query,
    generate_code,
    predict,
    preset,
    program,
    to_query,
)
from scratchgrad.playground import settings as settings_module
from scratchgrad.playground import stepper as stepper_module
from scratchgrad.playground.panel import describe
from scratchgrad.playground.settings import DATASETS, LOSSES, MAX_LAYERS, MAX_NEURONS, MAX_POINTS, OPTIMIZERS

SMALL = Settings(points=20, hidden=(3,))
"""Quick to train: the generated-program comparisons run many of these."""


def run_program(code: str) -> str:
    """What `code` prints when run as a script's main module."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<generated>", "exec"), {"__name__": "__main__"})
    return printed.getvalue()


def parse_last_line(printed: str) -> tuple[int, float, float]:
    """(steps, loss, accuracy) from the program's line ``step N: loss L, accuracy A``."""
    words = printed.strip().splitlines()[-1].replace(",", "").replace(":", "").split()
    assert words[0] == "step", printed
    assert words[2] == "loss", printed
    assert words[4] == "accuracy", printed
    return int(words[1]), float(words[3]), float(words[5])


# --- Settings and their checks ---


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_valid(name):
    assert PRESETS[name].problems() == {}


def test_default_settings_are_valid_and_train_the_two_moons():
    assert Settings().problems() == {}
    assert Settings().dataset == "moons"


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        (
            "dataset",
            "blobs",
            "Data set (dataset): unknown data set 'blobs'; choose one of four_points, xor, moons",
        ),
        ("noise", -0.1, "Noise: must be at least 0, got -0.1"),
        ("noise", 5.0, "Noise: must be at most 1, got 5.0"),
        ("points", 0, "Points: must be at least 4, got 0"),
        ("points", MAX_POINTS + 1, f"Points: must be at most {MAX_POINTS} (more would train too slowly"),
        ("points", 10.5, "Points: must be a whole number, got 10.5"),
        ("hidden", (8, 0), "Hidden layers (hidden): layer 2 has 0 neurons; every layer needs at least 1"),
        (
            "hidden",
            (MAX_NEURONS + 1,),
            f"Hidden layers (hidden): layer 1 has {MAX_NEURONS + 1} neurons; at most {MAX_NEURONS}",
        ),
        ("hidden", (2,) * (MAX_LAYERS + 1), f"Hidden layers (hidden): at most {MAX_LAYERS} hidden layers"),
        ("activation", "gelu", "Activation: unknown activation 'gelu'; choose one of tanh, relu"),
        ("loss", "l1", "Loss: unknown loss 'l1'; choose one of cross_entropy, hinge, mse"),
        ("optimizer", "rmsprop", "Optimizer: unknown optimizer 'rmsprop'; choose one of sgd, momentum, adam"),
        ("lr", 0.0, "Learning rate (lr): must be greater than 0, got 0.0"),
        ("lr", -0.5, "Learning rate (lr): must be greater than 0, got -0.5"),
        ("lr", 1e6, "Learning rate (lr): must be at most 10 (steps that large only diverge), got 1000000.0"),
        ("lr", math.nan, "Learning rate (lr): must be a finite number, got nan"),
        ("lr", math.inf, "Learning rate (lr): must be a finite number, got inf"),
        ("lr", "fast", "Learning rate (lr): must be a number, got 'fast'"),
        ("decay", 2.0, "Decay: must be at most 1, got 2.0"),
        ("l2", -1e-4, "L2: must be at least 0, got -0.0001"),
        ("batch_size", 0, "Batch size: must be at least 1, got 0"),
        ("seed", -1, "Seed: must be at least 0, got -1"),
        ("seed", True, "Seed: must be a whole number, got True"),
    ],
)
def test_a_bad_field_gets_one_message_that_names_it(field, value, expected):
    problems = dataclasses.replace(Settings(), **{field: value}).problems()
    assert list(problems) == [field]
    assert problems[field].startswith(expected), problems[field]


def test_every_bad_field_gets_its_own_message():
    bad = Settings(dataset="nope", hidden=(0,), lr=-1.0, l2=2.0, seed=-3)
    assert list(bad.problems()) == ["dataset", "hidden", "lr", "l2", "seed"]


@pytest.mark.parametrize(
    ("changes", "field", "expected"),
    [
        (
            {"dataset": "spiral", "points": 99, "loss": "hinge"},
            "loss",
            "Loss: the spiral has 3 classes: use cross_entropy",
        ),
        (
            {"dataset": "spiral", "points": 99, "loss": "mse"},
            "loss",
            "Loss: the spiral has 3 classes: use cross_entropy",
        ),
        ({"optimizer": "adam", "decay": 0.01}, "decay", "Decay: Adam sizes its own steps"),
        ({"points": 50, "batch_size": 60}, "batch_size", "Batch size: 60 is more than the 50 points"),
        ({"dataset": "xor", "batch_size": 5}, "batch_size", "Batch size: 5 is more than the 4 points"),
    ],
)
def test_settings_that_do_not_fit_together_are_reported_on_the_field_to_change(changes, field, expected):
    problems = dataclasses.replace(Settings(), **changes).problems()
    assert list(problems) == [field]
    assert problems[field].startswith(expected), problems[field]


def test_the_spiral_draws_exactly_the_points_asked_for_or_says_why_it_cannot():
    assert Settings(dataset="spiral", points=99).point_count == 99
    assert Settings(dataset="spiral", points=100).problems() == {
        "points": "Points: the spiral has 3 arms of equal size: use a multiple of 3, such as 99 or 102"
    }
    assert Settings(dataset="xor", points=100).point_count == 4
    assert Settings(dataset="moons", points=37).point_count == 37


def test_fields_that_change_nothing_are_named():
    assert Settings(dataset="moons", hidden=(4,)).unused() == ()
    assert Settings(dataset="four_points", hidden=(4,)).unused() == ("noise", "points")
    assert Settings(dataset="spiral", hidden=()).unused() == ("activation",)


def test_an_unknown_preset_lists_the_known_ones():
    with pytest.raises(SettingsError, match="preset: unknown preset 'nope'; choose one of four_points, xor"):
        preset("nope")


def test_fields_follow_the_settings_and_describe_their_controls():
    assert [spec.name for spec in FIELDS] == [f.name for f in dataclasses.fields(Settings)]
    described = {spec.name: spec.describe() for spec in FIELDS}
    assert described["dataset"]["choices"] == DATASETS
    assert described["lr"]["above_low"] is True
    assert "choices" not in described["lr"]


# --- Panels embedded in the docs ---

DOCS = Path(__file__).resolve().parent.parent / "docs"
PANEL_TAG = re.compile(r"<div\s[^>]*class=\"sg-playground\"[^>]*>")
PANEL_OPTION = re.compile(r'data-(preset|settings|controls)="([^"]*)"')


def embedded_panels() -> list[tuple[str, dict[str, str]]]:
    """(page, {option: value}) for every playground panel written in the docs' Markdown."""
    return [
        (path.relative_to(DOCS).as_posix(), dict(PANEL_OPTION.findall(tag)))
        for path in sorted(DOCS.rglob("*.md"))
        for tag in PANEL_TAG.findall(path.read_text(encoding="utf-8"))
    ]


def test_the_playground_page_has_its_panel():
    assert ("playground.md", {"preset": "moons"}) in embedded_panels()


def test_every_panel_in_the_docs_names_a_preset_valid_settings_and_real_controls():
    field_names = {spec.name for spec in FIELDS}
    for page, options in embedded_panels():
        base = preset(options.get("preset", "moons"))  # raises, naming the presets, on a typo
        from_query(options.get("settings", ""), base=base)  # raises with one message per bad setting
        controls = [name.strip() for name in options.get("controls", "").split(",") if name.strip()]
        assert set(controls) <= field_names, f"{page}: data-controls names no field: {controls}"


# --- URL query strings ---

valid_settings = st.builds(
    Settings,
    dataset=st.sampled_from(["xor", "moons", "circles", "four_points"]),
    noise=st.floats(0.0, 1.0),
    points=st.integers(4, MAX_POINTS),
    hidden=st.lists(st.integers(1, MAX_NEURONS), max_size=MAX_LAYERS).map(tuple),
    activation=st.sampled_from(["tanh", "relu", "sigmoid", "linear"]),
    loss=st.sampled_from(LOSSES),
    optimizer=st.sampled_from(OPTIMIZERS),
    lr=st.floats(1e-6, 10.0),
    decay=st.just(0.0),
    l2=st.floats(0.0, 1.0),
    batch_size=st.one_of(st.none(), st.integers(1, 4)),
    seed=st.integers(0, 2**31 - 1),
)


@given(valid_settings)
def test_settings_survive_a_trip_through_the_url(settings):
    assert settings.problems() == {}
    assert from_query(to_query(settings)) == settings


def test_the_url_lists_every_setting_readably():
    query = to_query(PRESETS["micrograd_demo"])
    assert query == (
        "dataset=moons&noise=0.1&points=100&hidden=16,16&activation=relu&loss=hinge&optimizer=sgd"
        "&lr=1.0&decay=0.0&l2=0.0001&batch_size=all&seed=0"
    )


def test_a_url_may_give_only_some_settings_and_a_leading_question_mark():
    assert from_query("?dataset=xor&hidden=4") == Settings(dataset="xor", hidden=(4,))
    assert from_query("") == Settings()
    assert from_query("hidden=") == Settings(hidden=())
    assert from_query("hidden=16%2C%208&batch_size=10") == Settings(hidden=(16, 8), batch_size=10)


def test_missing_settings_come_from_the_base():
    assert from_query("lr=0.2", base=PRESETS["spiral"]) == dataclasses.replace(PRESETS["spiral"], lr=0.2)


def test_keys_that_are_not_settings_are_ignored_so_a_url_never_carries_code():
    assert from_query("h=moons&code=print(1)&lr=0.2") == Settings(lr=0.2)


def test_a_crafted_url_is_rejected_with_one_message_per_bad_setting():
    with pytest.raises(SettingsError) as caught:
        from_query("dataset=blobs&hidden=4,,4&lr=abc&points=1e9&seed=1.5&noise=nan&batch_size=some&loss=mse")
    assert caught.value.problems == {
        "dataset": f"Data set (dataset): unknown data set 'blobs'; choose one of {', '.join(DATASETS)}",
        "noise": "Noise: must be a finite number, got nan",
        "points": "Points: '1e9' is not a whole number",
        "hidden": "Hidden layers (hidden): '' is not a whole number",
        "lr": "Learning rate (lr): 'abc' is not a number",
        "batch_size": "Batch size: 'some' is not a whole number",
        "seed": "Seed: '1.5' is not a whole number",
    }
    assert "Learning rate (lr): 'abc' is not a number" in str(caught.value)


def test_a_setting_given_twice_is_rejected():
    with pytest.raises(SettingsError, match=r"Learning rate \(lr\): given twice in the URL"):
        from_query("lr=0.1&lr=5")


# --- The generated program ---

VARIANTS = [
    *PRESETS.values(),
    dataclasses.replace(SMALL, loss="hinge"),
    dataclasses.replace(SMALL, loss="hinge", l2=0.01),
    dataclasses.replace(SMALL, loss="mse", l2=0.01, activation="relu"),
    dataclasses.replace(SMALL, loss="cross_entropy", l2=0.001, activation="sigmoid"),
    dataclasses.replace(SMALL, optimizer="sgd", lr=0.3, decay=0.05),
    dataclasses.replace(SMALL, optimizer="momentum", lr=0.1, decay=0.01, batch_size=7, seed=3),
    dataclasses.replace(SMALL, optimizer="adam", batch_size=5, seed=11, dataset="circles", noise=0.2),
    dataclasses.replace(SMALL, hidden=(), dataset="xor"),
    dataclasses.replace(SMALL, dataset="spiral", points=30, hidden=(4, 4), batch_size=8, l2=0.001),
    dataclasses.replace(SMALL, dataset="four_points", loss="mse", optimizer="sgd", lr=0.05, batch_size=2),
]


@pytest.mark.parametrize("settings", VARIANTS, ids=[to_query(s) for s in VARIANTS])
def test_the_generated_program_prints_what_the_stepper_reaches(settings):
    steps = 12
    printed = run_program(generate_code(settings, steps=steps))
    stepper = Stepper(settings)
    stepper.advance(steps)
    assert parse_last_line(printed) == (steps, stepper.loss, stepper.accuracy)


def test_the_generated_program_runs_unchanged_in_a_fresh_cpython():
    code = generate_code(PRESETS["micrograd_demo"], steps=3)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    stepper = Stepper(PRESETS["micrograd_demo"])
    stepper.advance(3)
    assert result.stdout == f"step 3: loss {stepper.loss}, accuracy {stepper.accuracy}\n"


@pytest.mark.parametrize("settings", VARIANTS, ids=[to_query(s) for s in VARIANTS])
def test_the_generated_program_uses_only_the_public_package_api(settings):
    public = {"scratchgrad.datasets", "scratchgrad.nn", "scratchgrad.losses", "scratchgrad.optim"}
    public |= {"scratchgrad.train", "scratchgrad.fused"}
    tree = ast.parse(generate_code(settings))
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports
    for node in imports:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        assert node.module in public, ast.unparse(node)
        assert all(not alias.name.startswith("_") for alias in node.names), ast.unparse(node)


def test_the_program_names_its_settings_in_its_first_line():
    first_line = generate_code(PRESETS["xor"]).splitlines()[0]
    assert first_line == f"# The playground's program for {to_query(PRESETS['xor'])}"


def test_no_program_is_written_for_bad_settings_or_steps():
    with pytest.raises(SettingsError, match=r"Learning rate \(lr\): must be greater than 0"):
        generate_code(Settings(lr=0.0))
    with pytest.raises(ValueError, match="steps to be a whole number ≥ 1, got steps=0"):
        generate_code(Settings(), steps=0)


# --- The stepper ---


@pytest.mark.parametrize("activation", ["tanh", "relu", "sigmoid", "linear"])
@pytest.mark.parametrize("outputs", [1, 3])
def test_predict_equals_the_graphs_forward_pass_exactly(activation, outputs):
    model = MLP(2, [5, 4, outputs], activation=activation, output_activation="linear", rng=7)
    rng = random.Random(1)
    for _ in range(50):
        point = [rng.uniform(-3, 3), rng.uniform(-3, 3)]
        out = model(point)
        expected = out.data if outputs == 1 else [v.data for v in out]
        assert predict(model, point) == expected


@given(st.lists(st.floats(-1e3, 1e3), min_size=3, max_size=3))
@hypothesis_settings(max_examples=50)
def test_predict_equals_the_forward_pass_for_any_point(point):
    model = MLP(3, [4, 4, 1], activation="tanh", rng=0)
    assert predict(model, point) == model(point).data


def test_advance_takes_exactly_the_steps_asked_for():
    stepper = Stepper(SMALL)
    assert stepper.steps == 0
    assert [r.step for r in stepper.advance(1)] == [0]
    assert [r.step for r in stepper.advance(4)] == [1, 2, 3, 4]
    assert stepper.steps == 5
    assert stepper.loss == stepper.trainer.history.loss[-1]


def test_advance_for_stops_before_a_step_that_would_overrun_the_slice():
    def clock_of(times):
        ticks = iter(times)
        return lambda: next(ticks)

    stepper = Stepper(SMALL)
    # steps of 1 s in a 3.5 s slice: after 3 steps (3 s) a fourth would end at 4 s
    assert len(stepper.advance_for(3.5, clock=clock_of([0, 1, 2, 3, 4]))) == 3
    # steps of 0.05 s in a 0.07 s slice: one step, not two (0.1 s)
    assert len(stepper.advance_for(0.07, clock=clock_of([0, 0.05, 0.1]))) == 1
    # a first step longer than the slice is still taken
    assert len(stepper.advance_for(0.07, clock=clock_of([0, 0.5, 1.0]))) == 1
    assert stepper.steps == 5


def test_before_any_step_the_stepper_reports_the_untrained_network_on_all_points():
    stepper = Stepper(SMALL)
    assert (stepper.loss, stepper.accuracy) == stepper.initial
    first = stepper.advance(1)[0]
    assert (first.loss, first.accuracy) == stepper.initial  # full batch: step 1 sees the untrained network


def test_a_new_stepper_with_the_same_settings_repeats_the_run_exactly():
    first, second = Stepper(PRESETS["spiral"]), Stepper(PRESETS["spiral"])
    assert [r.loss for r in first.advance(5)] == [r.loss for r in second.advance(5)]


@pytest.mark.parametrize("name", [n for n in PRESETS if n != "micrograd_demo"])
def test_every_preset_learns_its_data(name):
    stepper = Stepper(PRESETS[name])
    records = stepper.advance(150)
    assert stepper.note is None
    assert records[-1].loss < stepper.initial[0] / 2
    assert sum(r.accuracy for r in records[-10:]) / 10 > stepper.initial[1]


def test_a_learning_rate_far_too_large_pauses_training_with_a_note():
    stepper = Stepper(
        Settings(points=20, hidden=(8,), activation="relu", loss="mse", optimizer="sgd", lr=10.0)
    )
    records = stepper.advance(100)
    assert stepper.note is not None
    assert stepper.note.startswith(f"Training diverged at step {len(records)}: the loss became ")
    assert "Lower the learning rate (now 10.0) and press Reset." in stepper.note
    assert not math.isfinite(records[-1].loss)
    assert stepper.advance(5) == []
    assert stepper.advance_for(1.0) == []


def test_a_float_overflow_inside_a_step_pauses_training_with_a_note(monkeypatch):
    stepper = Stepper(SMALL)
    stepper.advance(2)

    def overflowing_step():
        raise OverflowError("intermediate overflow in fsum")

    monkeypatch.setattr(stepper.trainer, "step", overflowing_step)
    assert stepper.advance(3) == []
    assert stepper.note.startswith(
        "Training diverged at step 3: the numbers grew too large for a float (intermediate overflow in fsum)."
    )


def test_the_plane_is_a_square_around_every_point_with_a_margin():
    stepper = Stepper(PRESETS["moons"])
    x_min, x_max, y_min, y_max = stepper.plane()
    assert x_max - x_min == pytest.approx(y_max - y_min)
    first, second = [p[0] for p in stepper.xs], [p[1] for p in stepper.xs]
    extent = max(max(first) - min(first), max(second) - min(second))
    assert min(first) - x_min >= 0.2 * extent - 1e-12
    assert x_max - max(first) >= 0.2 * extent - 1e-12
    assert min(second) - y_min >= 0.2 * extent - 1e-12
    assert y_max - max(second) >= 0.2 * extent - 1e-12
    assert Stepper(PRESETS["four_points"]).plane() is None


def test_classes_are_indices_from_the_targets():
    assert Stepper(PRESETS["xor"]).classes() == [0, 1, 1, 0]
    spiral = Stepper(PRESETS["spiral"])
    assert spiral.classes() == spiral.ys
    assert sorted(set(spiral.classes())) == [0, 1, 2]


def test_layers_hand_over_every_parameter_in_order():
    stepper = Stepper(PRESETS["moons"])
    stepper.advance(2)
    flat = [
        number
        for layer in stepper.layers()
        for weights, bias in zip(layer["weights"], layer["biases"], strict=True)
        for number in (*weights, bias)
    ]
    assert flat == [p.data for p in stepper.model.parameters()]
    assert [layer["activation"] for layer in stepper.layers()] == ["tanh", "tanh", "linear"]


# --- The panel session (the browser worker's side) ---


def strict_json(text: str):
    def refuse(constant):
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_describe_lists_the_fields_and_the_presets():
    described = strict_json(describe())
    assert [field["name"] for field in described["fields"]] == [spec.name for spec in FIELDS]
    assert described["presets"] == {name: to_query(s) for name, s in PRESETS.items()}


def test_a_session_with_bad_settings_reports_them_and_cannot_step():
    session = PanelSession()
    answer = strict_json(session.configure("lr=0&hidden=0"))
    assert answer == {
        "problems": {
            "hidden": "Hidden layers (hidden): layer 1 has 0 neurons; every layer needs at least 1",
            "lr": "Learning rate (lr): must be greater than 0, got 0.0",
        }
    }
    with pytest.raises(RuntimeError, match="configure it first"):
        session.step()


def test_a_session_steps_plays_and_resets_to_the_initial_loss():
    session = PanelSession()
    answer = strict_json(session.configure("hidden=4", preset_name="xor"))
    assert answer["problems"] == {}
    assert answer["query"] == to_query(dataclasses.replace(PRESETS["xor"], hidden=(4,)))
    assert answer["unused"] == ["noise", "points"]
    assert answer["view"] == {
        "inputs": 2,
        "classes": 2,
        "points": [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]],
        "labels": [0, 1, 1, 0],
        "plane": list(session.stepper.plane()),
    }
    initial = answer["frame"]
    assert (initial["steps"], initial["records"], initial["note"]) == (0, [], None)
    assert initial["loss"] == session.stepper.initial[0]

    one = strict_json(session.step())
    assert one["steps"] == 1
    assert one["records"] == [[initial["loss"], initial["accuracy"]]]
    played = strict_json(session.train_for(5))
    assert played["steps"] == 1 + len(played["records"]) >= 2
    assert played["layers"] == session.stepper.layers()

    reset = strict_json(session.reset())
    assert (reset["steps"], reset["loss"], reset["accuracy"]) == (0, initial["loss"], initial["accuracy"])
    assert session.code(7) == generate_code(session.stepper.settings, 7)


def test_a_session_sends_the_scores_of_the_four_points_it_cannot_draw_as_a_plane():
    session = PanelSession()
    answer = strict_json(session.configure("", preset_name="four_points"))
    assert answer["view"]["plane"] is None
    assert answer["frame"]["scores"] == session.stepper.scores()
    assert len(answer["frame"]["scores"]) == 4


def test_a_diverged_frame_is_still_strict_json_with_nulls_for_infinite_numbers():
    session = PanelSession()
    session.configure("points=20&hidden=8&activation=relu&loss=mse&optimizer=sgd&lr=10")
    frame = strict_json(session.step(100))
    assert frame["note"].startswith("Training diverged at step")
    assert frame["records"][-1][0] is None


@pytest.mark.parametrize("module", [playground, settings_module, program, stepper_module])
def test_the_docstring_examples_hold(module):
    results = doctest.testmod(module)
    assert (results.failed, results.attempted > 0) == (0, True)
