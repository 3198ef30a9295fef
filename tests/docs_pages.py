"""The tutorial's Markdown pages as the tests read them: their fenced blocks, and where each page is built.

One reader of fences serves every test (the docs checks, the browser tests, the README's example),
so "which blocks does this page have" has one answer everywhere.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "hooks"))  # the build's own rules, as the hooks import them

from helpers import site_urls  # noqa: E402

_ADMONITION = re.compile(r"^[ \t]*(\?\?\?\+?|!!!|===) ")
_OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class Fence:
    """One fenced code block: its info string (``python run graph="L"``) and its body, dedented;
    `hidden_in`, when it sits inside a collapsed admonition (``??? sg-book``, hidden until opened),
    the line number of the outermost such admonition: blocks with the same number open together."""

    info: str
    body: str
    hidden_in: int | None = None

    @property
    def collapsed(self) -> bool:
        return self.hidden_in is not None

    @property
    def language(self) -> str:
        """The first word of the info string (``python``; ``{ .python run }`` gives ``python`` too)."""
        words = self.info.replace("{", " ").replace("}", " ").split()
        return words[0].lstrip(".") if words else ""

    @property
    def runnable(self) -> bool:
        """A ```` ```python run ```` block: Python, with the bare word ``run`` among its options."""
        words = self.info.replace("{", " ").replace("}", " ").split()
        return self.language == "python" and "run" in words[1:]


def fenced_blocks(markdown: str) -> list[Fence]:
    """Every fenced block of `markdown`, at any indentation (inside admonitions, tabs), in page order.

    A fence ends at a line of at least as many of the same character and nothing else, so a fence
    inside a longer one (a Markdown example of a runnable block) is text of the outer block.
    """
    blocks, lines, i = [], markdown.splitlines(), 0
    admonitions: list[tuple[int, int | None]] = []  # (indent, line if collapsed) of those around line i
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        if line.strip():
            while admonitions and indent <= admonitions[-1][0]:
                admonitions.pop()
            if _ADMONITION.match(line):
                admonitions.append((indent, i + 1 if line.lstrip().startswith("??? ") else None))
        opening = _OPENING.match(line)
        i += 1
        if not opening:
            continue
        fence = opening["fence"]
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        body = []
        while i < len(lines) and not closing.match(lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        hidden_in = next((at for _, at in admonitions if at is not None), None)
        blocks.append(Fence(opening["info"].strip(), textwrap.dedent("\n".join(body)), hidden_in))
    return blocks


def pages() -> list[str]:
    """Every Markdown page under docs/, as a path relative to it."""
    return sorted(path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md"))


def runnable_pages() -> list[str]:
    """The pages that have at least one ```python run``` block."""
    return [page for page in pages() if any(fence.runnable for fence in page_fences(page))]


def page_fences(page: str) -> list[Fence]:
    return fenced_blocks((DOCS / page).read_text(encoding="utf-8"))


def page_url(base: str, source: str) -> str:
    """The URL MkDocs gives `source` below `base`: the build's own rule (hooks/helpers/site_urls.py)."""
    return site_urls.page_url(source, base)


def built_page(site: Path, source: str) -> Path:
    """The HTML file `mkdocs build` writes for `source`."""
    return site / page_url("", source) / "index.html"


def build_site(out: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `config` into `out`; the caller judges the result."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def small_site(root: Path, pages: dict[str, str]) -> Path:
    """A site of `pages` (file stem -> Markdown, in nav order) with the real configuration, hooks and
    sources (linked next to the config file, where they are resolved); returns its mkdocs.yml."""
    (root / "docs" / "reference").mkdir(parents=True)
    (root / "docs" / "reference" / "index.md").write_text("# Reference\n\n<!-- modules -->\n")
    for name, text in pages.items():
        (root / "docs" / f"{name}.md").write_text(text)
    for shared in ("hooks", "src", "overrides"):
        (root / shared).symlink_to(ROOT / shared)
    nav = "".join(f"  - {'Home' if name == 'index' else name.title()}: {name}.md\n" for name in pages)
    config = root / "mkdocs.yml"
    reference = "  - API reference:\n      - reference/index.md\n"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: docs\nnav:\n{nav}{reference}")
    return config
