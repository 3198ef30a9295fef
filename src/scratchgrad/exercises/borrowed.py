"""Is the reader's piece their own? A piece that only imports the book's code is told so, not
passed: every name an exercise provides, and each backward rule and ``backward`` its Value carries,
must be compiled from the reader's own piece under their file name (not from the book's reference
solution, nor from text ``exec``'d at run time), and must not name a ``scratchgrad`` module or a
function of one among the globals it uses, since the book's implementations (`scratchgrad.engine`,
`scratchgrad.stages`, `scratchgrad.nn`, …) live in the package the checker runs beside.
"""

from __future__ import annotations

import ast
import contextlib
import types
from pathlib import Path

from scratchgrad.exercises.exercise import Exercise
from scratchgrad.exercises.sandbox import BOOK_FILE_PREFIX

__all__ = ["book_imports", "borrowed_names"]

# Data to try a piece on, and the checker itself, are no implementation of a piece; the pieces'
# reference solutions are.
ALLOWED = ("scratchgrad.datasets", "scratchgrad.exercises")
REFERENCE_SOLUTIONS = "scratchgrad.exercises._pieces"
PACKAGE_FOLDER = str(Path(__file__).resolve().parents[1])

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


def borrowed_names(exercise: Exercise, namespace: dict, source: str = "") -> str:
    """A message naming what `exercise`'s provided names take from the package, or "" when nothing.

    `source` is the reader's piece: a function of the reference solution counts as theirs only when
    compiled from it (they typed it), not when ``exec``'d from the solution's text under their name."""
    own = _own_codes(source)
    found = []
    for provided in exercise.provides:
        owner, _, method = provided.partition(".")
        thing = namespace.get(owner)
        if method:
            thing = getattr(thing, method, None)
        module = _book_module(thing)
        if module:
            found.append(f"{provided} is {module}'s")
        found += [f"{provided} {why}" for why in _not_written_here(thing, exercise, own)]
        if isinstance(thing, type) and not method:
            for name in VALUE_METHODS:
                module = _book_module(getattr(thing, name, None))
                if module:
                    found.append(f"{provided}.{name} is {module}'s")
                found += [
                    f"{provided}.{name} {why}"
                    for why in _not_written_here(vars(thing).get(name), exercise, own)
                ]
    if not found:
        return ""
    return (
        f"{'; '.join(found[:3])}: your code takes the book's implementation instead of writing it. "
        "Write the piece yourself — the checks grade your own code, and later pieces build on it"
    )


def _book_module(thing: object) -> str:
    module = getattr(thing, "__module__", None) or ""
    return module if _book_module_name(module) and _counts_as_the_book(module) else ""


def _counts_as_the_book(module: str) -> bool:
    return not module.startswith(ALLOWED) or module.startswith(REFERENCE_SOLUTIONS)


def _not_written_here(thing: object, exercise: Exercise, own: set) -> list[str]:
    """Why a function the reader provides is not their own writing: compiled from the book's file or
    reference, or ``exec``'d from the reference's very text (under any file name); or using a book
    module, one of its functions or the reference's code through a global, a default argument or a
    closure (a wrapper). Code made at run time by a library (a dataclass's ``__init__``) is the
    reader's. `own`: the code the reader's piece compiles to (`_own_codes`)."""
    code = getattr(thing, "__code__", None)
    if not isinstance(code, types.CodeType):
        return []
    where = code.co_filename
    if where.startswith(BOOK_FILE_PREFIX) or where.startswith(PACKAGE_FOLDER):
        return [f"was compiled from {where}, not from your piece"]
    if _is_the_reference(code, exercise, own):
        return [f"is the reference solution's own code, run from {where}"]
    used = set()
    for each in _codes_in(code):
        used |= set(each.co_names)
    globals_ = getattr(thing, "__globals__", {})
    reached = [(f"the name {name}", globals_.get(name)) for name in sorted(used)]
    reached += [("a default argument", default) for default in getattr(thing, "__defaults__", None) or ()]
    reached += [
        ("a default argument", default) for default in (getattr(thing, "__kwdefaults__", None) or {}).values()
    ]
    for cell in getattr(thing, "__closure__", None) or ():
        with contextlib.suppress(ValueError):  # an empty cell
            reached.append(("a variable it closes over", cell.cell_contents))
    reasons = []
    for how, target in reached:
        module = target.__name__ if isinstance(target, types.ModuleType) else _book_module(target)
        if module and _book_module_name(module) and _counts_as_the_book(module):
            reasons.append(f"calls {module}'s code through {how}")
        elif isinstance(getattr(target, "__code__", None), types.CodeType) and _is_the_reference(
            target.__code__, exercise, own
        ):
            reasons.append(f"calls the reference solution's code through {how}")
    return list(dict.fromkeys(reasons))


def _own_codes(source: str) -> set[tuple]:
    """(name, first line, instructions) of every function the reader's `source` compiles to."""
    try:
        compiled = compile(source, "<yours>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return set()
    return {(each.co_name, each.co_firstlineno, each.co_code) for each in _codes_in(compiled)}


def _is_the_reference(code: types.CodeType, exercise: Exercise, own: set) -> bool:
    """`code` is a function of the reference solution that the reader's piece did not compile to."""
    return (code.co_name, code.co_firstlineno, code.co_code) not in own and _same_as_the_reference(
        code, exercise
    )


def _same_as_the_reference(code: types.CodeType, exercise: Exercise) -> bool:
    """Whether `code` is, instruction for instruction, a function of `exercise`'s reference solution."""
    try:
        reference = compile(exercise.solution, "<reference>", "exec")
    except SyntaxError:
        return False
    return any(
        (each.co_name, each.co_code, each.co_names) == (code.co_name, code.co_code, code.co_names)
        for each in _codes_in(reference)
    )


def _codes_in(code: types.CodeType) -> list[types.CodeType]:
    """`code` and the code of every function defined inside it."""
    found = [code]
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found += _codes_in(constant)
    return found


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
    book = sorted({m for m in modules if _book_module_name(m) and _counts_as_the_book(m)})
    if not book:
        return ""
    return (
        f"your code imports {', '.join(book)}: the book's own implementation. Write the piece "
        "yourself — the checks grade your own code, and later pieces build on it"
    )


def _book_module_name(name: str) -> bool:
    return name == "scratchgrad" or name.startswith("scratchgrad.")
