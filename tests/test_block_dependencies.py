"""No block of a chapter's main text needs a block the reader has to open first.

A collapsed admonition (``??? sg-book "The book's version"``, a deep dive) is optional reading: a
reader who never opens it never runs its blocks, so a name that only such a block binds is a
``NameError`` in every main-text block below that reads it (issue #43: Derivatives' ``nudged_slope``,
Training's ``losses`` and ``model``). The reading of names is the one "my engine" uses to follow a
Value down a page (`scratchgrad.page.reader_engine`), so both agree on what a block reads.
"""

import builtins

import pytest

from docs_pages import Fence, fenced_blocks, page_fences, runnable_pages
from scratchgrad.page.blocks import new_namespace
from scratchgrad.page.reader_engine import _names

ALWAYS_THERE = set(dir(builtins)) | set(new_namespace())


def _needs_a_collapsed_block(fences: list[Fence]) -> list[str]:
    """Each main-text block of a page's `fences` that reads a name only a collapsed block above binds."""
    in_main, in_collapsed, found = set(ALWAYS_THERE), set(), []
    for number, fence in enumerate((f for f in fences if f.runnable), start=1):
        read, bound = _names(fence.body)
        if fence.collapsed:
            in_collapsed |= bound
            continue
        hidden = (read - in_main) & in_collapsed
        if hidden:
            found.append(f"block {number} reads {', '.join(sorted(hidden))}")
        in_main |= bound
    return found


def test_a_name_bound_only_in_a_collapsed_block_is_found():
    markdown = (
        '??? sg-book "The book\'s version"\n\n    ```python run\n    losses = [1.0]\n    ```\n\n'
        "```python run\nprint(losses[-1])\n```\n\n"
        '???+ info "Open"\n\n    ```python run\n    model = 2\n    ```\n\n'
        "```python run\nprint(model)\n```\n"
    )
    assert _needs_a_collapsed_block(fenced_blocks(markdown)) == ["block 2 reads losses"]


@pytest.mark.parametrize("page", runnable_pages())
def test_no_main_text_block_reads_a_name_of_a_collapsed_block(page):
    assert _needs_a_collapsed_block(page_fences(page)) == []
