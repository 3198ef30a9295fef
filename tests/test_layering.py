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
    assert TUTORIAL == ["drawn_graph", "exercises", "page", "playground", "stages", "writing"]


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


def module_imports(path: Path) -> set[str]:
    """The modules of the package that `path` imports, by dotted name (``from scratchgrad import x``
    counts as importing ``scratchgrad.x`` when x is a module), TYPE_CHECKING blocks included."""
    found = set()
    for name in imported_modules(path.read_text()):
        if name.startswith("scratchgrad.") and name in PACKAGE_MODULES:
            found.add(name)
    return found


def dotted_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PACKAGE_FILES = sorted(PACKAGE.rglob("*.py"))
PACKAGE_MODULES = {dotted_name(path) for path in PACKAGE_FILES}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of `graph` (module -> modules it imports), each once, as the modules around it.
    A package importing its own submodules (``__init__`` re-exporting them) is not a cycle."""
    cycles, done = [], set()
    for start in sorted(graph):
        path, on_path = [start], {start}
        stack = [iter(sorted(graph[start]))]
        while stack:
            for target in stack[-1]:
                if target == path[0] and len(path) > 1:
                    cycle = path[:]
                    if frozenset(cycle) not in done:
                        done.add(frozenset(cycle))
                        cycles.append(cycle)
                elif target not in on_path and target > path[0]:
                    path.append(target)
                    on_path.add(target)
                    stack.append(iter(sorted(graph.get(target, ()))))
                    break
            else:
                stack.pop()
                on_path.discard(path.pop())
    return cycles


def package_import_graph() -> dict[str, set[str]]:
    graph = {}
    for path in PACKAGE_FILES:
        name = dotted_name(path)
        graph[name] = {
            target
            for target in module_imports(path)
            if not (target.startswith(name + ".") or name.startswith(target + "."))
        }
    return graph


def test_no_module_of_the_package_imports_itself_back_through_others():
    assert import_cycles(package_import_graph()) == []


def test_the_cycle_check_finds_a_cycle_of_two_and_of_three():
    assert import_cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
