"""hooks/helpers/stand_in.py: code an editor will replace is written so that Material does not mount it."""

from __future__ import annotations

import doctest
import html
import importlib
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
stand_in_hook = importlib.import_module("helpers.stand_in")
runnable = importlib.import_module("runnable")

MATERIAL_CODE_BLOCK = re.compile(r"<pre[^>]*>(<span></span>)?<code")
"""What Material's `pre:not(.mermaid) > code` finds and mounts as the page loads."""


def test_the_docstring_example_holds() -> None:
    assert doctest.testmod(stand_in_hook).failed == 0


def sources(text: str) -> list[str]:
    """The `.sg-source` of each runnable block of `text` (Markdown), as the fence writes it."""
    config = SimpleNamespace(markdown_extensions=["pymdownx.superfences"], mdx_configs={})
    runnable.on_config(config)
    runnable.on_page_markdown(text, SimpleNamespace(file=SimpleNamespace(src_uri="page.md")), None, None)
    try:
        converted = markdown.Markdown(
            extensions=["pymdownx.highlight", "pymdownx.superfences"], extension_configs=config.mdx_configs
        ).convert(text)
    finally:
        runnable._session = None
        runnable._pending.clear()
    return re.findall(r'<div class="sg-source">(.*?)</div><div class="sg-result"', converted, re.DOTALL)


def test_a_runnable_blocks_code_is_a_stand_in_with_the_code_as_its_text() -> None:
    (source,) = sources('```python run title="sum.py"\nprint(1 + 2)  # three\n```\n')
    assert '<div class="sg-stand-in"><code>' in source
    assert not MATERIAL_CODE_BLOCK.search(source)
    assert 'class="filename">sum.py</span>' in source  # the block's title stays, outside the code
    code = re.search(r"<code>(.*)</code>", source, re.DOTALL).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", code)).strip() == "print(1 + 2)  # three"


def test_a_block_the_browser_never_runs_keeps_materials_code_block_and_its_copy_button() -> None:
    (source,) = sources('```python run browser="no"\nprint(1)\n```\n')
    assert MATERIAL_CODE_BLOCK.search(source)
    assert "sg-stand-in" not in source


def test_markup_other_than_one_highlighted_block_is_refused_with_what_was_expected() -> None:
    numbered = '<div class="highlight"><table><tr><td><pre><code>1</code></pre></td></tr></table></div>'
    expected = re.escape("one highlighted code block opening with '<pre><span></span><code>'")
    with pytest.raises(PluginError, match=expected):
        stand_in_hook.stand_in(numbered)
    with pytest.raises(PluginError, match=re.escape("did pymdownx.highlight's options change?")):
        stand_in_hook.stand_in(2 * "<pre><span></span><code>x</code></pre>")
