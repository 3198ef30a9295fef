"""Every dotted name of the package that prose mentions resolves: pages, docstrings and comments.

A page, a docstring or a comment that names `scratchgrad.module.thing` sends the reader to look
for it; after a rename it sends them nowhere. Python files are read through their docstrings and
comments only (a string the code uses is the code's business), JavaScript and CSS files through
their comments, Markdown pages whole.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOTTED_NAME = re.compile(r"(?<![\w.\-/])scratchgrad(?:\.[A-Za-z_]\w*)+(?![\w\-])")
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def python_prose(source: str) -> str:
    """The docstrings and comments of a Python module, joined."""
    parts = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            parts.append(ast.get_docstring(node) or "")
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    parts.extend(token.string for token in tokens if token.type == tokenize.COMMENT)
    return "\n".join(parts)


def prose_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return python_prose(text)
    if path.suffix in {".js", ".mjs", ".css"}:
        return "\n".join(JS_COMMENT.findall(text))
    return text


def prose_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder, patterns in {
        "docs": ["*.md"],
        "src": ["*.py"],
        "hooks": ["*.py", "*.js"],
        "web": ["*.js", "*.css"],
        "benchmarks": ["*.py", "*.md"],
    }.items():
        for pattern in patterns:
            files.extend(path for path in (ROOT / folder).rglob(pattern) if "__pycache__" not in path.parts)
    return sorted(files)


def declared_fields(owner: object) -> set[str]:
    """The fields a class declares without a class attribute (a dataclass's, an annotation's)."""
    fields = {field.name for field in dataclasses.fields(owner)} if dataclasses.is_dataclass(owner) else set()
    return fields | set(getattr(owner, "__annotations__", {}))


def resolves(dotted: str) -> bool:
    """Whether `dotted` names a module of the package, or something a module or class defines."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for position, attribute in enumerate(parts[split:], start=split):
            if attribute in declared_fields(found):
                return position == len(parts) - 1
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def mentioned_names() -> list[tuple[str, str]]:
    """(file, dotted name) for every mention, each pair once."""
    mentions = set()
    for path in prose_files():
        for name in DOTTED_NAME.findall(prose_of(path)):
            mentions.add((str(path.relative_to(ROOT)), name.rstrip(".")))
    return sorted(mentions)


@pytest.mark.parametrize(("file", "name"), mentioned_names(), ids=lambda value: value)
def test_a_dotted_name_in_prose_names_something_that_exists(file: str, name: str):
    assert resolves(name), f"{file} names {name}, which does not exist"


def test_the_check_refuses_a_name_that_does_not_exist():
    assert resolves("scratchgrad.engine.Value.backward")
    assert resolves("scratchgrad.graph.GraphNode.name")  # a dataclass field
    assert not resolves("scratchgrad.engine._release_iteratively")
    assert not resolves("scratchgrad.drawn_graph.study.drawing")


def test_prose_is_read_from_docstrings_and_comments_not_from_code_strings():
    source = '"""See `scratchgrad.a.b`."""\nx = "scratchgrad.c.d"  # and scratchgrad.e.f\n'
    assert DOTTED_NAME.findall(python_prose(source)) == ["scratchgrad.a.b", "scratchgrad.e.f"]
    assert DOTTED_NAME.findall("load-scratchgrad.js, application/vnd.scratchgrad.curve+json") == []
