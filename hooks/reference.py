"""MkDocs hook: one API reference page per module of ``src/scratchgrad``, generated from docstrings.

Each page holds a single mkdocstrings directive (``::: scratchgrad.engine``), so the reference can
never fall behind the code: a new module gets its page and its place in the nav by existing.
The pages go under the nav section titled ``API reference`` (after its ``reference/index.md``).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "scratchgrad"
SECTION = "API reference"


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


def _is_generated(entry: object) -> bool:
    return isinstance(entry, dict) and any(
        str(v).startswith("reference/") and k.startswith("scratchgrad.") for k, v in entry.items()
    )
