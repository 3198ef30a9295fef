"""The in-browser runtime's costs, measured in headless Chromium on the built site.

    .venv/bin/python benchmarks/browser_startup.py [--site DIR] [--repeats N]    (make bench-browser)

1. Start-up: navigation → Python ready on a page with runnable blocks (worker, Pyodide, the
   scratchgrad wheel from the lock file, the block runner), against a bare page on the same
   server that only calls ``loadPyodide()`` on the main thread. Both are measured in the page
   (``performance.now()`` counts from the navigation), alternating, with the HTTP cache and the
   service worker warm, as when a reader reloads or opens a chapter from outside. The site is
   measured twice: as it loads once this browser has saved its Pyodide snapshot (every load
   after the first), and with the snapshot deleted just before the navigation (the first boot
   in a browser, which boots from Pyodide's files and saves the snapshot). And cold, in a new
   browser context, from the click to ready (a reader's first page: the service worker registers
   while it is shown, and the page is not isolated): ``--cold-repeats`` first visits of each
   (default 3), alternating, medians compared. The bare page has no service worker at all.
   Cold visits also open a second bare page that runs the same ``loadPyodide()`` in a module
   worker, as the site does, and a third that boots that worker beside the chapter itself with
   the runtime taken out (Material, the article, its stylesheets: the page a reader came for).
   They split the site's overhead three ways: what a worker costs, what the documentation page
   costs Pyodide's start on the same cores, and what the runtime adds on top of both.
   Also: following a link to the next chapter inside the site (Material's instant navigation),
   from the click to the new page's "ready" status: the worker lives on.
2. Click Run → first output of ``print(1)`` on a ready page, from the click handler to the
   text in the DOM.
3. The JavaScript and CSS a runnable page loads, Pyodide excluded: raw and gzip sizes of every
   script, worker and stylesheet the page requested, plus the Graphviz worker, which loads only
   when a block draws a graph.
4. First visits in Firefox ESR and WebKitGTK (tests/engines/engines.py drives them) the same way:
   from a fresh profile, navigation → ready, the site against the three bare boots, side by side
   in the same browser.
5. Lighthouse (npm ``lighthouse``, Debian's Chromium): performance, accessibility, best-practices
   and SEO scores of the home page, a chapter and the Playground (mobile emulation, Lighthouse's
   default), with FCP, LCP, total blocking time and layout shift, medians of three runs each; and
   whether Chromium finds the site installable (``--lighthouse-only``: this part alone).
6. First contentful paint of a chapter on a first visit, against the same chapter with the
   runtime taken out (the service worker's script, runner.js and runner.css):
   what the runtime delays the page's first paint by. Chromium, cold, alternating.

The site is served from 127.0.0.1 with its text gzipped (HTML, CSS, JavaScript, JSON), as a
static host sends it; Pyodide's WebAssembly and zip files as they are, for the site and the bare
pages alike (harness.StaticFiles).

Targets (issue 4): start-up overhead ≤ 15 %, first output ≤ 100 ms, JS + CSS ≤ 300 KB gzip.
Results go to benchmarks/results/browser_startup.json. Timings on a shared machine are noisy;
the load average is printed with them.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / directory) for directory in ("tests", "tests/browser", "tests/engines", "hooks")]

from harness import CHROMIUM, CHROMIUM_ARGS, build_site, launch_chromium, serve_site, stop  # noqa: E402
from helpers.page_head import at_top_of_head  # noqa: E402
from pages import (  # noqa: E402
    SERVICE_WORKER_CONTROLS,
    booted_from,
    forget_snapshots,
    page_url,
    replace_code,
    runnable_pages,
    runs_of,
    wait_for_one_snapshot,
    wait_for_runs,
)

from engines import ENGINES, MissingEngineError  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "browser_startup.json"
BARE_PATH = "/bare-pyodide.html"
BARE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>bare loadPyodide</title>
<script type="module">
  const indexURL = new URL("/pyodide/", location.href).href;
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  await loadPyodide({ indexURL });
  window.bareReadyAt = performance.now();
</script>
"""
# The same boot in a module worker, as the site boots it: the site's overhead over this one is
# what the page itself adds (its rendering, its scripts), apart from what a worker costs. The
# same boot again inside the chapter with the runtime taken out (bare_worker_beside) splits that
# into what the documentation page costs and what the runtime adds.
BARE_WORKER_PATH = "/bare-pyodide-worker.html"
# A classic script: it runs where it stands, while an inline module script would wait until the
# whole page is parsed. (The site itself starts Python once the page has settled:
# web/page/after-settling.js; this is the earliest a page could start it.)
BARE_WORKER_BOOT = """<script>
  const bareWorker = new Worker("/bare-pyodide-worker.js", { type: "module" });
  bareWorker.onmessage = () => (window.bareReadyAt = performance.now());
  bareWorker.postMessage(new URL("/pyodide/", location.href).href);
</script>
"""
BARE_WORKER_PAGE = f"""<!doctype html>
<meta charset="utf-8">
<title>bare loadPyodide in a module worker</title>
{BARE_WORKER_BOOT}"""
BARE_WORKER_SCRIPT = """
self.onmessage = async ({ data: indexURL }) => {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  await loadPyodide({ indexURL });
  self.postMessage("ready");
};
"""
BARE_FILES = {
    BARE_PATH: BARE_PAGE,
    BARE_WORKER_PATH: BARE_WORKER_PAGE,
    "/bare-pyodide-worker.js": BARE_WORKER_SCRIPT,
}
SITE_READY = "scratchgrad.runtime.timings.readyAt"
BARE_READY = "window.bareReadyAt"
FIRST_OUTPUT = """
() => new Promise((resolve) => {
  const block = document.querySelectorAll(".sg-runnable")[0];
  const result = block.querySelector(":scope > .sg-result");
  let clickedAt = null;
  const observer = new MutationObserver(() => {
    if (result.querySelector(".sg-output")?.textContent === "1\\n") {
      observer.disconnect();
      resolve(performance.now() - clickedAt);
    }
  });
  observer.observe(result, { childList: true, subtree: true, characterData: true });
  const button = block.querySelector(".sg-button--run");
  button.addEventListener("click", () => (clickedAt = performance.now()), { capture: true, once: true });
  button.click();
})
"""
LOAD_TIMEOUT_MS = 180_000
INSTANT_NAVIGATION = """
(href) => new Promise((resolve) => {
  const clickedAt = performance.now();
  const ready = () => {
    const status = document.querySelector(".sg-status[data-status='ready']");
    return status && document.querySelector(".sg-runnable").dataset.sgPage !== startPage;
  };
  const startPage = document.querySelector(".sg-runnable").dataset.sgPage;
  const observer = new MutationObserver(() => {
    if (ready()) {
      observer.disconnect();
      resolve(performance.now() - clickedAt);
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  [...document.querySelectorAll("a.md-nav__link")].find((link) => link.href.endsWith(href)).click();
})
"""


