"""Offline after one visit, in Firefox ESR and WebKit: the service worker keeps the site there too.

From a fresh profile, one chapter online until its footer says "Available offline"; then the
server stops, and the chapter opens in full from the kept copy, every page of the site still
answers it, and a block runs (web/service-worker/coi-serviceworker.js, web/offline/offline-status.js).
The site is served from its root here; Chromium's version of this test, from a sub-path and with
the exercise and the Playground, is tests/browser/test_offline.py.
"""

from __future__ import annotations

import json

from harness import serve_site, stop
from published import OFFLINE_LINE
from test_engines import LOAD_TIMEOUT_S, PAGE_SHOWN, run_block, wait_until_python_is_ready

CHAPTER = "derivatives/"
KEPT = f"document.querySelector('{OFFLINE_LINE}')?.textContent.includes('Available offline')"
FETCH_EVERY_PAGE = """(globalThis.sgOpened = null, Promise.all(%s.map(async (url) => {
  const response = await fetch(url);
  return [url, response.status, /<h1[ >]/.test(await response.text())];
})).then(
  (opened) => (globalThis.sgOpened = opened),
  (error) => (globalThis.sgOpened = String(error)),
), true)"""


def test_one_visit_online_then_the_site_opens_and_python_runs_offline(engine, site_dir):
    server = serve_site(site_dir)
    base = f"http://127.0.0.1:{server.server_port}/"
    engine.goto(base + CHAPTER)
    engine.wait_for(KEPT, LOAD_TIMEOUT_S, "the site kept offline")
    stop(server)  # the network is cut

    engine.goto(base + CHAPTER)  # a full page load, from the kept copy
    engine.wait_for(PAGE_SHOWN, LOAD_TIMEOUT_S, "the chapter, offline")
    listing = json.loads((site_dir / "offline.json").read_text())
    pages = [base + url for url, _, _ in listing["files"] if url.endswith("/")]
    engine.evaluate(FETCH_EVERY_PAGE % json.dumps(pages))
    engine.wait_for("globalThis.sgOpened !== null", LOAD_TIMEOUT_S, "every page fetched")
    opened = engine.evaluate("globalThis.sgOpened")
    assert isinstance(opened, list), f"{engine.name}: {opened}"
    assert [(url, status) for url, status, h1 in opened if status != 200 or not h1] == [], engine.name

    wait_until_python_is_ready(engine)
    ran = run_block(engine, 0)
    assert ran["origin"] == "browser", engine.name
    assert ran["error"] is None, f"{engine.name}: {ran['error']}"
