"""The panel session, the browser worker's side: text in, strict JSON out."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scratchgrad.playground import FIELDS, PRESETS, PanelSession, generate_code, to_query
from scratchgrad.playground.panel import describe

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
    assert answer["unused"] == ["noise", "points", "test_fraction", "schedule"]
    assert answer["view"] == {
        "inputs": 2,
        "classes": 2,
        "points": [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]],
        "labels": [0, 1, 1, 0],
        "features": ["x1", "x2"],
        "test_points": [],
        "test_labels": [],
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
