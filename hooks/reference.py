"""MkDocs hook: one API reference page per module of ``src/scratchgrad``, generated from docstrings.

Each page holds a single mkdocstrings directive (``::: scratchgrad.engine``), so the reference can
never fall behind the code: a new module gets its page and its place in the nav by existing.
The pages go under the nav section titled ``API reference`` (after its ``reference/index.md``),
and the index lists every module with the first line of its docstring, where it writes
``<!-- modules -->``.
"""

from __future__ import annotations

import ast
import posixpath
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "scratchgrad"
SECTION = "API reference"
INDEX = "reference/index.md"
MODULE_LIST = "<!-- modules -->"


def modules() -> list[str]:
    """Dotted names of the public modules and packages, in the order a reader meets them on disk."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return names


def module_file(module: str) -> Path:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def summary(module: str) -> str:
    """The first line of the module's docstring (read from the source, nothing imported)."""
    docstring = ast.get_docstring(ast.parse(module_file(module).read_text(encoding="utf-8"))) or ""
    return docstring.strip().split("\n", 1)[0]


def page_path(module: str) -> str:
    return "reference/" + "/".join(module.split(".")[1:]) + ".md"


def on_config(config):
    for item in config.nav or []:
        if isinstance(item, dict) and SECTION in item:
            pages = [entry for entry in item[SECTION] if not _is_generated(entry)]
            item[SECTION] = pages + [{name: page_path(name)} for name in modules()]
            return config
    raise PluginError(f"hooks/reference.py: mkdocs.yml's nav needs a section titled {SECTION!r}")


def on_files(files, config):
    for name in modules():
        # The page's own h1 names the module, so mkdocstrings does not repeat it as a heading.
        content = f"# `{name}`\n\n::: {name}\n    options:\n      show_root_heading: false\n"
        files.append(File.generated(config, page_path(name), content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri != INDEX:
        return markdown
    if MODULE_LIST not in markdown:
        raise PluginError(f"hooks/reference.py: {INDEX} needs a {MODULE_LIST} line for the module list")
    links = [
        f"- [`{name}`]({posixpath.relpath(page_path(name), posixpath.dirname(INDEX))}): {summary(name)}"
        for name in modules()
    ]
    return markdown.replace(MODULE_LIST, "\n".join(links))


def _is_generated(entry: object) -> bool:
    return isinstance(entry, dict) and any(
        str(v).startswith("reference/") and k.startswith("scratchgrad.") for k, v in entry.items()
    )