def ready_after_navigation(page, url: str, ready: str) -> float:
    """Open `url` and return performance.now() when `ready` becomes a number (ms since navigation)."""
    page.goto(url)
    page.wait_for_function(f"typeof ({ready}) === 'number'", timeout=LOAD_TIMEOUT_MS, polling=50)
    return page.evaluate(ready)


def alternating(repeats: int, measured: list):
    """Each of `measured` `repeats` times, every other round in reverse: neither goes always first."""
    for repeat in range(repeats):
        yield from measured if repeat % 2 == 0 else reversed(measured)


def cold_pairs(repeats: int, site_page: str, base: str, beside_page: str):
    """(name, url, ready) for `repeats` first visits of the site's page and of the three bare
    boots (on the main thread, in a worker, in a worker beside the chapter without the runtime),
    alternating which goes first."""
    measured = [("site", site_page, SITE_READY), ("bare", base + BARE_PATH.lstrip("/"), BARE_READY),
                ("bare_worker", base + BARE_WORKER_PATH.lstrip("/"), BARE_READY),
                ("bare_beside_page", beside_page, BARE_READY)]  # fmt: skip
    return alternating(repeats, measured)


def cold_summary(cold: dict[str, list[int]]) -> dict:
    """The runs of each page, their medians, the site's overhead over the bare page (the
    target), over the bare worker (what the page adds), what the worker alone costs, what the
    chapter without the runtime costs a worker booting beside it, and what the runtime adds to
    that (the site over the worker beside the same chapter)."""
    medians = {name: statistics.median(runs) for name, runs in cold.items()}
    return {"cold_ms": dict(cold), "cold_median_ms": medians,
            "cold_overhead": round(medians["site"] / medians["bare"] - 1, 3),
            "cold_overhead_over_worker": round(medians["site"] / medians["bare_worker"] - 1, 3),
            "cold_worker_cost": round(medians["bare_worker"] / medians["bare"] - 1, 3),
            "cold_page_cost": round(medians["bare_beside_page"] / medians["bare_worker"] - 1, 3),
            "cold_runtime_overhead": round(medians["site"] / medians["bare_beside_page"] - 1, 3)}  # fmt: skip


