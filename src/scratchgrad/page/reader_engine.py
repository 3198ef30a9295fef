"""The reader's engine in the story: a chapter's blocks run on the Value the reader wrote.

A chapter's blocks import the story's stage of the engine (``from scratchgrad.stages.closures
import Value``). With "Run with: my engine" on the page, the reader's own pieces — their `Value`
and its rules, their `topological_order`, their `backward` — stand in for that stage while a
block runs, so the chapter's own examples print the reader's numbers. A correct engine prints the
book's output; a wrong one shows its wrong numbers, and the drawn graph's "Check gradients" marks
the nodes they are on (the drawing takes any Value, `scratchgrad.graph.is_value`).

The rules, owned here and nowhere else:

* **Which stages**, `STAGES`: each stage a reader's engine can stand in for, the names it gives and
  the exercises whose pieces make them. The first stage, `graph_only`, is the reader's first Value;
  ``by_hand`` is that Value with the stage's own additions (a ``grad`` on every node, ``tanh``:
  the book's code, run on the reader's class as an exercise re-opens it) and the reader's walk,
  ``backprop_by_hand``; the closure stage is everything the story's engine has: rules,
  ``backward``, ``**``, ``exp``, ``-`` and ``/``. The stage `overwrite_bug` is the reader's engine
  with every ``.grad +=`` written ``.grad =`` (the break-it bug ``overwrite``,
  `scratchgrad.page.break_it`). The textbook network, `textbook_nn`, is the reader's ``Neuron``,
  ``Layer``, ``MLP`` and training loop ``train`` on *the same* closure-stage Value (it `extends`
  that stand-in); their ``MLP`` takes the book's ``rng=`` and starts from the book's weights for
  it, so that a correct network prints the book's numbers.
* **Which pieces, on which page**, `pieces_on`: the stage's pieces, built the way the checker builds
  them (`scratchgrad.exercises.runner.load_pieces`): the reader's passing code of a piece, the
  book's (the reference solution) for a piece not passed yet. One exception keeps the story's
  order: `FIXES` — the ``accumulate`` exercise rewrites the rules the reader wrote earlier, so it
  joins the engine from its chapter on; before "The += bug" the reader's rules run as they wrote
  them (``=``, as the book's stage of those chapters, `overwrite_bug`, does). On "The += bug" the
  ``=`` stage is the reader's rules as they wrote them and the closure stage their fix (the
  book's until they pass it), so "with =" and "with +=" are true of what runs.
* **Which blocks**, `describe`: a block that imports a stage with a stand-in, on a chapter from
  the Value on (the story's chapters are those of the exercises, in their order), and every block
  below it that reads a name such a block binds (its Values, a function made of them, a model), and
  so on down the page. A block below that uses only the package runs on the book's engine and is
  not marked as the reader's; the names it binds (``from scratchgrad import Value``) are then the
  book's for the blocks below it too.

Example:
    >>> from scratchgrad.exercises.registry import by_id
    >>> [piece.id for piece in pieces_on("chain-rule", STAGES[2])]  # doctest: +NORMALIZE_WHITESPACE
    ['value-graph', 'tanh-derivative', 'local-derivatives', 'topological-order', 'backward',
     'power-and-exp', 'composed-ops']
    >>> wrong = by_id("local-derivatives").solution.replace(".grad +=", ".grad =")
    >>> engine = ReaderEngine.load("chain-rule", {"local-derivatives": wrong})
    >>> with engine.standing_in():
    ...     from scratchgrad.stages.closures import Value
    ...     a = Value(3.0)
    ...     (a + a).backward()
    >>> a.grad  # the reader's = kept one share of two
    1.0
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import json
import linecache
import math
import random
import re
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scratchgrad import nn
from scratchgrad.exercises.exercise import Exercise
from scratchgrad.exercises.registry import EXERCISES, by_id
from scratchgrad.exercises.report import PieceUse
from scratchgrad.exercises.runner import load_pieces
from scratchgrad.exercises.sandbox import Sandbox
from scratchgrad.page import break_it
from scratchgrad.stages import by_hand

__all__ = [
    "CHAPTERS",
    "FIXES",
    "STAGES",
    "ReaderEngine",
    "Stage",
    "describe",
    "pieces_on",
]

CHAPTERS: tuple[str, ...] = tuple(dict.fromkeys(exercise.chapter for exercise in EXERCISES))
"""The story's chapters that have exercises, in the order of the story."""

