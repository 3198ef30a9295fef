"""The build's code standing in for an editor the page has not made yet, out of Material's way.

Material mounts every ``pre > code`` of a page as the page loads: it adds a copy button, then
measures the block to learn whether it scrolls, so each block costs the browser a layout of the
page in the middle of a script. A runnable block's code and an exercise's stub are replaced by an
editor on first need (web/shared/editor.js), whose toolbar has its own Copy: Material's work on
them is thrown away. Written as ``<div class="sg-stand-in"><code>`` instead of
``<pre><span></span><code>``, they are not Material's code blocks, and runner.css lays them out
as the editor will be (its padding and line height, long lines wrapped on a phone), so the swap
moves nothing on the screen.

Example:
    >>> stand_in('<div class="highlight"><pre><span></span><code><span class="n">x</span></code></pre></div>')
    '<div class="highlight"><div class="sg-stand-in"><code><span class="n">x</span></code></div></div>'
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError

CODE_BLOCK = ("<pre><span></span><code>", "</code></pre>")
"""How pymdownx.highlight opens and closes the code of a highlighted block (no line numbers)."""
STAND_IN = ('<div class="sg-stand-in"><code>', "</code></div>")


def stand_in(highlighted: str) -> str:
    """`highlighted` (one block, as pymdownx.highlight writes it) with its code as a stand-in.

    Raises:
        PluginError: `highlighted` is not one code block as expected, e.g. after the highlight
            extension's options changed: the page would silently get Material's code block back.
    """
    opening, closing = CODE_BLOCK
    if highlighted.count(opening) != 1 or highlighted.count(closing) != 1:
        raise PluginError(
            f"a stand-in needs one highlighted code block opening with {opening!r} and closing "
            f"with {closing!r}; got {highlighted[:120]!r}… (did pymdownx.highlight's options change?)"
        )
    return highlighted.replace(opening, STAND_IN[0]).replace(closing, STAND_IN[1])
