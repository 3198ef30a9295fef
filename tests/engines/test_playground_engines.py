"""The Playground's newer parts in Firefox ESR and in WebKit, one short run each (Chromium runs the
full suite, tests/browser/test_playground.py).

Per engine, from a fresh profile: a network with features and points held out takes two steps;
one hidden neuron's map is what CPython computes from the weights the page drew with, and the
held-out points' loss is CPython's; then drawn points load from a URL.
"""

from __future__ import annotations

import pytest
from playground_model import model_with
from test_engines import LOAD_TIMEOUT_S, RUN_TIMEOUT_S

from scratchgrad.features import featured
from scratchgrad.playground import Settings, Stepper, from_query, to_query

PANEL = "document.querySelector('.sg-playground')"
SETTLED = f"['paused', 'invalid', 'failed'].includes({PANEL}?.dataset.sgState)"
SETTINGS = Settings(points=40, hidden=(3,), features=("x1", "x2", "x1_x2"))  # 30 % held out (the default)
DRAWN = "dataset=drawn&drawn=-1,-1,0;1,1,0;-1,1,1;1,-1,1;0.5,-0.25,1&hidden=4"
STEPS = 2
SAME_DIGITS = 1e-12  # CPython 3.11 and Pyodide's 3.14 part in the last bits (see tests/browser)


def open_settled(engine, url: str) -> None:
    engine.goto(url)
    engine.wait_for(SETTLED, LOAD_TIMEOUT_S, "the playground loading")
    assert engine.evaluate(f"{PANEL}.dataset.sgState") == "paused", engine.evaluate(
        f"{PANEL}.querySelector('.sg-pg-status').textContent"
    )


def test_the_playground_maps_a_neuron_tests_held_out_points_and_loads_drawn_points(engine, site_url):
    open_settled(engine, f"{site_url}playground/?{to_query(SETTINGS)}")
    for step in range(1, STEPS + 1):
        engine.evaluate(f"{PANEL}.querySelector('.sg-pg-step').click()")
        engine.wait_for(f"{PANEL}.dataset.sgDrawnSteps === '{step}'", RUN_TIMEOUT_S, f"step {step} drawn")
    shown = engine.evaluate(f"""(p => ({{
      layers: p.frame.layers, plane: p.view.plane, resolution: p.grid.resolution,
      map: Array.from(p.grid.neurons[0][0]), test: p.frame.test,
      tiles: p.element.querySelectorAll('.sg-pg-network-neuron').length,
    }}))({PANEL}.sgPlayground)""")
    assert shown["tiles"] == 3

    model = model_with(shown["layers"])
    x_min, x_max, y_min, y_max = shown["plane"]
    n, half = shown["resolution"], shown["resolution"] // 2
    for r in range(0, half, 5):
        for c in range(0, half, 5):  # map cell (r, c) is the picture's cell (2r + 1, 2c + 1)
            point = [x_min + (2 * c + 1.5) * (x_max - x_min) / n, y_max - (2 * r + 1.5) * (y_max - y_min) / n]
            expected = model.layers[0].neurons[0](featured([point], SETTINGS.features)[0]).data
            assert shown["map"][r * half + c] == pytest.approx(expected, rel=1e-6, abs=1e-6), (r, c)

    stepper = Stepper(SETTINGS)
    stepper.advance(STEPS)
    test_loss, test_accuracy = stepper.test()
    assert shown["test"][0] == pytest.approx(test_loss, rel=SAME_DIGITS), engine.name
    assert shown["test"][1] == test_accuracy

    open_settled(engine, f"{site_url}playground/?{DRAWN}")
    points = engine.evaluate(f"{PANEL}.sgPlayground.view.points")
    assert points == [[x1, x2] for x1, x2, _ in from_query(DRAWN).drawn], engine.name
