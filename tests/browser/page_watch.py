"""What the browser tests watch for in every context: errors a reader would see, requests that leave
this machine (the site must work offline).

Two nets catch requests to other hosts:
- every request of the watched browser context (pages, their workers, the service worker) is
  recorded, and any that does not go to 127.0.0.1 fails the test;
- Chromium runs with a proxy for everything but 127.0.0.1 (`RecordingProxy`), which refuses and
  records every request. Chromium itself calls a few Google services in the background even with
  harness.CHROMIUM_ARGS (component updates, account checks): those hosts are listed in
  BROWSER_OWN_HOSTS and written to test-artifacts/browser/browser-background-requests.txt; any
  other host fails.
Console errors and uncaught exceptions of any page or worker fail the test too.

`watching(context, proxy)` does all three around a block of a test; conftest.py's `context`
fixture uses it for every test, and a module that keeps a context of its own wraps each test in it.
"""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from pages import ARTIFACTS

BROWSER_OWN_HOSTS = ("update.googleapis.com", "accounts.google.com", "clients2.google.com")
LOOPBACK = ("http://127.0.0.1:", "data:", "blob:")


class RecordingProxy(http.server.BaseHTTPRequestHandler):
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


@dataclass
class OffsiteProxy:
    """The recording proxy: its port, and every request Chromium tried to send off this machine."""

    port: int
    requests: list[str]


@dataclass
class PageWatch:
    """What the pages of one test (and their workers) did that a reader would count as broken."""

    errors: list[str] = field(default_factory=list)
    offsite: list[str] = field(default_factory=list)

    def attach(self, context) -> None:
        for event, listener in self._listeners():
            context.on(event, listener)

    def detach(self, context) -> None:
        """Stop watching `context` (a shared one goes on to the next test's watch)."""
        for event, listener in self._listeners():
            context.remove_listener(event, listener)

    def _listeners(self):
        return [("console", self._console), ("weberror", self._uncaught), ("request", self._request)]

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console.error: {message.text} ({message.location.get('url')})")

    def _uncaught(self, error) -> None:
        self.errors.append(f"uncaught: {error.error}")

    def _request(self, request) -> None:
        if not request.url.startswith(LOOPBACK):
            self.offsite.append(request.url)


@contextmanager
def watching(context, offsite_proxy: OffsiteProxy, watch: PageWatch | None = None) -> Iterator[PageWatch]:
    """Watch `context` for the block's duration, then assert its pages were clean and stayed here."""
    watch = watch or PageWatch()
    already_seen = len(offsite_proxy.requests)
    watch.attach(context)
    try:
        yield watch
    finally:
        watch.detach(context)
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
