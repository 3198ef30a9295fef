"""Playground settings: their checks, the presets, the panels in the docs and URL query strings."""

from __future__ import annotations

import dataclasses
import doctest
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from scratchgrad.features import FEATURES
from scratchgrad.playground import (
    FIELDS,
    PRESETS,
    Settings,
    SettingsError,
    from_query,
    micrograd_demo,
    preset,
    to_query,
)
from scratchgrad.playground import settings as settings_module
from scratchgrad.playground.settings import (
    DATASETS,
    LOSSES,
    MAX_LAYERS,
    MAX_NEURONS,
    MAX_POINTS,
    OPTIMIZERS,
    SCHEDULES,
)

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
        ("schedule", "cosine", "Schedule: unknown schedule 'cosine'; choose one of inverse, linear"),
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
        ({"points": 50, "batch_size": 60, "test_fraction": 0}, "batch_size", "Batch size: 60 is more"),
        ({"points": 50, "batch_size": 40}, "batch_size", "Batch size: 40 is more than the 35 points of this"),
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
    assert Settings(dataset="moons", hidden=(4,), decay=0.1).unused() == ()
    assert Settings(dataset="four_points", hidden=(4,), decay=0.1).unused() == (
        "noise",
        "points",
        "test_fraction",
        "features",
    )
    assert Settings(dataset="xor", hidden=(4,), decay=0.1).unused() == ("noise", "points", "test_fraction")
    assert Settings(dataset="spiral", hidden=(), decay=0.1).unused() == ("activation",)
    assert Settings(dataset="moons", hidden=(4,), decay=0.0).unused() == ("schedule",)


def test_the_micrograd_demo_preset_is_made_of_micrograd_demos_numbers():
    demo = PRESETS["micrograd_demo"]
    assert (demo.dataset, demo.points, demo.noise, demo.seed) == (
        "moons",
        micrograd_demo.POINTS,
        micrograd_demo.NOISE,
        micrograd_demo.DATA_SEED,
    )
    assert (demo.hidden, demo.activation, demo.loss, demo.l2) == (
        micrograd_demo.HIDDEN,
        micrograd_demo.ACTIVATION,
        "hinge",
        micrograd_demo.L2,
    )
    assert (demo.optimizer, demo.lr, demo.schedule, demo.decay) == (
        "sgd",
        micrograd_demo.LEARNING_RATE,
        "linear",
        micrograd_demo.DECAY,
    )


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

DOCS = Path(__file__).resolve().parents[2] / "docs"
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
    points=st.integers(8, MAX_POINTS),  # with a third held out, still 4 or more to train on
    test_fraction=st.sampled_from([0.0, 0.1, 0.3]),
    features=st.lists(st.sampled_from(list(FEATURES)), min_size=1, max_size=7, unique=True).map(tuple),
    hidden=st.lists(st.integers(1, MAX_NEURONS), max_size=MAX_LAYERS).map(tuple),
    activation=st.sampled_from(["tanh", "relu", "sigmoid", "linear"]),
    loss=st.sampled_from(LOSSES),
    optimizer=st.sampled_from(OPTIMIZERS),
    lr=st.floats(1e-6, 10.0),
    schedule=st.sampled_from(SCHEDULES),
    decay=st.just(0.0),
    l2=st.floats(0.0, 1.0),
    batch_size=st.one_of(st.none(), st.integers(1, 4)),
    seed=st.integers(0, 2**31 - 1),
)


@given(valid_settings)
@hypothesis_settings(deadline=None)  # the machine is shared: a slow example is not a wrong one
def test_settings_survive_a_trip_through_the_url(settings):
    assert settings.problems() == {}
    assert from_query(to_query(settings)) == settings


