"""hooks/stylesheets.py: a sheet a page does not use stops blocking its first paint, and still loads."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))

import stylesheets

HEAD = (
    "<html><head>"
    '<link rel="stylesheet" href="../assets/stylesheets/main.css">'
    '<link rel="stylesheet" href="../vendor/katex/katex.min.css">'
    '<link rel="stylesheet" href="../assets/_mkdocstrings.css">'
    '<link rel="stylesheet" href="../stylesheets/exercises.css">'
    "</head><body>{}</body></html>"
)


def links(html: str) -> dict[str, bool]:
    """href → True when the link blocks rendering (no media="print")."""
    head = html[: html.index("</head>")]
    return {
        part.split('href="')[1].split('"')[0]: 'media="print"' not in part for part in head.split("<link")[1:]
    }


def test_a_page_of_prose_defers_every_optional_sheet_but_keeps_the_theme_blocking():
    out = links(stylesheets.on_post_page(HEAD.format("<p>Words.</p>"), None, None))
    assert out == {
        "../assets/stylesheets/main.css": True,
        "../vendor/katex/katex.min.css": False,
        "../assets/_mkdocstrings.css": False,
        "../stylesheets/exercises.css": False,
    }


def test_a_page_keeps_blocking_the_sheets_its_markup_uses():
    body = '<span class="katex">x</span><section class="sg-exercise" data-sg-exercise="slope"></section>'
    out = links(stylesheets.on_post_page(HEAD.format(body), None, None))
    assert out["../vendor/katex/katex.min.css"] is True
    assert out["../stylesheets/exercises.css"] is True
    assert out["../assets/_mkdocstrings.css"] is False


def test_a_deferred_sheet_still_applies_once_loaded():
    link = stylesheets.deferred_link("../x.css")
    assert link == '<link rel="stylesheet" href="../x.css" media="print" onload="this.media=\'all\'">'


def test_markup_named_only_in_the_head_does_not_count():
    html = HEAD.replace("<head>", '<head><meta name="x" content=\'class="katex\'>').format("")
    assert links(stylesheets.on_post_page(html, None, None))["../vendor/katex/katex.min.css"] is False


def preloads(html: str) -> list[str]:
    head = html[: html.index("</head>")]
    return [
        part.split('href="')[1].split('"')[0] for part in head.split("<link")[1:] if 'rel="preload"' in part
    ]


def test_a_page_with_a_formula_preloads_the_katex_fonts_its_formulas_use():
    digits = '<span class="katex"><span class="mord">2</span></span>'
    variable = '<span class="katex"><span class="mord mathnormal">x</span></span>'
    assert preloads(stylesheets.on_post_page(HEAD.format(digits), None, None)) == [
        "../vendor/katex/fonts/KaTeX_Main-Regular.woff2"
    ]
    html = stylesheets.on_post_page(HEAD.format(variable), None, None)
    assert preloads(html) == [
        "../vendor/katex/fonts/KaTeX_Main-Regular.woff2",
        "../vendor/katex/fonts/KaTeX_Math-Italic.woff2",
    ]
    assert html.index('as="font" type="font/woff2" crossorigin') < html.index("katex.min.css")


def test_a_page_without_a_formula_preloads_no_font():
    assert preloads(stylesheets.on_post_page(HEAD.format("<p>Words.</p>"), None, None)) == []
