"""Material's search on this site (web/search/): its index waits for the page's Python, never for the reader.

Each test keeps the page's Python loading by holding back its standard library (the routes
are continued by the test), and watches for Material's own search worker, which the site's
search worker fetches only once search may start.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from pages import WITHOUT_ISOLATION, page_url, runnable_pages, wait_until_ready

pytestmark = pytest.mark.fresh_context  # routes and listeners on the context; Python booting from its files

FIRST_PAGE = runnable_pages()[0]
PAGE_WITHOUT_PYTHON = "about.md"
MATERIAL_SEARCH_WORKER = re.compile(r"/assets/javascripts/workers/search\.[0-9a-f]+\.min\.js$")
SEARCH_BOX = "[data-md-component=search-query]"
SEARCH_RESULTS = ".md-search-result__item"
QUIET_MS = 1000
"""How long a test watches for Material's worker not being fetched: a worker that did not wait
is fetched as soon as the page's script runs, well within this."""


def hold_python_back(context) -> list:
    """Python's standard library is not served until the test continues the routes this returns."""
    held = []
    context.route("**/pyodide/python_stdlib.zip", lambda route: held.append(route))
    return held


def material_search_fetches(context) -> list[str]:
    """The addresses of Material's own search worker as it is fetched, from now on."""
    fetched = []
    context.on(
        "request",
        lambda request: (
            fetched.append(request.url) if MATERIAL_SEARCH_WORKER.search(urlsplit(request.url).path) else None
        ),
    )
    return fetched


def open_with_python_held(context, site_url, held) -> object:
    """A chapter whose Python is loading and waiting for its standard library; search's index fetched."""
    page = context.new_page()
    with page.expect_request_finished(lambda request: request.url.endswith("/search/search_index.json")):
        page.goto(page_url(site_url, FIRST_PAGE))
    while not held:
        page.wait_for_timeout(50)
    return page


def search_finds_something(page, query: str = "chain rule") -> None:
    page.click(SEARCH_BOX)
    page.locator(SEARCH_BOX).press_sequentially(query)  # Material searches on keyup
    page.wait_for_selector(SEARCH_RESULTS)


def test_search_builds_its_index_once_the_pages_python_is_ready(context, site_url):
    context.add_init_script(WITHOUT_ISOLATION)  # no service worker: the routes see the worker's requests
    held = hold_python_back(context)
    fetched = material_search_fetches(context)
    page = open_with_python_held(context, site_url, held)
    page.wait_for_timeout(QUIET_MS)
    assert fetched == [], "Material's search worker started while Python was loading"
    assert page.get_attribute(".sg-status", "data-status") == "loading"
    for route in held:
        route.continue_()
    wait_until_ready(page)
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__meta').textContent.includes('Initializing')"
    )
    assert len(fetched) == 1
    search_finds_something(page)


def test_the_reader_who_reaches_for_search_gets_it_while_python_loads(context, site_url):
    context.add_init_script(WITHOUT_ISOLATION)
    held = hold_python_back(context)
    fetched = material_search_fetches(context)
    page = open_with_python_held(context, site_url, held)
    search_finds_something(page)
    assert len(fetched) == 1
    assert page.get_attribute(".sg-status", "data-status") == "loading", "Python was not held back"
    for route in held:
        route.continue_()
    wait_until_ready(page)  # nothing left loading when the context closes


def test_a_page_without_python_starts_search_at_once(context, site_url):
    fetched = material_search_fetches(context)
    page = context.new_page()
    page.goto(page_url(site_url, PAGE_WITHOUT_PYTHON))
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__meta').textContent.includes('Initializing')"
    )
    assert fetched, "Material's search worker was not fetched"
    assert page.locator(".sg-status").count() == 0
    search_finds_something(page)
