"""The built site as a published copy is served: under a sub-path, as a GitHub project page is.

Shared by the offline tests of tests/browser (Chromium) and tests/engines (Firefox, WebKit).
"""

from __future__ import annotations

from pathlib import Path

from harness import StaticFiles, serve

SUB_PATH = "/scratchgrad/"
OFFLINE_LINE = "[data-sg-offline]"
"""The footer's line that says whether the site is kept offline (web/offline/offline-status.js)."""


class SubPathFiles(StaticFiles):
    """The site under SUB_PATH; `folder["site"]` is the folder served, which a test may swap."""

    def __init__(self, *args: object, folder: dict, asked: list[str], **kwargs: object) -> None:
        self.asked = asked
        super().__init__(*args, directory=str(folder["site"]), extra_pages={}, compress=False, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.asked.append(self.path)
        if not self.path.startswith(SUB_PATH):
            self.send_error(404)
        elif self.path.split("?")[0] == f"{SUB_PATH}sitemap.xml":  # as if built for this address
            own = f"<loc>http://127.0.0.1:{self.server.server_port}{SUB_PATH}"
            sitemap = Path(self.directory, "sitemap.xml").read_text(encoding="utf-8")
            self._send(sitemap.replace("<loc>http://127.0.0.1:8000/", own).encode(), "application/xml")
        else:
            super().do_GET()

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path.removeprefix(SUB_PATH))


def serve_under_sub_path(site: Path):
    """(server, address of the site, folder holder, request log): stop the server with harness.stop."""
    folder, asked = {"site": site}, []
    server = serve(SubPathFiles, folder=folder, asked=asked)
    return server, f"http://127.0.0.1:{server.server_port}{SUB_PATH}", folder, asked
