"""MkDocs hook: formulas typeset with KaTeX at build time, from the npm package (no CDN).

`pymdownx.arithmatex` (``generic: true``) leaves each formula as TeX inside
``<span class="arithmatex">\\(...\\)</span>`` or ``<div class="arithmatex">\\[...\\]</div>``.
This hook sends a page's formulas to KaTeX (``node hooks/helpers/katex_render.js``, one process for
the whole build, a line of JSON per page) and writes the HTML it returns in their place; only
KaTeX's stylesheet and fonts reach the reader. A formula KaTeX cannot parse fails the build and is
named in the error. In the table of
contents (plain text, in the side bar) a heading's formula is written as its bare TeX, without the
``\\(...\\)`` delimiters: "How small should h be?".

Each formula carries two copies: the HTML that is seen and, visually hidden, the MathML that
screen readers read. Firefox lays out the page while it is still parsing it, and a MathML
element cut off by a network chunk (an ``<msub>`` that has its base but not yet its subscript)
gets reported as "Invalid markup: Incorrect number of children" in the reader's console, although
the finished element is valid. So a page with formulas keeps the MathML copies out of layout
until it is parsed (`PARSE_GUARD`, at the top of ``<head>``); without JavaScript nothing is hidden.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from helpers import build_cache
from helpers.page_head import at_top_of_head
from helpers.step_times import step
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "node_modules" / "katex"
RENDERER = Path(__file__).with_name("helpers") / "katex_render.js"
SITE_DIR = "vendor/katex"

_FORMULA = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?P<open>\\\(|\\\[)(?P<tex>.*?)(?:\\\)|\\\])</(?P=tag)>',
    re.DOTALL,
)
_TOC_FORMULA = re.compile(r"\\\((.*?)\\\)")
_cache: dict[tuple[str, bool], str] = {}
_katex: subprocess.Popen | None = None  # the build's one `node` running katex_render.js

PARSE_GUARD = (
    "<style>.sg-parsing .katex-mathml{display:none}</style>"
    "<script>document.documentElement.classList.add('sg-parsing');"
    "addEventListener('DOMContentLoaded',()=>document.documentElement.classList.remove('sg-parsing'))"
    "</script>"
)
"""The MathML copies wait for the end of parsing. Before any stylesheet link: an inline script
after one would wait for that sheet and hold up the parser."""


def on_files(files, config):
    """Serve KaTeX's stylesheet and its woff2 fonts (every browser that runs the site reads woff2)."""
    dist = KATEX / "dist"
    if not (dist / "katex.min.css").is_file():
        raise PluginError(f"KaTeX not found at {dist}: run `npm ci` (make serve and make docs do)")
    files.append(
        File.generated(config, f"{SITE_DIR}/katex.min.css", abs_src_path=str(dist / "katex.min.css"))
    )
    for font in sorted((dist / "fonts").glob("*.woff2")):
        files.append(File.generated(config, f"{SITE_DIR}/fonts/{font.name}", abs_src_path=str(font)))
    return files


def on_page_content(html_text, page, config, files):
    _plain_toc_titles(page.toc)
    matches = list(_FORMULA.finditer(html_text))
    if not matches:
        return html_text
    wanted = [(html.unescape(m.group("tex")).strip(), m.group("open") == r"\[") for m in matches]
    render([key for key in dict.fromkeys(wanted) if key not in _cache], page.file.src_uri)
    pieces, last = [], 0
    for match, key in zip(matches, wanted, strict=True):
        pieces += [
            html_text[last : match.start()],
            f'<{match.group("tag")} class="arithmatex">{_cache[key]}</{match.group("tag")}>',
        ]
        last = match.end()
    pieces.append(html_text[last:])
    return "".join(pieces)


def on_post_page(output: str, page, config) -> str:
    """Give a page with formulas the `PARSE_GUARD`, right after its charset."""
    if 'class="katex"' not in output:
        return output
    return at_top_of_head(output, PARSE_GUARD)


def render(formulas: list[tuple[str, bool]], where: str) -> None:
    """Typeset (tex, display) pairs with KaTeX into the cache, or find them in the build's cache
    (`build_cache`: by TeX, KaTeX's version and the build's code); any parse error fails the build."""
    versions = (katex_version(), build_cache.build_code_digest())
    for tex, display in formulas:
        found = build_cache.load("formulas", build_cache.key(*versions, tex, display))
        if found is not None:
            _cache[tex, display] = found
    formulas = [formula for formula in formulas if formula not in _cache]
    if not formulas:
        return
    request = json.dumps([{"tex": tex, "display": display} for tex, display in formulas])
    with step("katex (node)", where):
        answers = typeset(request, where)
    for (tex, display), answer in zip(formulas, answers, strict=True):
        if "error" in answer:
            raise PluginError(f"{where}: KaTeX cannot typeset {tex!r}: {answer['error']}")
        _cache[tex, display] = answer["html"]
        build_cache.store("formulas", build_cache.key(*versions, tex, display), answer["html"])


def typeset(request: str, where: str) -> list[dict]:
    """KaTeX's answers to one line of formulas, from the build's `node` (started on first use)."""
    global _katex
    if _katex is None:
        node = shutil.which("node")
        if node is None:
            raise PluginError("hooks/formulas.py needs Node.js (`node`) to run KaTeX at build time")
        _katex = subprocess.Popen(
            [node, str(RENDERER), str(KATEX)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )  # fmt: skip
    try:
        _katex.stdin.write(request + "\n")
        _katex.stdin.flush()
        answer = _katex.stdout.readline()
    except OSError:
        answer = ""
    if not answer:
        raise PluginError(f"{where}: KaTeX failed to run: {stop_katex().strip()}")
    return json.loads(answer)


def stop_katex() -> str:
    """End the build's `node` (at the end of a build, or when it fails); what it wrote to stderr."""
    global _katex
    if _katex is None:
        return ""
    node, _katex = _katex, None
    try:
        _, errors = node.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        node.kill()
        _, errors = node.communicate()
    return errors or ""


def on_post_build(config) -> None:
    stop_katex()


def on_build_error(error) -> None:
    stop_katex()


def katex_version() -> str:
    return json.loads((KATEX / "package.json").read_text(encoding="utf-8"))["version"]


def _plain_toc_titles(items) -> None:
    for item in items:
        item.title = _TOC_FORMULA.sub(r"\1", item.title)
        _plain_toc_titles(item.children)