def measure_start_up(browser, site_page: str, base: str, beside_page: str, next_page: str, repeats: int,
                     cold_repeats: int) -> dict:  # fmt: skip
    bare_page = base + BARE_PATH.lstrip("/")
    cold = collections.defaultdict(list)  # the pages are named once, in cold_pairs
    for name, url, ready in cold_pairs(cold_repeats, site_page, base, beside_page):
        context = browser.new_context()
        started = time.monotonic()
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(f"typeof ({ready}) === 'number'", timeout=LOAD_TIMEOUT_MS, polling=50)
        cold[name].append(round((time.monotonic() - started) * 1000))
        context.close()
    context = browser.new_context()
    page = context.new_page()
    ready_after_navigation(page, site_page, SITE_READY)  # installs the service worker, fills the cache
    page.wait_for_function(SERVICE_WORKER_CONTROLS, timeout=LOAD_TIMEOUT_MS)
    wait_for_one_snapshot(page)  # every load from here on is isolated, as a returning reader's
    warm = {"site": [], "site_first_boot": [], "bare": []}
    order = [
        ("site", site_page, SITE_READY),
        ("site_first_boot", site_page, SITE_READY),
        ("bare", bare_page, BARE_READY),
    ]
    for name, url, ready in alternating(repeats, order):
        if name == "site_first_boot":
            forget_snapshots(page)  # every page here has the site's origin, and its cache
        warm[name].append(round(ready_after_navigation(page, url, ready)))
        if name != "bare":
            booted = booted_from(page)
            expected = "files" if name == "site_first_boot" else "snapshot"
            if booted != expected:
                raise SystemExit(f"{name}: Python booted from {booted}, not from its {expected}")
            if name == "site_first_boot":  # the next "site" load needs the snapshot this one saves
                wait_for_one_snapshot(page)
    instant = []
    for _ in range(repeats):
        ready_after_navigation(page, site_page, SITE_READY)
        instant.append(round(page.evaluate(INSTANT_NAVIGATION, next_page), 1))
    context.close()
    medians = {name: statistics.median(runs) for name, runs in warm.items()}
    return {"warm_ms": warm, "warm_median_ms": medians,
            "warm_min_ms": {name: min(runs) for name, runs in warm.items()},
            "warm_overhead": round(medians["site"] / medians["bare"] - 1, 3),
            "warm_first_boot_overhead": round(medians["site_first_boot"] / medians["bare"] - 1, 3),
            **cold_summary(cold),
            "instant_navigation_ms": instant}  # fmt: skip


