"""MkDocs hook: a stylesheet that a page does not use does not hold up the page's first paint.

Every page links every stylesheet: Material's instant navigation swaps a page's body, never its
``<head>``, so the next page the reader opens may need a sheet this one does not. But a
stylesheet link blocks rendering until the sheet arrives. So a sheet whose markup is absent from
the page is linked with ``media="print"`` and switched to ``all`` once loaded — fetched at low
priority, applied before any later page needs it, never in the way of this page's first paint.
Pages with a formula, an API reference entry or an exercise keep that sheet render-blocking:
without it they would first paint unstyled.
"""

from __future__ import annotations

import re

USED_WHEN = {
    "vendor/katex/katex.min.css": ('class="katex',),
    "assets/_mkdocstrings.css": ('class="doc ',),
    "stylesheets/exercises.css": ('class="sg-exercise', 'class="sg-engine'),
}
"""Each stylesheet that not every page uses → the markup that shows a page uses it."""

_LINK = re.compile(r'<link rel="stylesheet" href="(?P<href>[^"]+)">')


def deferred_link(href: str) -> str:
    """A link to `href` that loads without blocking the first paint, then applies to the page."""
    return f'<link rel="stylesheet" href="{href}" media="print" onload="this.media=\'all\'">'


def on_post_page(output: str, page, config) -> str:
    head_end = output.find("</head>")
    if head_end < 0:
        return output
    body = output[head_end:]

    def link(match: re.Match) -> str:
        href = match.group("href")
        markers = next((used for sheet, used in USED_WHEN.items() if href.endswith(sheet)), None)
        if markers is None or any(marker in body for marker in markers):
            return match.group(0)
        return deferred_link(href)

    return _LINK.sub(link, output[:head_end]) + body
