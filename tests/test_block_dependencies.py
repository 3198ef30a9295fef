"""Run on a fresh page, block by block in page order, no block needs a block the reader may not open.

A collapsed admonition (``??? sg-book "The book's version"``, a deep dive) is optional reading: a
reader who never opens it never runs its blocks, so a name that only such a block binds is a
``NameError`` in every block below that reads it, in the main text (issue #43: Derivatives'
``nudged_slope``, Training's ``losses`` and ``model``) or in another collapsed admonition, opened
on its own. A block reads the names of its code and of the drawings the page makes from it after it
runs (``graph="L"``, ``curve="history"``). The reading of names is the one "my engine" uses to follow
a Value down a page (`scratchgrad.page.reader_engine`), so both agree on what a block reads.
"""

import ast
import builtins
import re

import pytest

from docs_pages import Fence, fenced_blocks, page_fences, runnable_pages
from scratchgrad.page.blocks import new_namespace
from scratchgrad.page.reader_engine import _names

ALWAYS_THERE = set(dir(builtins)) | set(new_namespace())
DRAWN_IN_THE_BROWSER = ("graph", "curve")
"""Options whose expressions the page evaluates in the reader's namespace after the block runs."""


def _reads(fence: Fence) -> set[str]:
    """The names `fence` reads from the blocks above: in its code, and in its drawings' expressions."""
    read, bound = _names(fence.body)
    for key, option in re.findall(r'(\w+)="([^"]*)"', fence.info):
        if key in DRAWN_IN_THE_BROWSER:
            for expression in filter(None, (part.strip() for part in option.split(";"))):
                tree = ast.parse(expression, mode="eval")
                read |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} - bound
    return read


def _needs_a_collapsed_block(fences: list[Fence]) -> list[str]:
    """Each block of a page's `fences` that reads a name only a collapsed block above binds, one the
    reader may not have opened: any collapsed block for the main text, another admonition's for a
    collapsed block."""
    in_main, hidden_in, found = set(ALWAYS_THERE), {}, []
    for number, fence in enumerate((f for f in fences if f.runnable), start=1):
        in_sight = in_main | hidden_in.get(fence.hidden_in, set())
        elsewhere = set().union(*(names for at, names in hidden_in.items() if at != fence.hidden_in))
        hidden = (_reads(fence) - in_sight) & elsewhere
        if hidden:
            found.append(f"block {number} reads {', '.join(sorted(hidden))}")
        bound = _names(fence.body)[1]
        if fence.collapsed:
            hidden_in.setdefault(fence.hidden_in, set()).update(bound)
        else:
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


def test_a_collapsed_block_may_read_its_own_admonitions_names_but_not_another_ones():
    markdown = (
        '??? info "Deep dive"\n\n    ```python run\n    x = 1\n    ```\n\n'
        '    ```python run graph="x"\n    y = x\n    ```\n\n'
        '??? info "Another"\n\n    ```python run\n    print(y)\n    ```\n\n'
        '```python run graph="x"\nz = 2\n```\n'
    )
    assert _needs_a_collapsed_block(fenced_blocks(markdown)) == ["block 3 reads y", "block 4 reads x"]


@pytest.mark.parametrize("page", runnable_pages())
def test_no_block_reads_a_name_of_a_collapsed_block_it_may_run_without(page):
    assert _needs_a_collapsed_block(page_fences(page)) == []
