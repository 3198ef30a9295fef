"""The built site as a published copy is served: at a host's root, or under a sub-path, as a
GitHub project page is.

Shared by the offline tests of tests/browser (Chromium) and tests/engines (Firefox, WebKit).
"""

from __future__ import annotations

from pathlib import Path

from harness import StaticFiles, serve

SUB_PATH = "/scratchgrad/"
ROOT_PATH = "/"
OFFLINE_LINE = "[data-sg-offline]"
"""The footer's line that says whether the site is kept offline (web/offline/offline-status.js)."""


class PublishedFiles(StaticFiles):
    """The site under `path`; `folder["site"]` is the folder served, which a test may swap."""

    def __init__(self, *args: object, path: str, folder: dict, asked: list[str], **kwargs: object) -> None:
        self.site_path = path
        self.asked = asked
        super().__init__(*args, directory=str(folder["site"]), extra_pages={}, compress=False, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.asked.append(self.path)
        if not self.path.startswith(self.site_path):
            self.send_error(404)
        elif self.path.split("?")[0] == f"{self.site_path}sitemap.xml":  # as if built for this address
            own = f"<loc>http://127.0.0.1:{self.server.server_port}{self.site_path}"
            sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
            self._send(sitemap.replace("<loc>http://127.0.0.1:8000/", own).encode(), "application/xml")
        else:
            super().do_GET()

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path.removeprefix(self.site_path))


def serve_published(site: Path, path: str = SUB_PATH):
    """(server, address of the site, folder holder, request log): stop the server with harness.stop."""
    folder, asked = {"site": site}, []
    server = serve(PublishedFiles, path=path, folder=folder, asked=asked)
    return server, f"http://127.0.0.1:{server.server_port}{path}", folder, asked
