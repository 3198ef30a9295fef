"""Fixtures for the browser tests: the built site on 127.0.0.1, headless Chromium, and watchers.

The site is built once per session (tests/conftest.py, ``site_dir``) and served as a static
host serves it (harness.py, shared with benchmarks/browser_startup.py).

Every test's pages are watched (page_watch.py): an error logged by a page or worker, or a request
to another host, fails the test.

Contexts: most tests open their pages in ``context``, the session's one **returning reader**:
its service worker is active and its Pyodide snapshot saved before the first test (so a page
loads cross-origin isolated and Python boots from the snapshot, as on any visit after a reader's
first page), and Chromium's caches stay warm. A fresh profile costs a first page's worth of work
on every test (registering the service worker, the reload, Python from its files, compiling its
WebAssembly): about three times as long as a returning page. Each test still gets its own pages
and storage: when it ends, its pages are closed and the site's local storage, IndexedDB and
cookies are cleared (not its Cache Storage, where the snapshot lives, nor the service worker).
The shared context refuses what would outlive the test (routes, init scripts, listeners,
permissions): a test that needs those, or a first visit, is marked
``@pytest.mark.fresh_context(**options)`` and gets a new, empty context of its own, with those
Playwright options (``fresh_context(service_workers="block")``). A module whose tests only read
a page can open it once in a module-scoped fixture on ``returning_reader`` and wrap each test in
``page_watch.watching``.

Without ``/usr/bin/chromium`` (or Playwright) the tests skip; with ``CI=true`` they fail
(tests/missing_tools.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import CHROMIUM, launch_chromium, serve, serve_site, stop
from page_watch import OffsiteProxy, PageWatch, RecordingProxy, watching
from pages import open_page, page_url, runnable_pages, wait_for_one_snapshot

from missing_tools import missing

FIXTURE_PAGE = Path(__file__).with_name("runner-fixture.html")


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The site's address; it also serves runner-fixture.html at /runner-fixture.html."""
    server = serve_site(site_dir, extra_pages={"/runner-fixture.html": FIXTURE_PAGE.read_text()})
    yield f"http://127.0.0.1:{server.server_port}/"
    stop(server)


@pytest.fixture(scope="session")
def offsite_proxy() -> Iterator[OffsiteProxy]:
    handler = type("Proxy", (RecordingProxy,), {"records": []})
    server = serve(handler)
    yield OffsiteProxy(server.server_port, handler.records)
    stop(server)


@pytest.fixture(scope="session")
def browser(offsite_proxy: OffsiteProxy):
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is not installed (apt-get install chromium): the browser tests cannot run")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Python Playwright is not installed (pip install playwright): the browser tests cannot run")
    with sync_playwright() as playwright:
        launched = launch_chromium(
            playwright, proxy={"server": f"http://127.0.0.1:{offsite_proxy.port}", "bypass": "127.0.0.1"}
        )
        yield launched
        launched.close()


@pytest.fixture
def watch() -> PageWatch:
    return PageWatch()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "fresh_context(**options): the test's `context` is a new, empty one (a first visit) with these "
        "Playwright options, instead of the session's returning reader",
    )


VIEWPORT = {"width": 1280, "height": 900}
CLEARED_BETWEEN_TESTS = "cookies,indexeddb,local_storage,websql,file_systems"
"""What a test in the shared context leaves behind and the next one must not see (CDP's
Storage.clearDataForOrigin names): everything but cache_storage (the Pyodide snapshot) and
service_workers (what makes the reader a returning one)."""


@pytest.fixture(scope="session")
def returning_reader(browser, site_url: str, offsite_proxy: OffsiteProxy):
    """The session's shared context: a reader who has been here before (service worker active,
    Pyodide snapshot saved), made so by opening the first chapter once."""
    created = browser.new_context(viewport=VIEWPORT)
    with watching(created, offsite_proxy):
        first = open_page(created, page_url(site_url, runnable_pages()[0]))
        wait_for_one_snapshot(first)
        first.close()
    yield created
    created.close()


class SharedContext:
    """The returning reader as a test sees it: pages yes, lasting changes no (see the module's doc)."""

    OUTLIVE_THE_TEST = frozenset({
        "add_cookies", "add_init_script", "clear_cookies", "clear_permissions", "close",
        "expose_binding", "expose_function", "grant_permissions", "on", "once", "route",
        "route_from_har", "route_web_socket", "set_default_navigation_timeout", "set_default_timeout",
        "set_extra_http_headers", "set_geolocation", "set_offline", "unroute", "unroute_all",
    })  # fmt: skip

    def __init__(self, context) -> None:
        self._context = context

    def __getattr__(self, name: str):
        if name in self.OUTLIVE_THE_TEST:
            raise RuntimeError(
                f"context.{name}() would outlive this test in the shared context: "
                "mark the test @pytest.mark.fresh_context"
            )
        return getattr(self._context, name)


@pytest.fixture
def context(
    browser, watch: PageWatch, offsite_proxy: OffsiteProxy, site_url: str, request: pytest.FixtureRequest
):
    """The returning reader (shared), or with ``@pytest.mark.fresh_context(**options)`` a new,
    empty context; either way the test's pages must log no error and request no other host."""
    marker = request.node.get_closest_marker("fresh_context")
    if marker:
        used = browser.new_context(**{"viewport": VIEWPORT, **marker.kwargs})
    else:
        used = request.getfixturevalue("returning_reader")
    try:
        with watching(used, offsite_proxy, watch):
            yield used if marker else SharedContext(used)
            for page in used.pages:
                page.close()
    finally:
        if marker:
            used.close()
        else:
            forget_the_tests_storage(used, site_url)


def forget_the_tests_storage(context, site_url: str) -> None:
    """Clear what a test stored for the site (CLEARED_BETWEEN_TESTS), through a blank page's CDP session."""
    blank = context.new_page()
    cdp = context.new_cdp_session(blank)
    try:
        origin = site_url.rstrip("/")
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": CLEARED_BETWEEN_TESTS})
    finally:
        cdp.detach()
        blank.close()
