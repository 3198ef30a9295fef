"""web/worker/python-worker.js: Python starts loading as soon as the worker runs.

The page's "start" request reaches a worker only when the page's main thread hands it over, and
on a reader's first visit that thread is busy with the chapter (parsing, styles, Material): in
Chromium it came 48 ms to 2.5 s after the worker ran (10 cold visits, median ~100 ms). So the worker
does not wait for the request: it boots from the files the site keeps beside it, and the request
adopts that boot. Here the request comes `REQUEST_AFTER_MS` after the worker is created: the boot
must already be under way, so the answer comes sooner after the request than the boot took.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REQUEST_AFTER_MS = 2000
PROBE = "worker-probe.html"
PROBE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>the Python worker, asked late to start</title>
<script type="module">
  const worker = new Worker(new URL("javascripts/python-worker.js", location.href), { type: "module" });
  const answered = new Promise((resolve) => {
    worker.onmessage = ({ data }) => data.id === 1 && resolve(data);
  });
  await new Promise((resolve) => setTimeout(resolve, REQUEST_AFTER_MS));
  const sentAt = performance.now();
  worker.postMessage({ id: 1, type: "start", indexURL: new URL("pyodide/", location.href).href,
                       lockFileURL: new URL("pyodide/pyodide-lock.json?build=BUILD", location.href).href,
                       sharedInterruptBuffer: null });
  const answer = await answered;
  window.probe = { ...answer, sinceRequest: performance.now() - sentAt };
</script>
"""


def build_id(site_dir: Path) -> str:
    """The build of the runtime, as the runner names its lock file."""
    runner = (site_dir / "javascripts" / "runner.js").read_text(encoding="utf-8")
    return re.search(r"pyodide-lock\.json\?build=(\w+)", runner).group(1)


@pytest.mark.timing
@pytest.mark.fresh_context
def test_python_boots_before_the_page_asks_it_to_start(context, site_url, site_dir):
    probe = PROBE_PAGE.replace("REQUEST_AFTER_MS", str(REQUEST_AFTER_MS)).replace("BUILD", build_id(site_dir))
    page = context.new_page()
    page.route(f"{site_url}{PROBE}", lambda route: route.fulfill(body=probe, content_type="text/html"))
    page.goto(f"{site_url}{PROBE}")
    page.wait_for_function("window.probe !== undefined", timeout=180_000)
    answer = page.evaluate("window.probe")
    assert answer["type"] == "done", answer
    assert answer["bootedFrom"] == "files"
    # startupMs counts from the start of the boot: had it waited for the request, the answer
    # would have come at least startupMs after the request.
    assert answer["sinceRequest"] < answer["startupMs"], answer
