"""MkDocs hook: what a published copy of the site needs beyond its pages.

It adds to the built site:

* ``manifest.webmanifest`` and ``icons/`` (hooks/app_icon.py) — the site can be installed as an
  app; every page links them from its ``<head>``, with the tab's SVG icon and a theme colour;
* ``_headers`` — read by Netlify and Cloudflare Pages: every response gets COOP ``same-origin``
  and COEP ``require-corp``, so pages are cross-origin isolated from the first one, with no
  round trip through the service worker (hosts that ignore the file, GitHub Pages among them,
  get isolation from the service worker as before);

The site's address is ``site_url`` (mkdocs.yml reads SCRATCHGRAD_SITE_URL; `make site` sets it).
"""

from __future__ import annotations

import json

import app_icon
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

HEADERS = """\
# Netlify and Cloudflare Pages read this file: cross-origin isolation for every page and worker,
# without the service worker's help (docs/publish.md).
/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
"""
MANIFEST = "manifest.webmanifest"
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
    return output.replace("</head>", links + "</head>", 1)