FIXES = ("accumulate",)
"""Exercises that rewrite what the reader wrote before: in the engine only from their chapter on."""

LOAD_TIME_LIMIT = 10.0
"""Seconds the reader's pieces may take to load (a loop that never ends at load time stops)."""


@dataclass(frozen=True)
class Stage:
    """A stage of the story a reader's engine stands in for.

    Attributes:
        module: the stage's module, as a block imports it.
        names: the stage's name → the name in the reader's engine that stands in for it.
        pieces: the exercises whose pieces make those names, in the order of the story.
        starts: the piece that makes the reader's engine this stage: from its chapter on, it stands in.
        bug: a break-it bug (`scratchgrad.page.break_it.BUGS`) always written into this stand-in.
        extends: the module of a stage whose stand-in this one continues: its pieces are loaded into
            that stand-in's namespace, so both give the same Value class.
        adapt: the book's additions the stage needs around the reader's pieces, applied to the
            namespace once they are loaded.
    """

    module: str
    names: Mapping[str, str]
    pieces: tuple[str, ...]
    starts: str
    bug: str | None = None
    extends: str | None = None
    adapt: Callable[[dict[str, Any]], None] | None = None


def _section(module: types.ModuleType, name: str) -> str:
    """The lines of `module`'s snippet section `name` (``# --8<-- [start:name]``), as the pages show it."""
    source = inspect.getsource(module)
    start = source.index(f"# --8<-- [start:{name}]\n") + len(f"# --8<-- [start:{name}]\n")
    end = source.index(f"# --8<-- [end:{name}]", start)
    return source[start : source.rindex("\n", start, end) + 1]


def _with_grad_and_tanh(namespace: dict[str, Any]) -> None:
    """The by_hand stage on the reader's Value: the book's ``grad`` and ``tanh`` (its ``init`` and
    ``tanh`` sections), re-opening the reader's class as ``class Value(Value)`` would: their ``+``
    and ``*`` then make Values with a ``grad`` too."""
    if "Value" not in namespace:
        return
    namespace["graph_only"] = types.SimpleNamespace(Value=namespace["Value"])
    namespace.setdefault("math", math)
    source = _section(by_hand, "init") + _section(by_hand, "tanh")
    exec(compile(source, inspect.getsourcefile(by_hand) or "by_hand.py", "exec"), namespace)


def _started_like_the_books(namespace: dict[str, Any]) -> None:
    """The reader's ``MLP`` with the book's ``rng=``: it is built as the reader wrote it (their
    random draws leave `random`'s state as it was), then every parameter starts at the book's
    value for that seed (as `scratchgrad.stages.textbook_nn.MLP` draws it), in ``parameters()`` order. A
    network whose ``parameters()`` has another length keeps its own draws. (The package's
    `scratchgrad.nn.MLP` draws them: the same weights, in the same order, and never the reader's
    stand-in, as the stage's own classes are while a block runs.)"""
    yours = namespace.get("MLP")
    if not isinstance(yours, type):
        return

    class MLP(yours):  # type: ignore[misc, valid-type]
        def __init__(self, nin: int, nouts: list[int], rng: int = 0) -> None:
            state = random.getstate()
            try:
                super().__init__(nin, list(nouts))
            finally:
                random.setstate(state)
            starts = nn.MLP(nin, list(nouts), rng=rng).parameters()  # the book's weights, drawn alike
            parameters = self.parameters()
            if len(parameters) == len(starts):
                for parameter, start in zip(parameters, starts, strict=True):
                    parameter.data = start.data

    MLP.__qualname__ = MLP.__name__ = yours.__name__
    namespace["MLP"] = MLP


