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

__all__ = ["book_imports", "borrowed_names", "facts", "judged"]

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
    compiled from it (they typed it), not when ``exec``'d from the solution's text under their name.
    The two halves, `facts` and `judged`, may run in two processes: the facts where the reader's code
    ran, the judgement where the reader's code cannot reach it."""
    return judged(exercise, facts(exercise, namespace), source)


def facts(exercise: Exercise, namespace: dict) -> list[dict]:
    """Plain data on what `exercise`'s provided names are, read where the reader's code ran: for each
    name (and each method a provided class carries), its module, its code (`_code_facts`) and what
    that code reaches through a global, a default argument or a closure (the target's module and code).
    Only numbers, strings, lists and dicts: it crosses a pipe to `judged`."""
    found = []
    for provided in exercise.provides:
        owner, _, method = provided.partition(".")
        thing = namespace.get(owner)
        if method:
            thing = getattr(thing, method, None)
        found.append(_thing_facts(provided, thing, thing))
        if isinstance(thing, type) and not method:
            found += [
                _thing_facts(f"{provided}.{name}", getattr(thing, name, None), vars(thing).get(name))
                for name in VALUE_METHODS
            ]
    return found


def _thing_facts(name: str, looked_up: object, own: object) -> dict:
    """`looked_up`'s module, and the code and reach of `own` (the class's own attribute, for a method)."""
    code = getattr(own, "__code__", None)
    if not isinstance(code, types.CodeType):
        return {"name": name, "module": _module_of(looked_up), "code": None, "reached": []}
    used = set()
    for each in _codes_in(code):
        used |= set(each.co_names)
    globals_ = getattr(own, "__globals__", {})
    reached = [(f"the name {used_name}", globals_.get(used_name)) for used_name in sorted(used)]
    reached += [("a default argument", default) for default in getattr(own, "__defaults__", None) or ()]
    reached += [
        ("a default argument", default) for default in (getattr(own, "__kwdefaults__", None) or {}).values()
    ]
    for cell in getattr(own, "__closure__", None) or ():
        with contextlib.suppress(ValueError):  # an empty cell
            reached.append(("a variable it closes over", cell.cell_contents))
    return {
        "name": name,
        "module": _module_of(looked_up),
        "code": _code_facts(code),
        "reached": [
            [
                how,
                target.__name__ if isinstance(target, types.ModuleType) else _module_of(target),
                _code_facts(getattr(target, "__code__", None)),
            ]
            for how, target in reached
        ],
    }


def _module_of(thing: object) -> str:
    module = getattr(thing, "__module__", None)
    return module if isinstance(module, str) else ""


def _code_facts(code: object) -> list | None:
    """[file name, name, first line, instructions (hex), names] of a code object; None for no code."""
    if not isinstance(code, types.CodeType):
        return None
    return [code.co_filename, code.co_name, code.co_firstlineno, code.co_code.hex(), list(code.co_names)]


def judged(exercise: Exercise, found: object, source: str = "") -> str:
    """The message of `borrowed_names` from `facts` (as they came back over a pipe: anything that is
    not their shape counts as no facts, and the reader's code is then checked as their own)."""
    own = _own_codes(source)
    reasons = []
    try:
        for thing in found:
            name = str(thing["name"])
            if module := _book_module(thing["module"]):
                reasons.append(f"{name} is {module}'s")
            reasons += [f"{name} {why}" for why in _not_written_here(thing, exercise, own)]
    except (TypeError, KeyError, ValueError, IndexError):
        return ""
    if not reasons:
        return ""
    return (
        f"{'; '.join(reasons[:3])}: your code takes the book's implementation instead of writing it. "
        "Write the piece yourself — the checks grade your own code, and later pieces build on it"
    )


def _book_module(module: object) -> str:
    module = module if isinstance(module, str) else ""
    return module if _book_module_name(module) and _counts_as_the_book(module) else ""


def _counts_as_the_book(module: str) -> bool:
    return not module.startswith(ALLOWED) or module.startswith(REFERENCE_SOLUTIONS)


def _not_written_here(thing: dict, exercise: Exercise, own: set) -> list[str]:
    """Why a function the reader provides is not their own writing: compiled from the book's file or
    reference, or ``exec``'d from the reference's very text (under any file name); or using a book
    module, one of its functions or the reference's code through a global, a default argument or a
    closure (a wrapper). Code made at run time by a library (a dataclass's ``__init__``) is the
    reader's. `thing`: one entry of `facts`; `own`: the code the reader's piece compiles to (`_own_codes`)."""
    code = thing["code"]
    if code is None:
        return []
    where = str(code[0])
    if where.startswith(BOOK_FILE_PREFIX) or where.startswith(PACKAGE_FOLDER):
        return [f"was compiled from {where}, not from your piece"]
    if _is_the_reference(code, exercise, own):
        return [f"is the reference solution's own code, run from {where}"]
    reasons = []
    for how, module, target_code in thing["reached"]:
        if _book_module(module):
            reasons.append(f"calls {module}'s code through {how}")
        elif target_code is not None and _is_the_reference(target_code, exercise, own):
            reasons.append(f"calls the reference solution's code through {how}")
    return list(dict.fromkeys(reasons))


def _own_codes(source: str) -> set[tuple]:
    """(name, first line, instructions) of every function the reader's `source` compiles to."""
    try:
        compiled = compile(source, "<yours>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return set()
    return {(each.co_name, each.co_firstlineno, each.co_code.hex()) for each in _codes_in(compiled)}


def _is_the_reference(code: list, exercise: Exercise, own: set) -> bool:
    """`code` (`_code_facts`) is a reference solution's function the reader's piece did not compile to."""
    _, name, first, instructions, names = code
    return (name, first, instructions) not in own and _same_as_the_reference(
        (name, instructions, tuple(names)), exercise
    )


def _same_as_the_reference(code: tuple, exercise: Exercise) -> bool:
    """Whether `code` (name, instructions in hex, names) is, instruction for instruction, a function of
    `exercise`'s reference solution."""
    try:
        reference = compile(exercise.solution, "<reference>", "exec")
    except SyntaxError:
        return False
    return any((each.co_name, each.co_code.hex(), each.co_names) == code for each in _codes_in(reference))


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
