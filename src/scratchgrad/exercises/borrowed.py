"""Is the reader's piece their own? A piece that only imports the book's code is told so, not passed.

The book's implementations live in the package (`scratchgrad.engine`, `scratchgrad.stages.*`,
`scratchgrad.nn`, …); every function and class the reader writes is compiled in the checker's
namespace (module ``__exercise__``). So each name an exercise provides — and each backward rule
and ``backward`` its Value carries — must not come from a ``scratchgrad`` module.
"""

from __future__ import annotations

import ast

from scratchgrad.exercises.exercise import Exercise

__all__ = ["book_imports", "borrowed_names"]

# Data to try a piece on, and the checker itself, are no implementation of a piece.
ALLOWED = ("scratchgrad.datasets", "scratchgrad.exercises")

VALUE_METHODS = (
    "__init__",
    "__add__",
    "__mul__",
    "__pow__",
    "__neg__",
    "__sub__",
    "__truediv__",
    "__radd__",
    "__rmul__",
    "__rsub__",
    "__rtruediv__",
    "tanh",
    "exp",
    "log",
    "relu",
    "backward",
)


def borrowed_names(exercise: Exercise, namespace: dict) -> str:
    """A message naming what `exercise`'s provided names take from the package, or "" when nothing."""
    found = []
    for provided in exercise.provides:
        owner, _, method = provided.partition(".")
        thing = namespace.get(owner)
        if method:
            thing = getattr(thing, method, None)
        module = _book_module(thing)
        if module:
            found.append(f"{provided} is {module}'s")
        if isinstance(thing, type) and not method:
            for name in VALUE_METHODS:
                module = _book_module(getattr(thing, name, None))
                if module:
                    found.append(f"{provided}.{name} is {module}'s")
    if not found:
        return ""
    return (
        f"{'; '.join(found[:3])}: your code takes the book's implementation instead of writing it. "
        "Write the piece yourself — the checks grade your own code, and later pieces build on it"
    )


def _book_module(thing: object) -> str:
    module = getattr(thing, "__module__", None) or ""
    return module if _book_module_name(module) else ""


def book_imports(source: str) -> str:
    """A message naming the package modules `source` imports (other than data sets), or ""."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""  # compiling it reports the error, with its line
    modules = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module)
    book = sorted({m for m in modules if _book_module_name(m) and not m.startswith(ALLOWED)})
    if not book:
        return ""
    return (
        f"your code imports {', '.join(book)}: the book's own implementation. Write the piece "
        "yourself — the checks grade your own code, and later pieces build on it"
    )


def _book_module_name(name: str) -> bool:
    return name == "scratchgrad" or name.startswith("scratchgrad.")