_CLOSURE_PIECES = (
    "value-graph",
    "tanh-derivative",
    "local-derivatives",
    "topological-order",
    "backward",
    "accumulate",
    "power-and-exp",
    "composed-ops",
)
STAGES: tuple[Stage, ...] = (
    Stage("scratchgrad.stages.graph_only", {"Value": "Value"}, ("value-graph",), starts="value-graph"),
    Stage(
        "scratchgrad.stages.by_hand",
        {"Value": "Value", "backprop_by_hand": "backprop_by_hand"},
        ("value-graph", "backprop-by-hand"),
        starts="value-graph",
        adapt=_with_grad_and_tanh,
    ),
    Stage(
        "scratchgrad.stages.closures",
        {"Value": "Value", "topological_order_recursive": "topological_order"},
        _CLOSURE_PIECES,
        starts="local-derivatives",
    ),
    Stage(
        "scratchgrad.stages.overwrite_bug",
        {"Value": "Value", "topological_order_recursive": "topological_order"},
        _CLOSURE_PIECES,
        starts="local-derivatives",
        bug="overwrite",
    ),
    Stage(
        "scratchgrad.stages.textbook_nn",
        {"Neuron": "Neuron", "Layer": "Layer", "MLP": "MLP", "train": "train"},
        ("mlp", "training"),
        starts="mlp",
        extends="scratchgrad.stages.closures",
        adapt=_started_like_the_books,
    ),
)


def pieces_on(page: str, stage: Stage) -> list[Exercise]:
    """The exercises whose pieces stand in for `stage` on `page` (a chapter), in the order of the story.

    Empty when the page is not a chapter of the story, or comes before the chapter of `stage.starts`.
    """
    if page not in CHAPTERS:
        return []
    here = CHAPTERS.index(page)
    if CHAPTERS.index(by_id(stage.starts).chapter) > here:
        return []
    pieces = [by_id(piece) for piece in stage.pieces]
    own = [piece for piece in pieces if piece.id not in FIXES or CHAPTERS.index(piece.chapter) <= here]
    return (pieces_on(page, _stage(stage.extends)) if stage.extends else []) + own


def _stage(module: str) -> Stage:
    return next(stage for stage in STAGES if stage.module == module)


def _stages_in(code: str) -> list[Stage]:
    """The stages `code` imports: by their module's full name, or by name from their package."""
    found = []
    for stage in STAGES:
        package, _, name = stage.module.rpartition(".")
        by_package = any(
            line.lstrip().startswith(f"from {package} import") and name in line.split("import", 1)[1]
            for line in code.splitlines()
        )
        if stage.module in code or by_package:
            found.append(stage)
    return found


def describe(page: str, codes: list[str]) -> list[dict[str, str]]:
    """The pieces a block runs on with "my engine", given `codes`, its own and those of the blocks above
    it on `page`: one ``{"id", "title", "chapter"}`` per exercise (JSON-ready, for the page's control),
    in the order of the story. Empty: the block runs on the book's engine whatever the choice."""
    wanted: dict[str, Exercise] = {}
    yours: set[str] = set()  # the names bound by the blocks that run on the reader's engine
    on_yours = False
    for code in codes:
        stages = [stage for stage in _stages_in(code) if pieces_on(page, stage)]
        read, bound = _names(code)
        on_yours = bool(stages) or bool(read & yours)
        if on_yours:
            yours |= bound
        else:  # rebound by the book's engine (the package's Value): no longer the reader's
            yours -= bound
        for stage in stages:
            for piece in pieces_on(page, stage):
                wanted[piece.id] = piece
    if not on_yours:
        return []
    return [
        {"id": piece.id, "title": piece.title, "chapter": piece.chapter}
        for piece in EXERCISES
        if piece.id in wanted
    ]


