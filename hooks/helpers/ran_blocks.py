"""What each page's runnable blocks did in this build: hooks/runnable.py records, others read.

A hook cannot import another hook (MkDocs loads each under its file's path, not its module
name), so the record lives here, in a plain module both import by name. `hooks/runnable.py`
records every page's blocks once they have run; `hooks/chapter_notebooks.py` turns them into the
page's notebook. Nothing is run again: a notebook's outputs are the outputs the page shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RanBlock:
    """One runnable block after its build-time run.

    Attributes:
        source: the code exactly as the page runs it (snippets expanded).
        options: the fence's options (``{"run": "run", "graph": "L"}``).
        outcome: what the run did, a `scratchgrad.page.blocks.Outcome` (printed text, exception).
        pictures: the SVG drawings shown under the block, in page order (graphs, then figures).
    """

    source: str
    options: dict[str, str]
    outcome: Any
    pictures: list[str]


_by_page: dict[str, list[RanBlock]] = {}


def record(page: str, ran: list[RanBlock]) -> None:
    """Keep what the blocks of `page` (its path without ``.md``) did, replacing an earlier build's."""
    _by_page[page] = list(ran)


def of(page: str) -> list[RanBlock]:
    """The blocks of `page` as they ran in this build, in page order; [] for a page without any."""
    return list(_by_page.get(page, []))
