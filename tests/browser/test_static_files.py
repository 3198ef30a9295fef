"""The static server of harness.py: with `compress`, text goes out gzipped, as a real host sends it.

The benchmark serves the site this way so that Lighthouse weighs what a reader downloads; the
browser tests serve it plain. No browser needed: urllib asks as a browser would.
"""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from harness import serve_site, stop

CHAPTER = "<!doctype html><title>a chapter</title>" + "<p>the chain rule, again</p>" * 200


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "chapter").mkdir()
    (tmp_path / "chapter" / "index.html").write_text(CHAPTER, encoding="utf-8")
    (tmp_path / "site.css").write_text("p { margin: 0 }\n" * 100, encoding="utf-8")
    (tmp_path / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(4000))
    return tmp_path


def fetch(url: str, **headers: str):
    """(status, headers, body) of a GET; a 304 is an answer, not an error."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers, answer.read()


@pytest.fixture
def base(site: Path, request: pytest.FixtureRequest):
    server = serve_site(site, compress=request.param)
    yield f"http://127.0.0.1:{server.server_port}/"
    stop(server)


@pytest.mark.parametrize("base", [True], indirect=True)
def test_text_goes_out_gzipped_to_a_browser_that_accepts_it(base: str) -> None:
    status, headers, body = fetch(base + "chapter/", **{"Accept-Encoding": "gzip, deflate, br"})
    assert (status, headers["Content-Encoding"], headers["Content-Type"]) == (200, "gzip", "text/html")
    assert gzip.decompress(body).decode() == CHAPTER
    assert int(headers["Content-Length"]) == len(body) < len(CHAPTER)
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Last-Modified"]
    _, css_headers, _ = fetch(base + "site.css", **{"Accept-Encoding": "gzip"})
    assert css_headers["Content-Encoding"] == "gzip"


@pytest.mark.parametrize("base", [True], indirect=True)
def test_what_is_not_text_or_not_accepted_goes_out_as_it_is(base: str, site: Path) -> None:
    _, headers, body = fetch(base + "pyodide.asm.wasm", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] is None
    assert body == (site / "pyodide.asm.wasm").read_bytes()
    _, headers, body = fetch(base + "chapter/")
    assert headers["Content-Encoding"] is None
    assert body.decode() == CHAPTER


@pytest.mark.parametrize("base", [True], indirect=True)
def test_a_cached_copy_is_revalidated_with_304(base: str) -> None:
    _, headers, _ = fetch(base + "chapter/", **{"Accept-Encoding": "gzip"})
    status, _, body = fetch(
        base + "chapter/", **{"Accept-Encoding": "gzip", "If-Modified-Since": headers["Last-Modified"]}
    )
    assert (status, body) == (304, b"")


@pytest.mark.parametrize("base", [True], indirect=True)
def test_a_directory_without_its_slash_is_still_redirected(base: str) -> None:
    request = urllib.request.Request(base + "chapter", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:  # follows the redirect
        assert response.url == base + "chapter/"
        assert response.headers["Content-Encoding"] == "gzip"


@pytest.mark.parametrize("base", [False], indirect=True)
def test_without_compress_everything_goes_out_plain(base: str) -> None:
    _, headers, body = fetch(base + "chapter/", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] is None
    assert body.decode() == CHAPTER