def _names(code: str) -> tuple[set[str], set[str]]:
    """The names `code` reads from the blocks above it, and the names it binds (assigned, defined,
    imported). A name counts as read from above unless the block bound it before, in an earlier
    statement or in the same one (a loop's variable, a function's arguments). A block that does not
    parse reads every name it mentions and binds none."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set(re.findall(r"[A-Za-z_]\w*", code)), set()
    from_above: set[str] = set()
    bound: set[str] = set()
    for statement in tree.body:
        read, inside = set(), set()  # inside: bound somewhere in the statement, a function's too
        for node in ast.walk(statement):
            if isinstance(node, ast.Name):
                (read if isinstance(node.ctx, ast.Load) else inside).add(node.id)
            elif isinstance(node, ast.arg):
                inside.add(node.arg)
        from_above |= read - bound - inside
        bound |= _bound_by(statement)
    return from_above, bound


def _bound_by(statement: ast.stmt) -> set[str]:
    """The names a statement of a block binds for the statements after it (not a function's own)."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    names = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            break  # defined inside: not the block's
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
    return names


GRAFTED_FROM = {
    "scratchgrad.stages.closures": "scratchgrad.stages.closures",
    "scratchgrad.stages.overwrite_bug": "scratchgrad.stages.closures",
}
"""The stage whose operations a stand-in's Value gets where the reader has none of their own."""


def _graft_the_books_ops(namespace: dict[str, Any], book: types.ModuleType) -> set[str]:
    """Give the reader's Value (in `namespace`) each operation of the book's stage `book` it lacks
    (``log``, ``sigmoid``, ``relu``, …: no exercise asks for them), so that a chapter's block never
    stops at an AttributeError. As a later piece does, it re-opens their class (``class
    Value(Value)``) rather than patching it: each op is the book's own function, run with this Value
    where the book's code makes a new one, and says so the first time a block uses it. Returns the
    names."""
    yours = namespace.get("Value")
    if not isinstance(yours, type):
        return set()
    books = book.Value
    scope = dict(vars(book))  # "Value" below, once the class exists: looked up when an op runs
    given: dict[str, Any] = {}
    for name in dir(books):
        function = inspect.getattr_static(books, name)
        if (name.startswith("_") and name not in _OPERATORS) or not isinstance(function, types.FunctionType):
            continue
        if hasattr(yours, name):
            continue
        books_own = types.FunctionType(
            function.__code__, scope, name, function.__defaults__, function.__closure__
        )
        given[name] = _named_when_first_used(books_own)
    if given:
        own = {"__module__": yours.__module__, "__qualname__": yours.__qualname__}
        namespace["Value"] = scope["Value"] = type(yours.__name__, (yours,), own | given)
    return set(given)


def _named_when_first_used(function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, which says once, when first called, that it is the book's and not the reader's."""
    told = False

    @functools.wraps(function)
    def books(*args: Any, **kwargs: Any) -> Any:
        nonlocal told
        if not told:
            told = True
            note = f"({function.__name__}: the book's, on your Value: no exercise asks you to write it)"
            print(note, file=sys.stderr)
        return function(*args, **kwargs)

    return books


_OPERATORS = frozenset(
    f"__{name}__"
    for name in ("add", "mul", "pow", "neg", "sub", "truediv", "radd", "rmul", "rsub", "rtruediv")
)


def _with_bugs(bugs: list[str], source: str) -> str:
    """`source` with each of `bugs` (names of `scratchgrad.page.break_it.BUGS`) written in."""
    for name in bugs:
        source = break_it.BUGS[name].rewrite(source)
    return source


def _fresh_namespace() -> dict[str, Any]:
    return {"__name__": "__your_engine__", "__builtins__": __builtins__}


_BUILT: dict[tuple[str, str, str | None], ReaderEngine] = {}


class ReaderEngine:
    """The reader's engine for the blocks of one page: what stands in for each stage there.

    Kept once per page, set of passed pieces and bug (`load`), so that every block of the page gets
    the *same* class: a Value made in one block works with the next block's. It is built the first
    time a block runs on it, inside that run: a piece that loops forever when loaded is stopped
    like the block, and reported as the block's error.
    """

    def __init__(self, page: str, passed: Mapping[str, str], bug: str | None = None) -> None:
        self.page = page
        self.bug = bug
        self.passed = {id_: code for id_, code in passed.items() if isinstance(code, str)}
        self._stand_ins: list[tuple[Stage, dict[str, Any]]] | None = None
        self._lines: dict[str, tuple] = {}  # file name → linecache entry of the code it was built from
        self.uses: list[PieceUse] = []
        self.grafted: set[str] = set()

    @classmethod
    def load(cls, page: str, passed: Mapping[str, str] | str, bug: str | None = None) -> ReaderEngine:
        """The engine of `page` from `passed` (exercise id → passing code, or that as JSON), kept.

        `bug`: a break-it switch's bug, written into the reader's code when it can be
        (`scratchgrad.page.break_it.Bug.rewrites`: an engine of its own). A bug that cannot be
        written in gets the page's engine, whose classes `standing_in` switches it into for the run.
        """
        if isinstance(passed, str):
            passed = json.loads(passed)
        if bug is not None and not break_it.BUGS[bug].rewrites:
            bug = None  # switched on around the run instead (`standing_in`): the page's own classes
        key = (page, json.dumps(dict(passed), sort_keys=True), bug)
        if key not in _BUILT:
            if len(_BUILT) >= 8:  # a page's few variants; an old one is built again if needed
                _BUILT.clear()
            _BUILT[key] = cls(page, passed, bug)
        return _BUILT[key]

    @property
    def stand_ins(self) -> list[tuple[Stage, dict[str, Any]]]:
        """(stage, the namespace of the reader's engine that stands in for it) for each stage of the page."""
        if self._stand_ins is None:
            built: dict[str, dict[str, Any]] = {}
            before = dict(linecache.cache)
            for stage in STAGES:
                if pieces_on(self.page, stage):
                    built[stage.module] = self._build(stage, built.get(stage.extends or ""))
            # Another engine (the reader's earlier code, kept in _BUILT) compiles under the same file
            # names: each run puts this engine's own lines back, so what it quotes is what it runs.
            self._lines = {
                name: entry for name, entry in linecache.cache.items() if before.get(name) is not entry
            }
            self._stand_ins = [(_stage(module), namespace) for module, namespace in built.items()]
            self._say_which_pieces()
        return self._stand_ins

    def _build(self, stage: Stage, extended: dict[str, Any] | None = None) -> dict[str, Any]:
        if extended is not None:  # the stage's own pieces, on the stand-in it continues
            pieces = [piece for piece in pieces_on(self.page, stage) if piece.id in stage.pieces]
            yours = {piece.id: self.passed[piece.id] for piece in pieces if piece.id in self.passed}
            uses = load_pieces(pieces, yours, extended, Sandbox(LOAD_TIME_LIMIT))
            self.uses.extend(use for use in uses if use not in self.uses)
            if stage.adapt:
                stage.adapt(extended)
            return extended
        pieces = pieces_on(self.page, stage)
        yours = {piece.id: self.passed[piece.id] for piece in pieces if piece.id in self.passed}
        namespace = _fresh_namespace()
        uses = load_pieces(pieces, yours, namespace, Sandbox(LOAD_TIME_LIMIT))
        bugs = list(
            dict.fromkeys(name for name in (stage.bug, self.bug) if name and break_it.BUGS[name].rewrites)
        )
        if bugs:  # every rule gets the bug, the book's pieces' too: = everywhere, as a reader would write it
            namespace = _fresh_namespace()
            load_pieces(
                pieces,
                yours,
                namespace,
                Sandbox(LOAD_TIME_LIMIT),
                rewrite=functools.partial(_with_bugs, bugs),
                rewritten=f"with the {' and '.join(bugs)} bug",
            )
        if stage.bug is None:
            self.uses.extend(use for use in uses if use not in self.uses)
        if stage.adapt:
            stage.adapt(namespace)
        if stage.module in GRAFTED_FROM:
            self.grafted |= _graft_the_books_ops(
                namespace, importlib.import_module(GRAFTED_FROM[stage.module])
            )
        return namespace

    def _say_which_pieces(self) -> None:
        """Tell the reader, once, which of their pieces raised when loaded (the book's stood in)."""
        for use in self.uses:
            if use.note:
                title = by_id(use.exercise).title
                print(
                    f"(your “{title}” {use.note.removeprefix('yours ')}: the book's is used)", file=sys.stderr
                )

    @contextlib.contextmanager
    def standing_in(self, bug: str | None = None) -> Iterator[None]:
        """While inside, each stage's names are the reader's (``from scratchgrad.stages.closures
        import Value`` gives their Value); the book's are put back afterwards, whatever happens.

        `bug`: a break-it switch's bug that reaches the reader's classes rather than their code
        (`scratchgrad.page.break_it.Bug.yours_replaces`), such as ``wrong-order``: the Values made
        by the blocks above, on this same engine, walk their graph the wrong way in this run.
        """
        kept = []
        # Every stage imported before any is replaced: a stage that imports another (textbook_nn
        # takes closures' Value) must bind the book's, not the stand-in of the moment.
        modules = [importlib.import_module(stage.module) for stage, _ in self.stand_ins]
        linecache.cache.update(self._lines)
        try:
            for (stage, namespace), module in zip(self.stand_ins, modules, strict=True):
                for name, yours in stage.names.items():
                    if yours in namespace:
                        kept.append((module, name, module.__dict__[name]))
                        setattr(module, name, namespace[yours])
            engines = list({id(namespace): namespace for _, namespace in self.stand_ins}.values())
            with break_it.switched_on_yours(bug, engines) if bug else contextlib.nullcontext():
                yield
        finally:
            for module, name, book in reversed(kept):
                setattr(module, name, book)
