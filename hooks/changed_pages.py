"""MkDocs hook: ``make serve`` (``mkdocs serve --dirty``) rebuilds only the page whose source changed.

``mkdocs serve`` rendered all 73 pages after any edit, 8 to 10 s of mkdocstrings, search and
templates even when every block result came from the build cache. A page's HTML is decided by its
own source and by what every page shares: the package (its blocks, the API pages), the build's
code, the configuration and nav (whose titles mkdocs.yml and hooks/reference.py give, not the
pages), the theme's overrides, the browser runtime and the other files of ``docs/``. This hook keeps
a digest of that shared part and of each page's source from one build to the next, in the server's
process, and tells MkDocs which pages are modified: when only one page's source changed, only that
page; after any other change (the shared part, a page added or removed, two pages saved at once, the
home page, whose search entries Material's merge cannot tell from the others', a page with a
mkdocstrings directive, a nav with a page it gives no title), every page, as a full build would.
After a one-page rebuild, objects.inv is put back as the last full build wrote it; Material's
search plugin keeps the other pages' search entries (it appends the new page's at the end: the
index holds the same entries as a full build's, in another order).

What a rebuild of one page does not redo is the checks across pages: a link to a heading of the
edited page from another page, and every exercise placed in its chapter (hooks/exercises.py checks
the chapters it rendered). ``make docs``, ``make site`` and CI build the whole site strictly, as
before. Under ``mkdocs build`` (not dirty) this hook does nothing.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from helpers import build_cache

_HOME = "index.md"
_dirty = False
_built: dict[str, str] = {}  # what the last build of this process was made from: "" → the shared part
_building: dict[str, str] = {}
_kept: dict[str, bytes | None] = {}  # files of the last full build that a rebuild of one page would spoil
_DIRECTIVE = re.compile(r"^::: ", re.MULTILINE)  # mkdocstrings' ::: module.name


class _DirtyOnPurpose(logging.Filter):
    """MkDocs warns that a dirty build "will likely lead to inaccurate navigation"; here the pages
    it skips are chosen by what decides them, so the warning (an error under ``strict``) is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def on_startup(command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty
    if dirty:
        logging.getLogger("mkdocs.commands.build").addFilter(_DirtyOnPurpose())


def shared_digest(config, pages: list[str]) -> str:
    """The digest of what every page's HTML shares: the package, the build's code, the theme's
    overrides, the browser runtime, mkdocs.yml, the list of pages and docs/' files that are not pages."""
    root = build_cache.ROOT
    docs = Path(config.docs_dir)
    not_pages = [
        path for path in sorted(docs.rglob("*")) if path.is_file() and path.suffix not in (".md", ".ipynb")
    ]
    return build_cache.key(
        build_cache.files_digest(root / "src" / "scratchgrad", root / "hooks", root / "web"),
        build_cache.files_digest(
            *[Path(config.theme.custom_dir).resolve()] if config.theme.custom_dir else []
        ),
        Path(config.config_file_path).read_bytes(),
        pages,
        *[(path.relative_to(docs).as_posix(), path.read_bytes()) for path in not_pages],
    )


def on_files(files, config):
    global _building
    if not _dirty:
        return files
    pages = [file for file in files.documentation_pages()]
    _building = {"": shared_digest(config, [file.src_uri for file in pages])}
    _building |= {file.src_uri: build_cache.key(file.content_bytes) for file in pages}
    changed = [uri for uri in _building if uri and _built.get(uri) != _building[uri]]
    alone = len(changed) == 1 and _built.get("") == _building[""] and changed[0] != _HOME
    # A page the nav gives no title of its own is named by its rendering: a page left unrendered
    # would be "None" in the nav of the page rendered. A page with a mkdocstrings directive adds
    # to objects.inv, which a rebuild of one page keeps as the last full build wrote it.
    source = next((file.content_string for file in pages if file.src_uri in changed[:1]), "")
    plain = alone and not untitled_in_nav(config.nav or []) and not _DIRECTIVE.search(source)
    only = changed[0] if plain else None
    for file in pages:
        # MkDocs asks each page's File if it is modified (by default: is its source newer than its output?)
        file.is_modified = _answer(only is None or file.src_uri == only)
    inventory = Path(config.site_dir) / "objects.inv"
    _kept["objects.inv"] = inventory.read_bytes() if only is not None and inventory.is_file() else None
    return files


def untitled_in_nav(nav: list) -> list[str]:
    """The pages of mkdocs.yml's nav that it gives no title of their own (``- page.md``)."""
    untitled = []
    for item in nav:
        if isinstance(item, str):
            untitled.append(item)
        for value in item.values() if isinstance(item, dict) else []:
            if isinstance(value, list):
                untitled += untitled_in_nav(value)
    return untitled


def _answer(modified: bool):
    return lambda: modified


def on_post_build(config) -> None:
    """The build went through: the next rebuild compares with it. After a rebuild of one page,
    mkdocstrings' objects.inv (written from the pages rendered) is put back as the full build wrote it."""
    if not _dirty:
        return
    _built.clear()
    _built.update(_building)
    if _kept.get("objects.inv") is not None:
        (Path(config.site_dir) / "objects.inv").write_bytes(_kept["objects.inv"])
