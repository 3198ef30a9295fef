"""The built site on 127.0.0.1 and the Chromium to open it: shared by tests/browser and
benchmarks/browser_startup.py, so both measure the same thing the same way.

The site is served by a plain static file server, as a reader's host would serve it: no
COOP/COEP headers, so cross-origin isolation comes from the site's own service worker. The
benchmark's also gzips text, as real hosts do (StaticFiles, `compress`).
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import http.server
import mimetypes
import re
import sys
import threading
from pathlib import Path

import docs_pages

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Quieter background traffic (what remains is Chromium's own, see conftest.BROWSER_OWN_HOSTS).
    "--disable-features=AutofillServerCommunication,OptimizationHints,Translate,MediaRouter,"
    "NetworkTimeServiceQuerying",
]


def build_site(out: Path) -> None:
    """`mkdocs build --strict` into `out`; a failed build raises with MkDocs' own output."""
    result = docs_pages.build_site(out)
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    """The built site, as a static host serves it (no COOP/COEP headers).

    One liberty: the site is built for its ``site_url`` (port 8000), and Material's instant
    navigation only follows links to the host and port its sitemap names. This server answers
    on another port, so it serves sitemap.xml with its own address, as if deployed there.
    `extra_pages` ({path: text}) adds files that are not part of the site (a benchmark's bare
    Pyodide page). With `compress`, text files (HTML, CSS, JavaScript, JSON, XML, SVG) go out
    gzipped to a browser that accepts it, as every real static host sends them: the benchmark
    serves the site so, so that Lighthouse weighs what a reader downloads. Pyodide's WebAssembly
    and zip files, and the wheel, go out as they are.
    """

    def __init__(self, *args: object, extra_pages: dict[str, str], compress: bool, **kwargs: object) -> None:
        self.extra_pages = extra_pages
        self.compress = compress
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path in self.extra_pages:
            content_type = mimetypes.guess_type(path)[0] or "text/html"
            self._send(self.extra_pages[path].encode(), f"{content_type}; charset=utf-8")
        elif path == "/sitemap.xml":
            own_address = f"<loc>http://127.0.0.1:{self.server.server_port}/"
            sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
            self._send(re.sub(r"<loc>https?://[^/]+/", own_address, sitemap).encode(), "application/xml")
        elif not self._sent_compressed():
            super().do_GET()

    def _sent_compressed(self) -> bool:
        """Answer with the gzipped file, or 304, if compressing applies; otherwise send nothing."""
        if not (self.compress and "gzip" in self.headers.get("Accept-Encoding", "")):
            return False
        path = self.requested_file()
        if path is None:
            return False
        content_type = self.guess_type(str(path))
        if not content_type.startswith(COMPRESSIBLE):
            return False
        modified = int(path.stat().st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since and email.utils.parsedate_to_datetime(since).timestamp() >= modified:
            self.send_response(304)
            self.end_headers()
            return True
        headers = {"Content-Encoding": "gzip", "Last-Modified": self.date_time_string(modified)}
        self._send(gzipped(path, modified), content_type, {**headers, "Vary": "Accept-Encoding"})
        return True

    def requested_file(self) -> Path | None:
        """The file of the site this GET names (a directory's index.html), or None if none."""
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"  # a directory without its slash: the parent class redirects
        return path if path.is_file() else None

    def _send(self, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_ok_headers(len(body), content_type, headers)
        self.wfile.write(body)

    def send_ok_headers(self, length: int, content_type: str, headers: dict[str, str] | None = None) -> None:
        """Status 200 and the headers of a `length`-byte body; the caller writes the body."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # the callers report what matters


COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/xml", "image/svg+xml")


@functools.cache
def gzipped(path: Path, modified: int) -> bytes:
    """The file at `path` (as last modified at `modified`) gzipped at level 6, made once."""
    return gzip.compress(path.read_bytes(), compresslevel=6)


class QuietServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that does not print a traceback when the browser hangs up.

    Browsers abort requests as a matter of course (a page left or reloaded while it loads; a test
    closes its page): the socket errors that follow are no failure.
    """

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(handler: type, **kwargs: object) -> http.server.ThreadingHTTPServer:
    """Start `handler` on 127.0.0.1 (a free port) in a daemon thread; stop it with stop()."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, **kwargs))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve_site(
    site_dir: Path, extra_pages: dict[str, str] | None = None, compress: bool = False
) -> http.server.ThreadingHTTPServer:
    return serve(StaticFiles, directory=str(site_dir), extra_pages=extra_pages or {}, compress=compress)


def stop(server: http.server.ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()


def launch_chromium(playwright, **options: object):
    """Headless /usr/bin/chromium with the flags that keep it quiet and offline-friendly."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, **options
    )
