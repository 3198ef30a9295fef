"""MkDocs hook: a stylesheet that a page does not use does not hold up the page's first paint.

Every page links every stylesheet: Material's instant navigation swaps a page's body, never its
``<head>``, so the next page the reader opens may need a sheet this one does not. But a
stylesheet link blocks rendering until the sheet arrives. So a sheet whose markup is absent from
the page is linked with ``media="print"`` and switched to ``all`` once loaded — fetched at low
priority, applied before any later page needs it, never in the way of this page's first paint.
Pages with a formula, an API reference entry or an exercise keep that sheet render-blocking:
without it they would first paint unstyled.

A page with a formula also preloads KaTeX's two fonts that nearly every formula uses. A browser
asks for a web font only once a laid-out line needs it; until the font arrives, the formula's
line is laid out with a fallback font's taller metrics, then shrinks, and every line below it
moves (a layout shift, 0.05 on the home page). Preloaded, they arrive with the stylesheets.
"""

from __future__ import annotations

import re

USED_WHEN = {
    "vendor/katex/katex.min.css": ('class="katex',),
    "assets/_mkdocstrings.css": ('class="doc ',),
    "stylesheets/exercises.css": ('class="sg-exercise', 'class="sg-engine'),
}
"""Each stylesheet that not every page uses → the markup that shows a page uses it."""

KATEX_FONTS = {
    "KaTeX_Main-Regular": 'class="katex',  # the family of every formula's text, digits and operators
    "KaTeX_Math-Italic": 'class="mord mathnormal',  # a formula's variables
}
"""Each KaTeX font a page preloads → the markup that shows the page uses it."""

_AS_FONT = 'as="font" type="font/woff2" crossorigin'

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

    head = _LINK.sub(link, output[:head_end])
    katex = re.search(r'<link rel="stylesheet" href="(?P<base>[^"]*)vendor/katex/katex\.min\.css">', head)
    if katex:
        head = head.replace(katex.group(0), font_preloads(katex.group("base"), body) + katex.group(0))
    return head + body


def font_preloads(base: str, body: str) -> str:
    """Preload links for the KaTeX fonts that `body` uses (fonts are fetched in CORS mode)."""
    return "".join(
        f'<link rel="preload" href="{base}vendor/katex/fonts/{font}.woff2" {_AS_FONT}>'
        for font, marker in KATEX_FONTS.items()
        if marker in body
    )
