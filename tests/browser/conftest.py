"""Fixtures for the browser tests: the built site on 127.0.0.1, headless Chromium, and watchers.

The site is built once per session (tests/conftest.py, ``site_dir``) and served as a static
host serves it (harness.py, shared with benchmarks/browser_startup.py).

Two nets catch requests to other hosts (the site must work offline):
- every request of the test's browser context (pages, their workers, the service worker) is
  recorded, and any that does not go to 127.0.0.1 fails the test;
- Chromium runs with a proxy for everything but 127.0.0.1, which refuses and records every
  request. Chromium itself calls a few Google services in the background even with the flags
  below (component updates, account checks): those hosts are listed in BROWSER_OWN_HOSTS and
  written to test-artifacts/browser/browser-background-requests.txt; any other host fails.
Console errors and uncaught exceptions of any page or worker fail the test too.

Without ``/usr/bin/chromium`` (or Playwright) the tests skip; with ``CI=true`` they fail
(tests/missing_tools.py).
"""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from harness import CHROMIUM, launch_chromium, serve, serve_site, stop
from pages import ARTIFACTS

from missing_tools import missing

BROWSER_OWN_HOSTS = ("update.googleapis.com", "accounts.google.com", "clients2.google.com")
LOOPBACK = ("http://127.0.0.1:", "data:", "blob:")


class _RecordingProxy(http.server.BaseHTTPRequestHandler):
    """Refuses every proxied request (and CONNECT tunnel) and writes down where it went."""

    records: list[str]

    def _refuse(self) -> None:
        self.records.append(f"{self.command} {self.path}")
        self.send_error(403, "scratchgrad's browser tests allow no request to other hosts")

    def __getattr__(self, name: str):
        if name.startswith("do_"):  # do_GET, do_CONNECT, ...: whatever the method, refuse it
            return self._refuse
        raise AttributeError(name)

    def log_message(self, format: str, *args: object) -> None:
        pass


FIXTURE_PAGE = Path(__file__).with_name("runner-fixture.html")


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The site's address; it also serves runner-fixture.html at /runner-fixture.html."""
    server = serve_site(site_dir, extra_pages={"/runner-fixture.html": FIXTURE_PAGE.read_text()})
    yield f"http://127.0.0.1:{server.server_port}/"
    stop(server)


@dataclass
class OffsiteProxy:
    """The recording proxy: its port, and every request Chromium tried to send off this machine."""

    port: int
    requests: list[str]


@pytest.fixture(scope="session")
def offsite_proxy() -> Iterator[OffsiteProxy]:
    handler = type("Proxy", (_RecordingProxy,), {"records": []})
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


@dataclass
class PageWatch:
    """What the pages of one test (and their workers) did that a reader would count as broken."""

    errors: list[str] = field(default_factory=list)
    offsite: list[str] = field(default_factory=list)

    def attach(self, context) -> None:
        context.on("console", self._console)
        context.on("weberror", lambda error: self.errors.append(f"uncaught: {error.error}"))
        context.on("request", lambda request: self._request(request.url))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console.error: {message.text} ({message.location.get('url')})")

    def _request(self, url: str) -> None:
        if not url.startswith(LOOPBACK):
            self.offsite.append(url)


@pytest.fixture
def watch() -> PageWatch:
    return PageWatch()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "context_options(**options): extra options of the test's browser context"
    )


@pytest.fixture
def context(browser, watch: PageWatch, offsite_proxy: OffsiteProxy, request: pytest.FixtureRequest):
    """A fresh browser context (own storage and service workers); clean logs are asserted after.

    ``@pytest.mark.context_options(service_workers="block")`` passes options to Playwright.
    """
    already_seen = len(offsite_proxy.requests)
    marker = request.node.get_closest_marker("context_options")
    options = marker.kwargs if marker else {}
    created = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
    watch.attach(created)
    yield created
    created.close()
    assert watch.errors == [], "a page or worker logged errors"
    assert watch.offsite == [], "the site requested other hosts"
    background = offsite_proxy.requests[already_seen:]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "browser-background-requests.txt").open("a") as log:
        log.writelines(f"{request}\n" for request in background)
    unexplained = [request for request in background if _host(request) not in BROWSER_OWN_HOSTS]
    assert unexplained == [], "Chromium sent requests to hosts other than its own services"


def _host(proxied_request: str) -> str:
    """The host of a proxy record: ``CONNECT host:443`` or ``GET http://host/path``."""
    target = proxied_request.split(" ", 1)[1]
    return urlsplit(target).hostname if "://" in target else target.rsplit(":", 1)[0]