def measure_first_output(browser, site_page: str, repeats: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    ready_after_navigation(page, site_page, SITE_READY)
    replace_code(page, 0, "print(1)\n")
    times = []
    for _ in range(repeats):
        runs = runs_of(page, 0)
        times.append(round(page.evaluate(FIRST_OUTPUT), 1))
        wait_for_runs(page, 0, runs + 1)
    context.close()
    return {"ms": times, "median_ms": round(statistics.median(times), 1), "max_ms": max(times)}


def measure_sizes(browser, site_dir: Path, site_page: str) -> dict:
    context = browser.new_context()
    requested: list[str] = []
    context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page = context.new_page()
    ready_after_navigation(page, site_page, SITE_READY)
    context.close()
    loaded = sorted({path for path in requested if path.endswith((".js", ".mjs", ".css"))})
    pyodide = [path for path in loaded if path.startswith("/pyodide/")]
    files = {path: file_sizes(site_dir / path.lstrip("/")) for path in loaded if path not in pyodide}
    lazy = {"/javascripts/graph-worker.js": file_sizes(site_dir / "javascripts" / "graph-worker.js")}
    total = {key: sum(sizes[key] for sizes in files.values()) for key in ("raw", "gzip")}
    return {"page_loads": files, "total": total, "pyodide_excluded": pyodide, "loaded_on_first_graph": lazy}


RUNTIME_TAGS = (
    re.compile(r'<script async src="[./]*coi-serviceworker\.js"></script>'),
    re.compile(r'<script type="module" async src="[./]*javascripts/runner\.js"></script>'),
    re.compile(r'<link rel="stylesheet" href="[./]*javascripts/runner\.css">'),
)
FIRST_PAINT = "performance.getEntriesByName('first-contentful-paint')[0]?.startTime"


def without_runtime(html: str) -> str:
    """The page as built, less what hooks/pyodide_runtime.py adds to it; fails if one is not found."""
    for tag in RUNTIME_TAGS:
        html, found = tag.subn("", html, count=1)
        if not found:
            raise SystemExit(f"the runtime's {tag.pattern} is not in the page: update RUNTIME_TAGS")
    return html


def bare_worker_beside(stripped: str) -> str:
    """A page with its runtime taken out (`without_runtime`), given the bare worker's boot at the
    top of ``<head>``: Pyodide starting beside the same chapter, as early as a page can start it."""
    return at_top_of_head(stripped, BARE_WORKER_BOOT)


def measure_first_paint(browser, with_runtime: str, without: str, repeats: int) -> dict:
    """First visits (a new context each), alternating: navigation → first contentful paint."""
    paints = {"with_runtime": [], "without_runtime": []}
    for name, url in alternating(repeats, [("with_runtime", with_runtime), ("without_runtime", without)]):
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(f"typeof ({FIRST_PAINT}) === 'number'", timeout=LOAD_TIMEOUT_MS, polling=50)
        paints[name].append(round(page.evaluate(FIRST_PAINT)))
        context.close()
    medians = {name: statistics.median(runs) for name, runs in paints.items()}
    return {
        "ms": paints,
        "median_ms": medians,
        "delay_ms": medians["with_runtime"] - medians["without_runtime"],
    }


def measure_cold_in_engines(site_page: str, base: str, beside_page: str, cold_repeats: int) -> dict:
    """Per engine, first visits from a fresh profile: navigation → ready, site and bare pages."""
    results = {}
    for name, engine_class in ENGINES.items():
        try:
            engine = engine_class()
        except MissingEngineError as missing:
            results[name] = {"missing": str(missing)}
            continue
        try:
            cold = collections.defaultdict(list)
            for label, url, ready in cold_pairs(cold_repeats, site_page, base, beside_page):
                engine.fresh()
                started = time.monotonic()
                engine.goto(url)
                ready_yet = f"(() => {{ try {{ return typeof ({ready}) === 'number'; }}"
                ready_yet += " catch { return false; } })()"  # before runner.js defines scratchgrad
                engine.wait_for(ready_yet, LOAD_TIMEOUT_MS / 1000, label)
                cold[label].append(round((time.monotonic() - started) * 1000))
            results[name] = cold_summary(cold)
        finally:
            engine.close()
    return results


LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


LIGHTHOUSE_RUNS = 3  # one run's performance score swings by ±15 with the machine's load


def lighthouse_scores(pages: dict[str, str]) -> dict:
    """For each of `pages` ({name: url}), the median of LIGHTHOUSE_RUNS runs of each figure:
    the scores (0–100), first and largest contentful paint, and cumulative layout shift."""
    scores = {}
    for name, url in pages.items():
        runs = [lighthouse_run(url) for _ in range(LIGHTHOUSE_RUNS)]
        scores[name] = {figure: statistics.median(run[figure] for run in runs) for figure in runs[0]}
        scores[name]["performance_runs"] = [run["performance"] for run in runs]
    return scores


def lighthouse_run(url: str) -> dict:
    """One Lighthouse run (mobile emulation, its default) of `url`: its scores and timings."""
    result = subprocess.run(
        [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
         f"--only-categories={','.join(LIGHTHOUSE_CATEGORIES)}",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)}, capture_output=True, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url}:\n{result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    categories, audits = report["categories"], report["audits"]
    run = {each: round(categories[each]["score"] * 100) for each in LIGHTHOUSE_CATEGORIES}
    for paint in ("first-contentful-paint", "largest-contentful-paint"):
        run[f"{paint}_ms"] = round(audits[paint]["numericValue"])
    run["cumulative-layout-shift"] = round(audits["cumulative-layout-shift"]["numericValue"], 3)
    run["total-blocking-time_ms"] = round(audits["total-blocking-time"]["numericValue"])
    return run


def installability_errors(playwright, url: str) -> list[str]:
    """What Chromium says keeps `url` from being installed as an app ([] = installable).

    Lighthouse 12 no longer audits installability, so Chromium is asked (DevTools'
    Page.getInstallabilityErrors) in a profile of its own: a private one is never installable.
    """
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_function(SERVICE_WORKER_CONTROLS, timeout=LOAD_TIMEOUT_MS)
            cdp = context.new_cdp_session(page)
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            return [error["errorId"] for error in errors]
        finally:
            context.close()


def lighthouse_pages(base: str, chapter: str) -> dict[str, str]:
    return {"home": base, "chapter": chapter, "playground": base + "playground/"}


def measure_lighthouse(playwright, base: str, chapter: str) -> dict:
    """Lighthouse's figures of the three pages, and Chromium's installability of the site."""
    return {
        "installability_errors": installability_errors(playwright, base),
        "lighthouse": lighthouse_scores(lighthouse_pages(base, chapter)),
    }


def file_sizes(path: Path) -> dict:
    data = path.read_bytes()
    return {"raw": len(data), "gzip": len(gzip.compress(data, compresslevel=6))}


def report(results: dict) -> None:
    start, first, sizes = results["start_up"], results["first_output"], results["sizes"]
    load = ", ".join(f"{value:.1f}" for value in results["load_average"])
    print(f"load average {load} on {os.cpu_count()} cores\n")
    print("Navigation → Python ready (ms since navigation, warm cache + service worker):")
    labels = {"site": "site (snapshot)", "site_first_boot": "site (first boot)", "bare": "bare loadPyodide"}
    for name, label in labels.items():
        median, fastest = start["warm_median_ms"][name], start["warm_min_ms"][name]
        print(f"  {label:18}: median {median:>6.0f}   fastest {fastest:>6}   runs {start['warm_ms'][name]}")
    print(f"  overhead of the site over bare loadPyodide: {start['warm_overhead']:+.1%}  (target ≤ +15 %)")
    print(f"  … on a browser's first boot (no snapshot yet): {start['warm_first_boot_overhead']:+.1%}")
    print(f"  instant navigation to the next chapter → ready: {start['instant_navigation_ms']} ms")
    print(f"\nClick Run → first output of print(1): median {first['median_ms']} ms, "
          f"max {first['max_ms']} ms  (target ≤ 100 ms)  runs {first['ms']}")  # fmt: skip
    print("\nJS + CSS of a runnable page, Pyodide excluded (bytes raw / gzip -6):")
    for path, size in sizes["page_loads"].items():
        print(f"  {path:60} {size['raw']:>9,} {size['gzip']:>9,}")
    total = sizes["total"]
    print(f"  {'total':60} {total['raw']:>9,} {total['gzip']:>9,}  (target ≤ 300 KB gzip)")
    for path, size in sizes["loaded_on_first_graph"].items():
        print(f"  loaded on the first graph: {path} {size['raw']:,} / {size['gzip']:,}")
    print("\nFirst visit (fresh profile), navigation → ready, median:")
    for name, engine in {"chromium": start, **results["engines"]}.items():
        if "missing" in engine:
            print(f"  {name:9}: not measured: {engine['missing']}")
            continue
        median, runs = engine["cold_median_ms"], engine["cold_ms"]
        print(f"  {name:9}: site {median['site']:>6.0f} ms, bare {median['bare']:>6.0f} ms, "
              f"overhead {engine['cold_overhead']:+.1%}  (target ≤ +15 %)  runs {runs}")  # fmt: skip
        worker_cost, page_adds = engine["cold_worker_cost"], engine["cold_overhead_over_worker"]
        print(f"  {'':9}  bare in a worker {median['bare_worker']:>6.0f} ms "
              f"({worker_cost:+.1%} for the worker): the page adds {page_adds:+.1%}")  # fmt: skip
        page_cost, runtime_adds = engine["cold_page_cost"], engine["cold_runtime_overhead"]
        beside = median["bare_beside_page"]
        print(f"  {'':9}  that worker beside the chapter, runtime taken out, {beside:>6.0f} ms "
              f"({page_cost:+.1%} for the page): the runtime adds {runtime_adds:+.1%}")  # fmt: skip
    paint = results["first_paint"]
    medians = paint["median_ms"]
    print("\nFirst contentful paint of a chapter, first visit, median:")
    print(f"  with the runtime {medians['with_runtime']:.0f} ms, without {medians['without_runtime']:.0f} ms:"
          f" delayed by {paint['delay_ms']:.0f} ms  runs {paint['ms']}")  # fmt: skip
    report_lighthouse(results)


def report_lighthouse(results: dict) -> None:
    print(f"\nLighthouse (mobile), median of {LIGHTHOUSE_RUNS} runs, scores out of 100:")
    for name, scores in results["lighthouse"].items():
        print(f"  {name:10}: performance {scores['performance']:>3} (runs {scores['performance_runs']}), "
              f"accessibility {scores['accessibility']:>3}, best practices {scores['best-practices']:>3}, "
              f"SEO {scores['seo']:>3}, FCP {scores['first-contentful-paint_ms']} ms, "
              f"LCP {scores['largest-contentful-paint_ms']} ms, TBT {scores['total-blocking-time_ms']} ms, "
              f"CLS {scores['cumulative-layout-shift']}")  # fmt: skip
    errors = results["installability_errors"]
    print(f"  installable (Chromium): {'yes' if not errors else 'no: ' + ', '.join(errors)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cold-repeats", type=int, default=3, help="first visits of each page, per engine")
    parser.add_argument("--lighthouse-only", action="store_true", help="only Lighthouse and installability")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        site_dir = args.site or Path(scratch)
        if not args.site:
            build_site(site_dir)
        first, second = runnable_pages()[:2]
        chapter_html = (site_dir / page_url("", first) / "index.html").read_text(encoding="utf-8")
        stripped = without_runtime(chapter_html)
        stripped_path = f"/{page_url('', first)}without-runtime.html"  # beside it: the same relative links
        beside_path = f"/{page_url('', first)}bare-worker-beside.html"
        extra_pages = {**BARE_FILES, stripped_path: stripped, beside_path: bare_worker_beside(stripped)}
        # gzipped text, as any real host sends it: Lighthouse weighs what a reader downloads
        server = serve_site(site_dir, extra_pages=extra_pages, compress=True)
        base = f"http://127.0.0.1:{server.server_port}/"
        site_page = page_url(base, first)
        beside_page = base + beside_path.lstrip("/")
        next_page = page_url("", second)
        try:
            if args.lighthouse_only:
                with sync_playwright() as playwright:
                    lighthouse = measure_lighthouse(playwright, base, site_page)
                report_lighthouse(lighthouse)
                return
            with sync_playwright() as playwright:
                results = {"installability_errors": installability_errors(playwright, base)}
                browser = launch_chromium(playwright)
                results |= {
                    "page": site_page.removeprefix(base),
                    "start_up": measure_start_up(
                        browser, site_page, base, beside_page, next_page, args.repeats, args.cold_repeats
                    ),
                    "first_output": measure_first_output(browser, site_page, 2 * args.repeats),
                    "sizes": measure_sizes(browser, site_dir, site_page),
                    "first_paint": measure_first_paint(
                        browser, site_page, base + stripped_path.lstrip("/"), 2 * args.cold_repeats
                    ),
                }
                browser.close()
            results["engines"] = measure_cold_in_engines(site_page, base, beside_page, args.cold_repeats)
            results["lighthouse"] = lighthouse_scores(lighthouse_pages(base, site_page))
            results["load_average"] = os.getloadavg()
        finally:
            stop(server)
    report(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
