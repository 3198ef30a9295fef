"""hooks/helpers/build_cache.py: a build from the cache is the build without it, byte for byte, and an
edit re-runs only what it changes (prose: nothing; a block: that page's blocks).

A two-chapter site with the real configuration and hooks. Each block appends its page's name to a
log file when it runs, so the test sees which pages' blocks a build ran. The same site built by
ProperDocs (the maintained fork of MkDocs 1.x) is the MkDocs one but for the generator's name."""

from __future__ import annotations

import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docs_pages import ROOT, small_site

CHAPTER = """# {title}

Some prose, and a formula: $\\partial L / \\partial x$.

```python run
import os
from scratchgrad import Value
with open(os.environ["SG_RUN_LOG"], "a") as log:
    log.write("{name}\\n")
x = Value({value})
y = x * x
y.backward()
print(y.data, x.grad)
```
"""


def chapter_site(root: Path) -> Path:
    """Two chapters with one block each, using the real configuration and hooks; returns mkdocs.yml."""
    chapters = {
        name: CHAPTER.format(title=name, name=name, value=value)
        for name, value in (("index", 3.0), ("second", 5.0))
    }
    return small_site(root, chapters)


def build(config: Path, out: Path, cache: Path, log: Path, tool: str = "mkdocs") -> list[str]:
    """A strict build of `config` into `out` by `tool` (``mkdocs`` or ``properdocs``, the maintained
    fork of MkDocs 1.x) with the build cache in `cache`; the pages whose blocks ran, in name order
    (worker processes run pages side by side: hooks/helpers/blocks_ahead.py)."""
    log.write_text("")
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "SCRATCHGRAD_BUILD_CACHE_DIR": str(cache),
        "SG_RUN_LOG": str(log),
    }
    command = [sys.executable, "-m", tool, "build", "--strict", "-f", str(config), "-d", str(out)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return sorted(log.read_text().split())


def differing_files(one: Path, other: Path) -> list[str]:
    """Every file that is in one site and not the other, or in both with different bytes."""
    comparison = filecmp.dircmp(one, other)
    found = [*comparison.left_only, *comparison.right_only, *comparison.funny_files]
    found += [
        name for name in comparison.common_files if not filecmp.cmp(one / name, other / name, shallow=False)
    ]
    for folder in comparison.common_dirs:
        found += [f"{folder}/{name}" for name in differing_files(one / folder, other / folder)]
    return found


def edit(page: Path, old: str, new: str) -> None:
    text = page.read_text()
    assert old in text
    page.write_text(text.replace(old, new))


@pytest.mark.slow  # six builds of a two-chapter site, about 35 s
def test_the_cache_changes_no_byte_and_an_edit_reruns_only_its_page(tmp_path: Path) -> None:
    config = chapter_site(tmp_path / "tree")
    docs, log, cache = tmp_path / "tree" / "docs", tmp_path / "ran.log", tmp_path / "cache"

    assert build(config, tmp_path / "cold", cache, log) == ["index", "second"]
    assert build(config, tmp_path / "warm", cache, log) == []
    assert differing_files(tmp_path / "cold", tmp_path / "warm") == []

    edit(docs / "index.md", "Some prose", "Some edited prose")
    assert build(config, tmp_path / "after-prose", cache, log) == []
    edit(docs / "second.md", "x = Value(5.0)", "x = Value(7.0)")
    assert build(config, tmp_path / "after-block", cache, log) == ["second"]

    assert build(config, tmp_path / "edited-cold", tmp_path / "fresh-cache", log) == ["index", "second"]
    assert differing_files(tmp_path / "after-block", tmp_path / "edited-cold") == []
    assert "49.0 14.0" in (tmp_path / "after-block" / "second" / "index.html").read_text()


@pytest.mark.slow  # two builds of a two-chapter site, about 12 s
def test_properdocs_builds_the_same_site(tmp_path: Path) -> None:
    config = chapter_site(tmp_path / "tree")
    log = tmp_path / "ran.log"
    assert build(config, tmp_path / "mkdocs", tmp_path / "cache-m", log) == ["index", "second"]
    assert build(config, tmp_path / "properdocs", tmp_path / "cache-p", log, "properdocs") == [
        "index",
        "second",
    ]
    for name in differing_files(tmp_path / "mkdocs", tmp_path / "properdocs"):
        if name == "offline.json":  # the pages' digests: they differ as the pages do, by the generator
            continue
        by_mkdocs, by_properdocs = ((tmp_path / tool / name).read_text() for tool in ("mkdocs", "properdocs"))
        generator = 'content="mkdocs-1.6.1, ', 'content="mkdocs-ProperDocs 1.6.7, '
        assert by_mkdocs.replace(*generator) == by_properdocs, name


SERVE_TWICE = """
import sys
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

config_file, site, page, old, new = sys.argv[1:]
first = load_config(config_file=config_file, site_dir=site)
first.plugins.on_startup(command="serve", dirty=True)  # as `mkdocs serve --dirty` starts
build(first, dirty=True)
print(Path(site, "index.html").stat().st_mtime_ns, flush=True)
text = Path(page).read_text()
Path(page).write_text(text.replace(old, new))
build(load_config(config_file=config_file, site_dir=site), dirty=True)  # as the server rebuilds
"""


def search_entries(site: Path) -> list:
    """The search index's entries in location order (Material appends a rebuilt page's at the end)."""
    index = json.loads((site / "search" / "search_index.json").read_text())
    return sorted(index["docs"], key=lambda entry: (entry["location"], entry["title"]))


@pytest.mark.slow  # two builds of a two-chapter site (with the API pages) and one rebuild, about 40 s
def test_a_rebuild_of_one_edited_page_is_the_cold_build_of_the_edited_tree(tmp_path: Path) -> None:
    config = chapter_site(tmp_path / "tree")
    # Every page of the nav titled there, as in mkdocs.yml (hooks/changed_pages.py renders every
    # page otherwise: an unrendered page without one would have no name in the nav).
    edit(config, "      - reference/index.md\n", "      - Reference: reference/index.md\n")
    second, cache = tmp_path / "tree" / "docs" / "second.md", tmp_path / "cache"
    served = tmp_path / "served"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SCRATCHGRAD_BUILD_CACHE_DIR": str(cache)}
    env["SG_RUN_LOG"] = str(tmp_path / "ran.log")
    command = [sys.executable, "-c", SERVE_TWICE, str(config), str(served), str(second)]
    result = subprocess.run(
        [*command, "Some prose", "Some edited prose"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    home_written = int(result.stdout.split()[0])

    assert (served / "index.html").stat().st_mtime_ns == home_written  # not rendered again
    assert "Some edited prose" in (served / "second" / "index.html").read_text()
    build(config, tmp_path / "cold", tmp_path / "fresh-cache", tmp_path / "ran.log")
    # offline.json lists the search index's digest; `mkdocs serve` writes no offline.json
    assert differing_files(served, tmp_path / "cold") == ["offline.json", "search/search_index.json"]
    assert search_entries(served) == search_entries(tmp_path / "cold")
