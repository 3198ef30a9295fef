"""The training playground's speed in headless Chromium: steps per second and redraws per second.

Run: ``.venv/bin/python benchmarks/playground_speed.py`` (or ``make bench-playground``). It
builds the site (``mkdocs build --strict``, or takes ``--site DIR``), serves it on 127.0.0.1,
opens the Playground page in Chromium (the same launch as tests/browser) and measures:

1. **micrograd's demo net** (the ``micrograd_demo`` preset: 100 two-moons points, 2-16-16-1,
   ReLU, hinge loss + 1e-4·Σθ², SGD): seconds from pressing Play until the panel shows
   step 100 (target < 5 s), and the redraws per second meanwhile (target ≥ 10);
2. **every data set's preset**: steps per second and redraws per second over a few seconds
   of Play; and the moons preset once more with "Engine: yours", the reader's own engine (the
   exercises' reference pieces, stored as passed), against the book's (target ≥ 30 steps/s),
   with the line the panel itself shows (the reader's ms a step against the book's, measured live):
   at the preset's own batch (all 100 points, the target's figure), and again in batches of 20;
3. **neuron maps on and off, side by side**: the moons preset (the book's engine, and "Engine:
   yours" at its default batch, YOUR_ENGINE_BATCH) with "Show neurons" ticked and unticked,
   ``--repeats`` rounds taking turns: steps and redraws per second (redraws target ≥ 20 on moons;
   "Engine: yours" target ≥ 20 steps/s at its default batch);
4. for each, long tasks on the page (> 50 ms) while training, and the start-up time
   (navigation → panel ready).

Times come from the page's own clock: a MutationObserver stamps every change of the panel's
step count and every redraw. A result is *checked* before it is reported: after Pause, the
loss the panel shows must be CPython's after the same number of steps (to 12 digits, see
tests/browser/test_playground.py; or both below 1e-20, where a loss is rounding noise: the
four points train to ~1e-31, whose digits differ between CPython 3.11 and Pyodide's 3.14).
Speed below target is printed, not enforced: the CPU is
shared with other work, so timings are noisy. ``--only-yours [BATCH …]`` measures "Engine: yours"
alone (``--repeats`` rounds, batch sizes taking turns), for comparing two builds side by side.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from playwright.sync_api import sync_playwright

from scratchgrad.playground import PRESETS, PanelSession, Stepper, to_query
from scratchgrad.playground.settings import YOUR_ENGINE_BATCH

HERE = Path(__file__).parent
sys.path[:0] = [
    str(HERE.parent / "tests"),
    str(HERE.parent / "tests" / "browser"),
]  # docs_pages, harness, pages
from harness import build_site, launch_chromium, serve_site, stop  # noqa: E402  (the tests' site and Chromium)
from test_playground import readers_engine, store_as_passed  # noqa: E402  (the reader's passed pieces)

RESULTS = HERE / "results" / "playground.json"
DEMO = "micrograd_demo"
DEMO_STEPS = 100
DEMO_TARGET_SECONDS = 5.0
REDRAW_TARGET = 10.0
SAME_DIGITS = 1e-12
TRAINED_TO_NOISE = 1e-20  # a loss this small is rounding noise: CPython 3.11 and Pyodide's 3.14 differ in it
DATA_SETS = ["four_points", "xor", "moons", "circles", "spiral"]
YOURS = "moons"  # the preset trained once more with "Engine: yours" (the exercises' reference pieces)
YOURS_TARGET = 30.0  # steps per second, at the preset's batch
YOURS_BATCHES = (None, 20)  # the preset's (every point) and a batch of 20
SAME_DIGITS_YOURS = 1e-9  # the reader's Value sums gradients in a set's order, which differs between Pythons
PANEL = ".sg-playground"
MAPS_REDRAW_TARGET = 20.0  # redraws per second on the moons preset, neuron maps on
YOURS_DEFAULT_TARGET = 20.0  # steps per second of "Engine: yours" at its default batch
NEURONS_HIDDEN = (  # "Show neurons" unticked, as the reader's choice is kept (web/playground/network-view.js)
    "try { localStorage.setItem('scratchgrad-playground-neurons', 'hidden'); } catch {}"
)

STAMPS = """
() => {
  window.sgStamps = { steps: [], draws: [], longTasks: [] };
  const panel = document.querySelector('.sg-playground');
  new MutationObserver((records) => {
    for (const record of records) {
      const bucket = record.attributeName === 'data-sg-steps' ? 'steps' : 'draws';
      window.sgStamps[bucket].push([performance.now(), Number(panel.dataset.sgSteps)]);
    }
  }).observe(panel, { attributes: true, attributeFilter: ['data-sg-steps', 'data-sg-drawn-steps'] });
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) window.sgStamps.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask' });
}
"""


def ignore_disconnects(server) -> None:
    """Closing a browser context mid-download resets its connections: not worth a traceback."""
    report_error = server.handle_error

    def handle_error(request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            report_error(request, client_address)

    server.handle_error = handle_error


def open_panel(browser, url: str, *, neurons: bool = True) -> tuple[object, float]:
    """A fresh page on `url` (a reader's first), with the panel ready; and the seconds that took.
    `neurons`: whether "Show neurons" is ticked (the default) or the reader unticked it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if not neurons:
        context.add_init_script(NEURONS_HIDDEN)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(f'{PANEL}[data-sg-state="paused"]', timeout=120_000)
    return page, page.evaluate("performance.now()") / 1000  # counts from the navigation


def play(page, *, until_steps: int | None = None, seconds: float | None = None) -> dict:
    """Press Play, train until a step count or for some seconds, pause; the stamps of that run."""
    page.evaluate(STAMPS)
    started = page.evaluate("performance.now()")
    page.click(".sg-pg-play")
    if until_steps is not None:
        page.wait_for_function(
            f"Number(document.querySelector('{PANEL}').dataset.sgSteps) >= {until_steps}", timeout=300_000
        )
    else:
        page.wait_for_timeout(seconds * 1000)
    ended = page.evaluate("performance.now()")
    page.click(".sg-pg-play")
    page.wait_for_selector(f'{PANEL}[data-sg-state="paused"]')
    stamps = page.evaluate("window.sgStamps")
    stamps["started"], stamps["ended"] = started, ended
    return stamps


def rate(stamps: list[list[float]], start: float, end: float) -> float:
    """Events per second between `start` and `end` (page milliseconds)."""
    return sum(start <= t <= end for t, _ in stamps) / ((end - start) / 1000)


def checked(page, preset: str) -> dict:
    """The panel's step count and loss, after checking the loss against CPython's (exit 1 if it differs)."""
    shown = page.eval_on_selector(PANEL, "e => ({steps: +e.dataset.sgSteps, loss: +e.dataset.sgLoss})")
    stepper = Stepper(PRESETS[preset])
    stepper.advance(shown["steps"])
    difference = abs(shown["loss"] - stepper.loss) / max(abs(stepper.loss), 1e-300)
    if difference > SAME_DIGITS and max(abs(shown["loss"]), abs(stepper.loss)) > TRAINED_TO_NOISE:
        raise SystemExit(f"{preset}: the panel's loss {shown['loss']!r} is not CPython's {stepper.loss!r}")
    return {**shown, "relative_difference_from_cpython": difference}


def long_tasks(stamps: dict) -> list[float]:
    return [duration for start, duration in stamps["longTasks"] if start >= stamps["started"]]


def measure_demo(browser, site_url: str) -> dict:
    page, startup = open_panel(browser, f"{site_url}playground/?{to_query(PRESETS[DEMO])}")
    stamps = play(page, until_steps=DEMO_STEPS)
    reached = next(t for t, steps in stamps["steps"] if steps >= DEMO_STEPS)
    seconds = (reached - stamps["started"]) / 1000
    result = {
        "startup_seconds": startup,
        "seconds_to_step_100": seconds,
        "redraws_per_second": rate(stamps["draws"], stamps["started"], reached),
        "long_tasks_ms": long_tasks(stamps),
        **checked(page, DEMO),
    }
    page.context.close()
    return result


def measure_data_set(browser, site_url: str, name: str, seconds: float, neurons: bool = True) -> dict:
    page, startup = open_panel(browser, f"{site_url}playground/?{to_query(PRESETS[name])}", neurons=neurons)
    stamps = play(page, seconds=seconds)
    maps_drawn(page, neurons)
    first, last = stamps["steps"][0], stamps["steps"][-1]
    result = {
        "startup_seconds": startup,
        "steps_per_second": (last[1] - first[1]) / ((last[0] - first[0]) / 1000),
        "redraws_per_second": rate(stamps["draws"], stamps["started"] + 500, stamps["ended"]),
        "long_tasks_ms": long_tasks(stamps),
        **checked(page, name),
    }
    page.context.close()
    return result


def maps_drawn(page, neurons: bool) -> None:
    """Check that the panel drew the neurons' maps when they were shown, and computed none when not.
    A data set with no plane (the four points are 3-D) has no maps to draw, shown or not."""
    shown = page.eval_on_selector(
        PANEL,
        """e => ({plane: e.sgPlayground.view?.plane != null,
                  maps: e.sgPlayground.grid?.neurons != null,
                  tiles: e.querySelectorAll(
                    '.sg-pg-network:not([hidden]) .sg-pg-network-stage:not([hidden]) canvas').length})""",
    )
    expected = neurons and shown["plane"]
    if shown["maps"] != expected or bool(shown["tiles"]) != expected:
        raise SystemExit(f"neuron maps {'on' if neurons else 'off'}, but the panel shows {shown}")


def measure_yours(
    browser, site_url: str, seconds: float, batch_size: int | None = None, neurons: bool = True
) -> dict:
    """`YOURS`'s preset trained by the reader's own engine in batches of `batch_size`: steps and
    redraws per second, checked."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if not neurons:
        context.add_init_script(NEURONS_HIDDEN)
    work = readers_engine()
    store_as_passed(context, work)
    query = to_query(dataclasses.replace(PRESETS[YOURS], engine="yours", batch_size=batch_size))
    page = context.new_page()
    page.goto(f"{site_url}playground/?{query}")
    page.wait_for_selector(f'{PANEL}[data-sg-state="paused"]', timeout=120_000)
    stamps = play(page, seconds=seconds)
    maps_drawn(page, neurons)
    first, last = stamps["steps"][0], stamps["steps"][-1]
    shown = page.eval_on_selector(PANEL, "e => ({steps: +e.dataset.sgSteps, loss: +e.dataset.sgLoss})")
    pace = page.eval_on_selector(PANEL, "e => e.sgPlayground.frame.pace")
    pace_line = page.text_content(f"{PANEL} .sg-pg-pace")
    session = PanelSession()
    session.configure(query, "", json.dumps(work))
    expected = json.loads(session.step(shown["steps"]))["loss"]
    difference = abs(shown["loss"] - expected) / max(abs(expected), 1e-300)
    if difference > SAME_DIGITS_YOURS:
        raise SystemExit(f"engine=yours: the panel's loss {shown['loss']!r} is not CPython's {expected!r}")
    result = {
        "batch_size": batch_size,
        "steps_per_second": (last[1] - first[1]) / ((last[0] - first[0]) / 1000),
        "redraws_per_second": rate(stamps["draws"], stamps["started"] + 500, stamps["ended"]),
        "long_tasks_ms": long_tasks(stamps),
        **shown,
        "relative_difference_from_cpython": difference,
        "pace": pace,  # the panel's own figures: ms a step, the reader's engine and the book's
        "pace_line": pace_line,
    }
    context.close()
    return result


def demo_time(result: dict) -> float:
    return result["seconds_to_step_100"]


def print_yours(yours: dict, book: float | None) -> None:
    """One line for "Engine: yours" at one batch size; the target is the preset's, every point."""
    batch = yours["batch_size"]
    name = f"{YOURS}, yours" + (f", batch {batch}" if batch else "")
    if batch is None:
        met = "meets target" if yours["steps_per_second"] >= YOURS_TARGET else "BELOW TARGET"
        words = f"target ≥ {YOURS_TARGET:.0f} steps/s: {met}"
    else:
        words = f"a batch of {batch} of the {PRESETS[YOURS].points} points a step; not the target's figure"
    against = f"the book's preset is {book / yours['steps_per_second']:.1f}× as fast; " if book else ""
    print(
        f"  {name:<24} {yours['steps_per_second']:8.1f} {yours['redraws_per_second']:10.1f}"
        f" {sum(d > 50 for d in yours['long_tasks_ms']):11d}   ({against}{words})"
    )
    if yours.get("pace"):
        print(f"    the panel's own line: “{yours['pace_line']}”")


def report(results: dict) -> None:
    demo = results[DEMO]
    in_time = "meets target" if demo_time(demo) < DEMO_TARGET_SECONDS else "BELOW TARGET"
    fluid = "meets target" if demo["redraws_per_second"] >= REDRAW_TARGET else "BELOW TARGET"
    print(f"micrograd's demo net (2-16-16-1 ReLU, hinge, 100 moons), in Chromium ({results['load']}):")
    runs = ", ".join(f"{t:.2f}" for t in demo["seconds_to_step_100_runs"])
    target = f"target < {DEMO_TARGET_SECONDS} s: {in_time}"
    print(f"  Play → step 100: median {demo_time(demo):.2f} s of {runs} ({target})")
    print(f"  redraws: {demo['redraws_per_second']:.1f}/s (target ≥ {REDRAW_TARGET}: {fluid})")
    print(f"  long tasks > 50 ms while training: {sum(d > 50 for d in demo['long_tasks_ms'])}")
    print(f"\n  {'preset':<24} {'steps/s':>8} {'redraws/s':>10} {'long tasks*':>11} {'start-up s':>11}")
    for name in DATA_SETS:
        r = results["data_sets"][name]
        tasks = sum(d > 50 for d in r["long_tasks_ms"])
        print(
            f"  {name:<24} {r['steps_per_second']:8.1f} {r['redraws_per_second']:10.1f} {tasks:11d}"
            f" {r['startup_seconds']:11.1f}"
        )
    for yours in results["yours"]:
        print_yours(yours, results["data_sets"][YOURS]["steps_per_second"])
    print("  * wall-clock long tasks (> 50 ms) while training: on a busy machine the OS can stretch any task")
    if "neurons" in results:
        print_neurons(results["neurons"])
    print("  (every panel's loss after Pause checked against CPython's: same to 12 digits)")


def measure_neurons(browser, site_url: str, options: argparse.Namespace) -> dict:
    """The moons preset with neuron maps on and off, the book's engine and the reader's at its
    default batch: `options.repeats` rounds, on and off taking turns (which goes first alternates)."""
    runs: dict = {"book": {"on": [], "off": []}, "yours": {"on": [], "off": []}}
    for round_ in range(options.repeats):
        order = (True, False) if round_ % 2 == 0 else (False, True)
        for neurons in order:
            key = "on" if neurons else "off"
            runs["book"][key].append(measure_data_set(browser, site_url, YOURS, options.seconds, neurons))
            runs["yours"][key].append(
                measure_yours(browser, site_url, options.seconds, YOUR_ENGINE_BATCH, neurons)
            )
    return runs


def print_neurons(neurons: dict) -> None:
    """The maps-on/maps-off table: medians, and every run's figures."""
    rounds = len(neurons["book"]["on"])
    print(f"\n  neuron maps on and off, moons preset, {rounds} rounds taking turns (median):")
    print(f"  {'':<28} {'maps on':>20} {'maps off':>20}")
    print(f"  {'':<28} {'steps/s':>9} {'redraws/s':>10} {'steps/s':>9} {'redraws/s':>10}")
    names = {"book": "the book's engine", "yours": f"Engine: yours, batch {YOUR_ENGINE_BATCH}"}
    for engine, name in names.items():
        cells = [
            median([run[figure] for run in neurons[engine][key]])
            for key in ("on", "off")
            for figure in ("steps_per_second", "redraws_per_second")
        ]
        print(f"  {name:<28} {cells[0]:9.1f} {cells[1]:10.1f} {cells[2]:9.1f} {cells[3]:10.1f}")
        for key in ("on", "off"):
            every = ", ".join(
                f"{r['steps_per_second']:.1f}/{r['redraws_per_second']:.1f}" for r in neurons[engine][key]
            )
            print(f"    maps {key}, each run (steps/redraws per s): {every}")
    redraws = median([run["redraws_per_second"] for run in neurons["book"]["on"]])
    steps = median([run["steps_per_second"] for run in neurons["yours"]["on"]])
    print(f"  redraws/s with maps on, moons: {redraws:.1f} ({against(redraws, MAPS_REDRAW_TARGET)})")
    yours = against(steps, YOURS_DEFAULT_TARGET)
    print(f"  Engine: yours at its default batch, maps on: {steps:.1f} steps/s ({yours})")


def against(figure: float, target: float) -> str:
    return f"target ≥ {target:.0f}: {'meets target' if figure >= target else 'BELOW TARGET'}"


def measure_all(browser, site_url: str, options: argparse.Namespace) -> dict:
    """The demo (`options.repeats` runs), every data set's preset, and "Engine: yours" at each batch size."""
    runs = sorted((measure_demo(browser, site_url) for _ in range(options.repeats)), key=demo_time)
    demo = {**runs[len(runs) // 2], "seconds_to_step_100_runs": [demo_time(r) for r in runs]}
    return {
        DEMO: demo,
        "data_sets": {name: measure_data_set(browser, site_url, name, options.seconds) for name in DATA_SETS},
        "yours": [measure_yours(browser, site_url, options.seconds, batch) for batch in YOURS_BATCHES],
        "neurons": measure_neurons(browser, site_url, options),
    }


def measure_only_yours(browser, site_url: str, options: argparse.Namespace) -> dict:
    """ "Engine: yours" alone, `options.repeats` rounds of each batch size asked for, taking turns."""
    batches = [None if batch == "all" else int(batch) for batch in options.only_yours] or YOURS_BATCHES
    rounds = [batch for _ in range(options.repeats) for batch in batches]
    return {"yours": [measure_yours(browser, site_url, options.seconds, batch) for batch in rounds]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of Play per data set")
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs of the demo (median), or with --only-yours rounds"
    )
    parser.add_argument(
        "--only-neurons",
        action="store_true",
        help="measure only the moons preset with neuron maps on and off (--repeats rounds)",
    )
    parser.add_argument(
        "--only-yours",
        nargs="*",
        metavar="BATCH",
        help='measure "Engine: yours" alone, at these batch sizes ("all" or a number; default: all 20)',
    )
    options = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        site = options.site
        if site is None:
            site = Path(scratch) / "site"
            build_site(site)
        server = serve_site(site)
        ignore_disconnects(server)
        site_url = f"http://127.0.0.1:{server.server_port}/"
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            if options.only_neurons:
                results = {"neurons": measure_neurons(browser, site_url, options)}
            elif options.only_yours is not None:
                results = measure_only_yours(browser, site_url, options)
            else:
                results = measure_all(browser, site_url, options)
            browser.close()
        stop(server)
    load = "load average {:.1f} {:.1f} {:.1f} before, {:.1f} {:.1f} {:.1f} after, on {} cores".format(
        *load_before, *os.getloadavg(), os.cpu_count()
    )
    results = {"measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": load, **results}
    if options.only_neurons:
        print(f"In Chromium ({results['load']}):")
        print_neurons(results["neurons"])
        return
    if options.only_yours is not None:
        print(f"Engine: yours, in Chromium ({results['load']}):")
        for yours in results["yours"]:
            print_yours(yours, None)
        return
    report(results)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
