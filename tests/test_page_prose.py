"""hooks/helpers/page_prose.py: a page's prose as Markdown, in page order, less what only a page shows."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
page_prose = importlib.import_module("helpers.page_prose")

URL = "https://example.org/site/chain/"


def markdown(page_html: str) -> list[str]:
    return [piece.markdown for piece in page_prose.prose(page_html, URL)]


def test_inline_markup_becomes_markdown_with_absolute_links_and_tex_math() -> None:
    shown = (
        '<p>Some <em>em</em>, <strong>strong</strong>, <code>a &lt; b</code>, <a href="../value-object/">the'
        ' Value</a>,\nmath <span class="arithmatex">\\(u &lt; x \\cdot y\\)</span>.</p>'
    )
    assert markdown(shown) == [
        "Some *em*, **strong**, `a < b`, [the Value](https://example.org/site/value-object/),\n"
        "math $u < x \\cdot y$."
    ]


def test_headings_link_back_to_their_sections() -> None:
    shown = '<h2 id="why">Why <code>+=</code><a class="headerlink" href="#why">&para;</a></h2>'
    assert markdown(shown) == [f"## [Why `+=`]({URL}#why)"]


def test_display_math_lists_code_listings_and_tables() -> None:
    shown = (
        '<div class="arithmatex">\\[\nL = d \\cdot f\n\\]</div>\n'
        "<ul>\n<li>one <code>x</code></li>\n<li>two<ol><li>a</li><li>b</li></ol></li>\n</ul>\n"
        '<div class="language-python highlight"><pre><span></span><code><span class="k">def</span> f(x):\n'
        "    <span>return</span> x &lt; 1\n</code></pre></div>\n"
        '<table><tr><td><span class="arithmatex">\\(x\\)</span></td></tr></table>'
    )
    assert markdown(shown) == [
        "$$\nL = d \\cdot f\n$$",
        "- one `x`\n- two\n   1. a\n   2. b",
        "```python\ndef f(x):\n    return x < 1\n```",
        "<table><tr><td>$x$</td></tr></table>",
    ]


def test_what_only_the_page_can_show_is_left_out() -> None:
    shown = (
        '<p class="sg-notebook-download"><a href="x.ipynb">Download as notebook</a></p>'
        '<details class="note"><summary>Deep dive</summary><p>collapsed</p></details>'
        '<div class="sg-runnable" id="sg-run-0"><p>a block</p></div>'
        '<div class="sg-exercise"><p>an exercise</p></div>'
        '<div class="tabbed-set"><p>a tab</p></div>'
        '<div class="admonition note"><p class="admonition-title">Note</p><p>kept</p></div>'
        '<br><img src="a.png"><p>after void elements</p>'
    )
    assert markdown(shown) == ["kept", "after void elements"]


def test_each_piece_knows_where_it_starts_in_the_page() -> None:
    shown = '<p>one</p>\n<h2 id="two">two</h2>\n<p>three</p>'
    starts = [shown.index(tag) for tag in ("<p>one", "<h2", "<p>three")]
    assert [piece.offset for piece in page_prose.prose(shown, URL)] == starts
