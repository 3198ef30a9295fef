"""MkDocs hook: what a published copy of the site needs beyond its pages.

It adds to the built site:

* ``manifest.webmanifest`` and ``icons/`` (hooks/helpers/app_icon.py) — the site can be installed as an
  app; every page links them from its ``<head>``, with the tab's SVG icon and a theme colour;
* ``_headers`` — read by Netlify and Cloudflare Pages: every response gets COOP ``same-origin``
  and COEP ``require-corp``, so pages are cross-origin isolated from the first one, with no
  round trip through the service worker (hosts that ignore the file, GitHub Pages among them,
  get isolation from the service worker as before);
* ``offline.json`` — every file a reader keeps for offline use, with its size and a digest, and
  the build's ``version`` (a digest of that list). The service worker
  (web/service-worker/coi-serviceworker.js) downloads the list's files into Cache Storage, and when
  a newer build's list has another version, it fetches what changed and tells the reader.
  ``mkdocs serve`` writes no list: a preview that is being edited is never served from a cache.

The site's address is ``site_url`` (mkdocs.yml reads SCRATCHGRAD_SITE_URL; `make site` sets it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from helpers import app_icon
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

HEADERS = """\
# Netlify and Cloudflare Pages read this file: cross-origin isolation for every page and worker,
# without the service worker's help (docs/publish.md).
/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
"""
OFFLINE_LIST = "offline.json"
NOT_KEPT_OFFLINE = (
    "*.map",  # source maps: only for a developer's tools
    "_headers",
    OFFLINE_LIST,
    "sitemap.xml.gz",
    "icons/icon-512.png",  # for the launcher's splash screen, fetched when the app is installed
)
MANIFEST = "manifest.webmanifest"
_serving = False


def on_startup(command: str, dirty: bool) -> None:
    global _serving
    _serving = command == "serve"


def on_files(files: Files, config) -> Files:
    """The manifest, the icons and ``_headers``."""
    files.append(File.generated(config, "_headers", content=HEADERS))
    files.append(File.generated(config, "icons/icon.svg", content=app_icon.svg()))
    for size in app_icon.PNG_SIZES:
        files.append(File.generated(config, f"icons/icon-{size}.png", content=app_icon.png(size)))
    files.append(File.generated(config, MANIFEST, content=manifest(config)))
    return files


def manifest(config) -> str:
    """The web app manifest; its addresses are relative to it, so it works from any sub-path."""
    icons = [{"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    for size in app_icon.PNG_SIZES:
        icon = {"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"}
        icons += [icon, {**icon, "purpose": "maskable"}]
    return json.dumps(
        {
            "name": config.site_name,
            "short_name": config.site_name,
            "description": config.site_description,
            "id": "./",
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": app_icon.BACKGROUND,
            "icons": icons,
        },
        indent=2,
    )


def on_post_page(output: str, page, config) -> str:
    """Link the manifest, the launcher's icon and the theme colour from the page's ``<head>``.

    (The tab's icon is Material's favicon link: mkdocs.yml names icons/icon.svg.)
    """
    links = (
        f'<link rel="manifest" href="{get_relative_url(MANIFEST, page.url)}">'
        f'<meta name="theme-color" content="{app_icon.BACKGROUND}">'
        f'<link rel="apple-touch-icon" href="{get_relative_url("icons/icon-192.png", page.url)}">'
    )
    output = output.replace("</head>", links + "</head>", 1)
    # The footer's line "Available offline · 28 MB" (web/offline/offline-status.js fills it in).
    footer = '<div class="md-footer-meta__inner md-grid">'
    output = output.replace(footer, footer + '<div class="sg-offline" data-sg-offline></div>', 1)
    return output


def on_post_build(config) -> None:
    if not _serving:
        write_offline_list(Path(config.site_dir))


def write_offline_list(site_dir: Path) -> dict:
    """Write ``offline.json``: {version, bytes, files: [[url, bytes, digest], …]}; returns it.

    A page's url is its folder (``chapter/``, ``./`` for the home page): the address a reader
    opens it by. A file's digest lets a reader's browser keep the files a new build did not change.
    """
    files = []
    for path in sorted(site_dir.rglob("*")):
        relative = path.relative_to(site_dir).as_posix()
        if not path.is_file() or any(Path(relative).match(pattern) for pattern in NOT_KEPT_OFFLINE):
            continue
        content = path.read_bytes()
        files.append([address(relative), len(content), hashlib.sha256(content).hexdigest()[:16]])
    version = hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16]
    listing = {"version": version, "bytes": sum(size for _, size, _ in files), "files": files}
    (site_dir / OFFLINE_LIST).write_text(json.dumps(listing, separators=(",", ":")))
    return listing


def address(relative: str) -> str:
    """The address a reader opens a file by, relative to the site: a page's is its folder."""
    if relative == "index.html" or relative.endswith("/index.html"):
        return relative.removesuffix("index.html") or "./"
    return relative
