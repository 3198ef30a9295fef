"""The site as published and kept offline: served from a sub-path, read with the network cut, updated.

The site is served under /scratchgrad/, as a GitHub project page is, and from a host's root
(published.py). A fresh profile opens one page online; the service worker keeps the whole site
(web/service-worker/coi-serviceworker.js, the list from hooks/publish.py); then the server is
stopped, and every page still opens, a block runs, an exercise checks and the Playground trains;
the footer's "Turn off" then drops the copy. And a reader who has one build open meets the next
one published: told, and on their next page the new build, with their edits kept.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from harness import stop
from pages import (
    ARTIFACTS,
    LOAD_TIMEOUT_MS,
    SERVICE_WORKER_CONTROLS,
    block_result,
    editor_text,
    replace_code,
    run_block,
    wait_until_ready,
)
from published import OFFLINE_LINE, ROOT_PATH, SUB_PATH, serve_published
from test_exercises import press_check, type_code
from test_playground import SETTLED, play_until

from scratchgrad.exercises import by_id

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hooks"))
from publish import write_offline_list

KEPT = f'{OFFLINE_LINE}:has-text("Available offline")'
EXERCISE = "slope"
CHAPTER = f"{by_id(EXERCISE).chapter}/"  # a chapter with runnable blocks and an exercise
NEW_BUILD_MARK = '<meta name="sg-test-build" content="new">'
NOTICE = "A new version of this site is out"


def kept_offline(page) -> str:
    """Wait until the footer says the site is kept; returns what it says."""
    line = page.locator(KEPT)
    line.wait_for(timeout=LOAD_TIMEOUT_MS)
    return line.text_content()


@pytest.mark.fresh_context
@pytest.mark.parametrize("path", [SUB_PATH, ROOT_PATH])
def test_one_visit_online_then_every_page_opens_and_python_runs_offline(context, site_dir, path):
    server, base, _, _ = serve_published(site_dir, path)
    listing = json.loads((site_dir / "offline.json").read_text())
    page = context.new_page()
    page.goto(base)
    said = kept_offline(page)
    assert f"{round(listing['bytes'] / 1e6)} MB" in said
    if path == SUB_PATH:
        screenshots(page, page.locator(OFFLINE_LINE), "offline-state")
    stop(server)  # the network is cut: nothing answers at this address any more

    page.goto(base + CHAPTER)  # a full page load, from the kept copy
    assert page.evaluate("window.crossOriginIsolated")
    pages = [base + url for url, _, _ in listing["files"] if url.endswith("/")]
    assert len(pages) > 30
    opened = page.evaluate(
        """async (urls) => Promise.all(urls.map(async (url) => {
             const response = await fetch(url);
             const html = await response.text();
             return [url, response.status, /<h1[ >]/.test(html)];
           }))""",
        pages,
    )
    assert [(url, status, h1) for url, status, h1 in opened if status != 200 or not h1] == []
    wait_until_ready(page)
    run_block(page, 0)
    assert block_result(page, 0)["origin"] == "browser"
    type_code(page, EXERCISE, by_id(EXERCISE).solution)
    assert press_check(page, EXERCISE)["verdict"] == "pass"

    page.locator("a.md-footer__link--next").click()  # instant navigation, offline
    page.wait_for_function(f"!location.pathname.endsWith('/{CHAPTER}')", timeout=LOAD_TIMEOUT_MS)
    page.locator("h1").first.wait_for(timeout=LOAD_TIMEOUT_MS)

    page.goto(base + "playground/")
    page.wait_for_selector(SETTLED, timeout=LOAD_TIMEOUT_MS)
    play_until(page, 20)

    page.locator(OFFLINE_LINE).get_by_role("button", name="Turn off").click()  # the reader's way out
    page.locator(OFFLINE_LINE).get_by_text("Not kept for offline reading").wait_for()
    assert [name for name in page.evaluate("caches.keys()") if name.startswith("scratchgrad-site")] == []


@pytest.mark.fresh_context
def test_a_new_build_reaches_a_reader_who_has_the_old_one_with_their_edits_kept(context, site_dir, tmp_path):
    new_build = tmp_path / "new"
    shutil.copytree(site_dir, new_build, copy_function=os.link)  # hard links: no 30 MB copy
    for changed in (new_build / "index.html", new_build / CHAPTER / "index.html"):
        html = changed.read_text(encoding="utf-8")
        changed.unlink()  # not the hard-linked file of the old build
        changed.write_text(html.replace("</head>", NEW_BUILD_MARK + "</head>", 1), encoding="utf-8")
    (new_build / "offline.json").unlink()
    new_listing = write_offline_list(new_build)

    server, base, folder, asked = serve_published(site_dir)
    try:
        page = context.new_page()
        page.goto(base + CHAPTER)
        page.wait_for_function(SERVICE_WORKER_CONTROLS, timeout=LOAD_TIMEOUT_MS)
        page.reload()  # isolated from now on: the next links are instant navigations in this page
        kept_offline(page)
        wait_until_ready(page)
        replace_code(page, 0, "print('my own edit')")

        folder["site"] = new_build  # a new build is published
        asked.clear()
        page.locator("a.md-footer__link--next").click()  # instant navigation: this page's build stays
        notice = page.get_by_role("status").filter(has_text=NOTICE)
        notice.wait_for(timeout=LOAD_TIMEOUT_MS)
        screenshots(page, notice, "update-notice")
        kept_offline(page)
        page.wait_for_function(
            "v => caches.keys().then((names) => names.some((name) => name.endsWith(' ' + v)))",
            arg=new_listing["version"],
            timeout=LOAD_TIMEOUT_MS,
        )
        downloaded = {path.split("?")[0].removeprefix(SUB_PATH) for path in asked}
        assert {"", CHAPTER} <= downloaded  # the changed pages came from the network...
        assert "pyodide/pyodide.asm.wasm" not in downloaded  # ...the unchanged files from the old copy

        page.locator("a.md-footer__link--prev").click()  # back to the chapter: a full load, the new build
        page.wait_for_url(base + CHAPTER)
        assert NEW_BUILD_MARK in page.content()
        wait_until_ready(page)
        assert editor_text(page, 0) == "print('my own edit')"
        assert page.get_by_role("status").filter(has_text=NOTICE).count() == 0
        page.close()  # before the server stops: Chromium fetches a page's icon past the service worker
    finally:
        stop(server)


def screenshots(page, element, name: str) -> None:
    """`element` in light and dark at desktop width, and on a phone, into test-artifacts/browser/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme, theme in (("slate", "dark"), ("default", "light")):
        page.evaluate("scheme => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
        element.scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / f"{name}-{theme}.png")
    page.set_viewport_size({"width": 390, "height": 844})
    element.scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / f"{name}-light-phone.png")
    page.set_viewport_size({"width": 1280, "height": 900})
