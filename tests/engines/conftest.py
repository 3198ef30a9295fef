"""Fixtures for the cross-engine tests: the built site on 127.0.0.1, and Firefox or WebKit on it.

Every test runs once per engine, each time in a fresh profile (no cache, no service worker yet),
and fails if the page logged an error (Firefox: console errors and uncaught exceptions; WebKit,
which has no console over WebDriver: the failures the page shows). The site is tests/conftest.py's
``site_dir`` (built once, or ``SCRATCHGRAD_SITE_DIR``); a missing engine follows
tests/missing_tools.py: a skip, or with ``CI=true`` a failure.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))  # the shared site harness

from harness import serve_site, stop

from engines import ENGINES, Engine, MissingEngineError
from missing_tools import missing


def pytest_configure(config: pytest.Config) -> None:
    # Selenium's own WebKitGTK driver still uses the address argument it deprecated (4.51).
    config.addinivalue_line(
        "filterwarnings", "ignore:setting remote_server_addr in RemoteConnection:DeprecationWarning"
    )


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    server = serve_site(site_dir)
    yield f"http://127.0.0.1:{server.server_port}/"
    stop(server)


@pytest.fixture(scope="session", params=sorted(ENGINES))
def running_engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    try:
        engine = ENGINES[request.param]()
    except MissingEngineError as error:
        missing(f"{error}: the engine tests cannot run")
    yield engine
    engine.close()


@pytest.fixture
def engine(running_engine: Engine) -> Iterator[Engine]:
    """The engine on a fresh profile; the test fails if a page logged or showed an error."""
    running_engine.fresh()
    yield running_engine
    assert running_engine.errors() == [], f"{running_engine.name}: a page logged or showed errors"
