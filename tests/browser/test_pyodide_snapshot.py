"""Pyodide boots from the memory snapshot saved on the browser's first visit (web/worker/pyodide-snapshot.js).

The first boot in a browser runs CPython's start-up and saves the WebAssembly memory to Cache
Storage; later page loads restore it. These tests look at the cache from the page, reload, and
read how the worker booted (``scratchgrad.runtime.info.bootedFrom``). Where there is no Cache
Storage at all (a page served over plain http from another machine), Pyodide boots from its
files every time: test_load_scratchgrad.py runs the loader in Node, which has none.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from pages import (
    SAVED_SNAPSHOTS,
    SNAPSHOT_CACHE,
    booted_from,
    forget_snapshots,
    open_page,
    page_url,
    run_code,
    runnable_pages,
    wait_for_one_snapshot,
    wait_until_ready,
)

from docs_pages import ROOT

FIRST_PAGE = runnable_pages()[0]
PYODIDE_VERSION = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
TRUNCATE = f"""
async (url) => {{
  const cache = await caches.open("{SNAPSHOT_CACHE}");
  const bytes = await (await cache.match(url)).arrayBuffer();
  await cache.put(url, new Response(bytes.slice(0, bytes.byteLength / 2)));
}}
"""
# Reads the package and a module the start-up never imports, so the wheel's files must be there.
USES_THE_PACKAGE = (
    "import scratchgrad.stages.closures as closures\n"
    "from scratchgrad import Value\n"
    "print(Value(2.0) * 3, closures.__name__)\n"
)


def reload(page) -> None:
    page.reload()
    wait_until_ready(page)


@pytest.mark.fresh_context
def test_the_first_boot_saves_a_snapshot_and_the_next_load_restores_it(context, site_url):
    page = open_page(context, page_url(site_url, FIRST_PAGE))
    wait_for_one_snapshot(page)
    forget_snapshots(page)
    reload(page)
    assert booted_from(page) == "files"
    saved = wait_for_one_snapshot(page)
    key = urlsplit(saved["url"])
    assert key.path == "/pyodide/booted-pyodide.snapshot"
    names = parse_qs(key.query)  # what the snapshot belongs to: one Pyodide, one lock file
    assert names["pyodide"] == [PYODIDE_VERSION]
    assert names["indexURL"] == [f"{site_url}pyodide/"]
    assert names["lockFileURL"][0].startswith(f"{site_url}pyodide/pyodide-lock.json?build=")

    reload(page)
    assert booted_from(page) == "snapshot"
    printed = run_code(page, USES_THE_PACKAGE)["printed"]
    assert printed == "Value(data=6.0000, grad=0.0000) scratchgrad.stages.closures\n"
    assert page.evaluate(SAVED_SNAPSHOTS) == [saved], "a restore must not save another snapshot"


@pytest.mark.fresh_context
def test_a_broken_snapshot_is_dropped_and_python_boots_from_its_files(context, site_url):
    page = open_page(context, page_url(site_url, FIRST_PAGE))
    saved = wait_for_one_snapshot(page)
    page.evaluate(TRUNCATE, saved["url"])
    warnings = []
    context.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    reload(page)
    assert booted_from(page) == "files"
    assert any("snapshot did not restore" in warning for warning in warnings), warnings
    assert run_code(page, USES_THE_PACKAGE)["error"] is None
    assert wait_for_one_snapshot(page)["url"] == saved["url"]  # a good one replaced the broken one
