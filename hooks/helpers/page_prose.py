"""The prose of a rendered page as Markdown, piece by piece with its place in the page.

hooks/chapter_notebooks.py puts it between a notebook's code cells, so the notebook reads like the
page. It takes the page's HTML as Python-Markdown wrote it (before KaTeX typesets the formulas,
so math is still TeX): headings (linked back to their section), paragraphs, lists, quotes, tables,
display formulas and code listings (the snippets of src/ a chapter shows). It leaves out what
only works on the page: runnable blocks (they become the code cells), exercises, the playground,
figures (``sg-`` elements), tabs (alternatives side by side) and collapsed deep dives
(``<details>``), each of which the page's link reaches.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_PROSE = {"p", "ul", "ol", "blockquote", "table", "h1", "h2", "h3", "h4", "h5", "h6"}
_INLINE_MATH = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)
_DISPLAY_MATH = re.compile(r"\\\[(.*?)\\\]", re.DOTALL)
_CODE = re.compile(r"<code>(.*?)</code>", re.DOTALL)
_LINK = re.compile(r'<a\b[^>]*?\bhref="([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)
_HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.DOTALL)
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)"[^>]*>(.*?)</h\1>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_LIST_TAG = re.compile(r"<(/?)(ul|ol|li)\b[^>]*>")


@dataclass(frozen=True)
class Piece:
    """One piece of prose: where it starts in the page's HTML, and it as Markdown."""

    offset: int
    markdown: str


def _excluded(tag: str, classes: list[str]) -> bool:
    return tag == "details" or "tabbed-set" in classes or any(name.startswith("sg-") for name in classes)


class _Pieces(HTMLParser):
    """Finds the outermost prose elements outside the excluded ones, as (tag, classes, start, end)."""

    def __init__(self, page_html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_html = page_html
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", page_html)]
        self.stack: list[str] = []
        self.excluded_at: int | None = None  # depth of the excluded element we are inside
        self.open: tuple[str, list[str], int, int] | None = None  # the prose element being read
        self.found: list[tuple[str, list[str], int, int]] = []

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        depth = len(self.stack)
        self.stack.append(tag)
        if self.excluded_at is not None or self.open is not None:
            return
        if _excluded(tag, classes):
            self.excluded_at = depth
        elif (tag in _PROSE and not (tag == "p" and classes)) or (
            tag == "div" and ("arithmatex" in classes or "highlight" in classes)
        ):
            self.open = (tag, classes, self.position(), depth)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or not self.stack:
            return
        self.stack.pop()
        depth = len(self.stack)
        if self.excluded_at == depth:
            self.excluded_at = None
        elif self.open is not None and self.open[3] == depth:
            name, classes, start, _ = self.open
            end = self.page_html.index(">", self.position()) + 1
            self.found.append((name, classes, start, end))
            self.open = None


def prose(page_html: str, page_url: str) -> list[Piece]:
    """The prose of `page_html` in page order; links and headings point into `page_url`."""
    parser = _Pieces(page_html)
    parser.feed(page_html)
    parser.close()
    pieces = []
    for tag, classes, start, end in parser.found:
        text = _markdown(tag, classes, page_html[start:end], page_url)
        if text.strip():
            pieces.append(Piece(start, text.strip("\n")))
    return pieces


def _markdown(tag: str, classes: list[str], raw: str, page_url: str) -> str:
    if tag.startswith("h") and tag[1:].isdigit():
        match = _HEADING.match(raw)
        if match is None:
            return ""
        level, anchor, inner = match.groups()
        title = inline(_HEADERLINK.sub("", inner), page_url)
        return f"{'#' * int(level)} [{title}]({page_url}#{anchor})"
    if "highlight" in classes:
        language = next((name[len("language-") :] for name in classes if name.startswith("language-")), "")
        code = html.unescape(_TAG.sub("", raw)).strip("\n")
        return f"```{language}\n{code}\n```"
    if "arithmatex" in classes:
        return _DISPLAY_MATH.sub(lambda m: f"$${m.group(1)}$$", html.unescape(_TAG.sub("", raw)).strip())
    if tag == "table":
        return _INLINE_MATH.sub(lambda m: f"${m.group(1)}$", raw)
    if tag in ("ul", "ol"):
        return _list(raw, page_url)
    if tag == "blockquote":
        return "\n".join(f"> {line}" for line in inline(raw, page_url).splitlines())
    return inline(raw, page_url)


def inline(fragment: str, page_url: str) -> str:
    """An HTML fragment's text as Markdown: code, emphasis, links (made absolute) and TeX math."""
    # Entities stay escaped until the tags are gone: `a &lt; b` must not turn into a tag.
    text = _INLINE_MATH.sub(lambda m: f"${m.group(1)}$", fragment)
    text = _CODE.sub(lambda m: f"`{_TAG.sub('', m.group(1))}`", text)
    text = _LINK.sub(lambda m: f"[{m.group(2)}]({urljoin(page_url, html.unescape(m.group(1)))})", text)
    text = re.sub(r"</?(strong|b)>", "**", text)
    text = re.sub(r"</?(em|i)>", "*", text)
    text = re.sub(r"<br\s*/?>", "\n", text)
    return _plain(text)


def _plain(fragment: str) -> str:
    return html.unescape(_TAG.sub("", fragment)).strip()


def _list(raw: str, page_url: str) -> str:
    """A (possibly nested) list as Markdown items, indented by depth, numbered for ``<ol>``."""
    lines, kinds, counters, item = [], [], [], None

    def flush(until: int) -> None:
        if item is not None:
            marker = f"{counters[-1]}." if kinds[-1] == "ol" else "-"
            text = " ".join(inline(raw[item:until], page_url).split())
            if text:
                lines.append(f"{'   ' * (len(kinds) - 1)}{marker} {text}")

    for match in _LIST_TAG.finditer(raw):
        closing, name = match.groups()
        flush(match.start())
        item = None
        if name in ("ul", "ol"):
            if closing:
                kinds.pop()
                counters.pop()
            else:
                kinds.append(name)
                counters.append(0)
        elif not closing:
            counters[-1] += 1
            item = match.end()
    return "\n".join(lines)
