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
  the closure stage is everything the story's engine has: rules, ``backward``, ``**``, ``exp``,
  ``-`` and ``/``. The stage `overwrite_bug` is the reader's engine with every ``.grad +=`` written
  ``.grad =`` (the break-it bug ``overwrite``, `scratchgrad.page.break_it`). ``by_hand`` and the
  textbook network (whose ``MLP`` takes a ``seed`` the exercise's does not) have no stand-in.
* **Which pieces, on which page**, `pieces_on`: the stage's pieces, built the way the checker builds
  them (`scratchgrad.exercises.runner.load_pieces`): the reader's passing code of a piece, the
  book's (the reference solution) for a piece not passed yet. One exception keeps the story's
  order: `FIXES` — the ``accumulate`` exercise rewrites the rules the reader wrote earlier, so it
  joins the engine only on the pages after its chapter; on "The += bug" and before it, the
  reader's rules run as they wrote them.
* **Which blocks**, `describe`: a block that imports a stage with a stand-in, on a chapter from
  the Value on (the story's chapters are those of the exercises, in their order), and every block
  below it, which uses the names it defined.

Example:
    >>> from scratchgrad.exercises.registry import by_id
    >>> [piece.id for piece in pieces_on("chain-rule", STAGES[1])]  # doctest: +NORMALIZE_WHITESPACE
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

import contextlib
import importlib
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scratchgrad.exercises.exercise import Exercise
from scratchgrad.exercises.registry import EXERCISES, by_id
from scratchgrad.exercises.report import PieceUse
from scratchgrad.exercises.runner import load_pieces
from scratchgrad.exercises.sandbox import Sandbox
from scratchgrad.page import break_it

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
"""Exercises that rewrite what the reader wrote before: in the engine only after their chapter."""

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
    """

    module: str
    names: Mapping[str, str]
    pieces: tuple[str, ...]
    starts: str
    bug: str | None = None


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
        "scratchgrad.stages.closures",
        {"Value": "Value", "topological_order_recursive": "topological_order"},
        _CLOSURE_PIECES,
        starts="local-derivatives",
    ),
    Stage(
        "scratchgrad.stages.overwrite_bug",
        {"Value": "Value"},
        _CLOSURE_PIECES,
        starts="local-derivatives",
        bug="overwrite",
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
    return [piece for piece in pieces if piece.id not in FIXES or CHAPTERS.index(piece.chapter) < here]


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
    for code in codes:
        for stage in _stages_in(code):
            for piece in pieces_on(page, stage):
                wanted[piece.id] = piece
    return [
        {"id": piece.id, "title": piece.title, "chapter": piece.chapter}
        for piece in EXERCISES
        if piece.id in wanted
    ]


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
        self.uses: list[PieceUse] = []

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
            self._stand_ins = [(stage, self._build(stage)) for stage in STAGES if pieces_on(self.page, stage)]
            self._say_which_pieces()
        return self._stand_ins

    def _build(self, stage: Stage) -> dict[str, Any]:
        pieces = pieces_on(self.page, stage)
        yours = {piece.id: self.passed[piece.id] for piece in pieces if piece.id in self.passed}
        namespace = _fresh_namespace()
        uses = load_pieces(pieces, yours, namespace, Sandbox(LOAD_TIME_LIMIT))
        bugs = [
            break_it.BUGS[name] for name in (stage.bug, self.bug) if name and break_it.BUGS[name].rewrites
        ]
        if bugs:  # every rule gets the bug, the book's pieces' too: = everywhere, as a reader would write it
            sources = {use.exercise: yours.get(use.exercise, by_id(use.exercise).solution) for use in uses}
            for each in bugs:
                sources = {exercise: each.rewrite(code) for exercise, code in sources.items()}
            namespace = _fresh_namespace()
            load_pieces(pieces, sources, namespace, Sandbox(LOAD_TIME_LIMIT))
        if stage.bug is None:
            self.uses.extend(use for use in uses if use not in self.uses)
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
        try:
            for stage, namespace in self.stand_ins:
                module = importlib.import_module(stage.module)
                for name, yours in stage.names.items():
                    if yours in namespace:
                        kept.append((module, name, module.__dict__[name]))
                        setattr(module, name, namespace[yours])
            classes = list({id(ns["Value"]): ns["Value"] for _, ns in self.stand_ins if "Value" in ns}.values())
            with break_it.switched_on_yours(bug, classes) if bug else contextlib.nullcontext():
                yield
        finally:
            for module, name, book in reversed(kept):
                setattr(module, name, book)
