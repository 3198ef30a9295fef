"""The library stands on the ground floor: no top-level module imports the tutorial's machinery."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import scratchgrad

PACKAGE = Path(scratchgrad.__file__).parent
LIBRARY = sorted(path for path in PACKAGE.glob("*.py"))
TUTORIAL = sorted(path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists())


def imported_modules(source: str) -> set[str]:
    """Every module an import statement of `source` names, at any depth (function-level imports too)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def tutorial_imports(source: str) -> set[str]:
    return {name for name in imported_modules(source) if name.split(".")[:2][-1] in TUTORIAL}


def test_the_tutorial_side_is_every_subpackage():
    assert TUTORIAL == ["drawn_graph", "exercises", "page", "playground", "stages"]


@pytest.mark.parametrize("module", LIBRARY, ids=lambda path: path.name)
def test_a_library_module_imports_nothing_from_the_tutorial(module: Path):
    assert tutorial_imports(module.read_text()) == set()


def test_the_check_sees_a_tutorial_import_at_any_depth():
    source = "def f():\n    from scratchgrad.page import blocks\nfrom scratchgrad import stages\n"
    assert tutorial_imports(source) == {"scratchgrad.page", "scratchgrad.page.blocks", "scratchgrad.stages"}
    assert tutorial_imports("from scratchgrad import engine, graph\nimport math\n") == set()


@pytest.mark.parametrize("old", sorted(scratchgrad.MOVED))
def test_a_moved_module_answers_to_its_old_name_with_a_warning(old: str):
    with pytest.warns(DeprecationWarning, match=f"scratchgrad.{old} moved to {scratchgrad.MOVED[old]}"):
        module = getattr(scratchgrad, old)
    assert module is importlib.import_module(scratchgrad.MOVED[old])


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        scratchgrad.nonexistent  # noqa: B018