def test_the_url_lists_every_setting_readably():
    query = to_query(PRESETS["micrograd_demo"])
    assert query == (
        "dataset=moons&noise=0.1&points=100&test_fraction=0.0&features=x1,x2&hidden=16,16&activation=relu"
        "&loss=hinge&optimizer=sgd"
        "&lr=1.0&schedule=linear&decay=0.009&l2=0.0001&batch_size=all&seed=0&engine=scratchgrad"
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


def test_the_docstring_examples_hold():
    results = doctest.testmod(settings_module)
    assert (results.failed, results.attempted > 0) == (0, True)


@pytest.mark.parametrize(("asked", "drawn"), [(100, 99), (101, 102), (4, 6), (5, 6), (120, 120)])
def test_choosing_the_spiral_takes_the_nearest_point_count_it_can_draw(asked, drawn):
    assert from_query(f"dataset=spiral&points={asked}").points == drawn


def test_a_point_count_below_the_least_is_still_refused_for_the_spiral():
    with pytest.raises(SettingsError, match="at least 4"):
        from_query("dataset=spiral&points=2")


def test_settings_made_directly_still_refuse_a_spiral_of_unequal_arms():
    assert "multiple of 3" in Settings(dataset="spiral", points=100).problems()["points"]


# --- The reader's engine's batch ---


def test_your_engine_takes_a_lively_batch_when_none_is_asked_for():
    settings = from_query("engine=yours")
    assert settings.batch_size == settings_module.YOUR_ENGINE_BATCH < settings.point_count
    note = settings_module.batch_note(settings)
    batch = settings_module.YOUR_ENGINE_BATCH
    assert f"a batch of {batch} of the {settings.train_count} training points" in note


def test_your_engine_keeps_every_point_when_asked_and_the_books_engine_is_unchanged():
    assert from_query("engine=yours&batch_size=all").batch_size is None
    every = from_query("engine=yours&batch_size=all")
    assert "all 70 training points a step" in settings_module.batch_note(every)
    assert from_query("engine=scratchgrad").batch_size is None
    assert settings_module.batch_note(Settings()) == ""


def test_your_engine_on_fewer_points_than_the_lively_batch_takes_them_all():
    assert from_query("engine=yours&dataset=xor").batch_size is None
    assert from_query(f"engine=yours&points={settings_module.YOUR_ENGINE_BATCH}").batch_size is None
    assert settings_module.batch_note(from_query("engine=yours&dataset=xor")) == ""


def test_changing_the_engine_gives_the_batch_back_to_from_query():
    engine = next(spec for spec in FIELDS if spec.name == "engine")
    assert engine.describe()["clears"] == ("batch_size",)


# --- The reader's own points ---

DRAWN = "dataset=drawn&drawn=0,0,0;1,1,0;0,1,1;1,0,1;0.5,-0.25,1&hidden=4"


def test_drawn_points_travel_in_the_url_and_back():
    settings = from_query(DRAWN)
    assert settings.drawn == ((0.0, 0.0, 0), (1.0, 1.0, 0), (0.0, 1.0, 1), (1.0, 0.0, 1), (0.5, -0.25, 1))
    assert settings.point_count == 5
    assert "&drawn=0,0,0;1,1,0;0,1,1;1,0,1;0.5,-0.25,1" in to_query(settings)
    assert from_query(to_query(settings)) == settings
    assert "drawn=" not in to_query(Settings())  # no points drawn: nothing added to every URL


@pytest.mark.parametrize(
    ("drawn", "expected"),
    [
        ("", "draw at least 4 points to train on, got 0"),
        ("0,0,0;1,1", "point 2 '1,1' is not x₁,x₂,class (three numbers)"),
        ("0,0,0;1,x,1", "point 2 '1,x,1' is not x₁,x₂,class (three numbers)"),
        ("0,0,0;1,1,0;0,1,0;1,0,0", "draw points of both classes, 0 and 1"),
        ("0,0,0;1,1,2;0,1,1;1,0,1", "point 2 has class 2; a drawn point is class 0 or 1"),
        ("0,0,0;99,1,0;0,1,1;1,0,1", "point 2 (99.0, 1.0) is off the plane: each coordinate from -2 to 2"),
        ("0,0,0;nan,1,0;0,1,1;1,0,1", "point 2 (nan, 1.0) is off the plane"),
        (";".join(["0,0,1"] * (MAX_POINTS + 1)), f"at most {MAX_POINTS} points"),
        ("0,0,1;" * 10_000, "is more than 400 points can take"),
    ],
)
def test_bad_drawn_points_get_a_message_that_names_the_problem(drawn, expected):
    with pytest.raises(SettingsError) as caught:
        from_query(f"dataset=drawn&drawn={drawn}")
    assert list(caught.value.problems) == ["drawn"]
    assert caught.value.problems["drawn"].startswith("Drawn points (drawn): ")
    assert expected in caught.value.problems["drawn"]
