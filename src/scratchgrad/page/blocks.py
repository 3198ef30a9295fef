"""What a runnable block of the tutorial is: one definition for the site's build and the browser.

A chapter's ```` ```python run ```` blocks run when the site is built (CPython, ``hooks/runnable.py``)
and again whenever a reader presses Run (Pyodide, ``web/worker/python-worker.js``); both import
this module, so a block means the same in both places: the blocks of a page share a fresh
namespace seeded with `PAGE_SEED` (`new_namespace`), a block has one file name in tracebacks
(`block_filename`), a run has one `Outcome` (printed text, the exception and its classes, the
traceback from the reader's code down, the drawings asked for with ``graph=``, ``show_graph`` or
``curve=``) and one verdict (`Outcome.as_expected`: raise nothing, or what ``expect=`` names). The
worker calls `run_for_page` and hands the page the outcome and verdict as JSON, so the page never
judges a run itself.
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import math
import random
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "CURVE_MIME_TYPE",
    "DOT_MIME_TYPE",
    "FILENAME_FORMAT",
    "PAGE_SEED",
    "RECURSION_LIMIT",
    "STARTUP_MODULES",
    "STUDY_MIME_TYPE",
    "Display",
    "DisplayFunction",
    "Outcome",
    "Raised",
    "block_filename",
    "forget_imported_packages",
    "new_namespace",
    "run_block",
    "run_for_page",
    "set_display",
    "show_curve",
    "show_graph",
]

PAGE_SEED = 0
"""The seed of the global `random` whenever a page namespace is made."""

RECURSION_LIMIT = 1000
"""`sys.getrecursionlimit()` while a block runs: CPython's and Pyodide's default, whatever the build's
own tools set for themselves (mkdocstrings raises it to 2000)."""

DOT_MIME_TYPE = "text/vnd.graphviz"
"""The kind of a graph drawing request: its data is DOT text."""

STUDY_MIME_TYPE = "application/vnd.scratchgrad.graph-study+json"
"""The kind of the drawing that follows each graph: JSON from `scratchgrad.drawn_graph.study.to_json`, for the
graph drawn just before it (the page's "Step through backward" and "Check gradients")."""

CURVE_MIME_TYPE = "application/vnd.scratchgrad.curve+json"
"""The kind of a training curve (`show_curve`): JSON ``{"loss": [...], "accuracy": [...] or null}``, one
number per step; a loss that is not a finite number (the run diverged) is null."""

FILENAME_FORMAT = "<{page} block {number}>"
"""The name of a block's code in tracebacks; `page` is the page's path without ``.md``, `number`
counts the page's blocks from 1, as the editor's label does."""

STARTUP_MODULES = frozenset(sys.modules)
"""What was imported when this module was: Python's and Pyodide's own modules, and this package."""

_PACKAGE = __name__.partition(".")[0]

DisplayFunction = Callable[[str, str, str], None]
"""Sends a drawing to the page as it is asked for: (mime type, data, label)."""


def block_filename(page: str, index: int) -> str:
    """The name of block `index` (from 0) of `page` in tracebacks, counted from 1 as the reader
    sees it: ``block_filename("chain-rule", 3)`` is ``"<chain-rule block 4>"``."""
    return FILENAME_FORMAT.format(page=page, number=index + 1)


@dataclass(frozen=True)
class Raised:
    """The exception a block raised, as the page shows and judges it.

    Attributes:
        names: the exception's class and every base class, most specific first
            (``["ZeroDivisionError", "ArithmeticError", "Exception", "BaseException", "object"]``).
        line: its last traceback line, ``"ZeroDivisionError: division by zero"``.
        traceback: the traceback from the first frame of the reader's block down.
    """

    names: list[str]
    line: str
    traceback: str

    @classmethod
    def of(cls, error: BaseException, filename: str) -> Raised:
        return cls(
            names=[base.__name__ for base in type(error).__mro__],
            line=traceback.format_exception_only(error)[-1].strip(),
            traceback=_reader_traceback(error, filename),
        )


@dataclass(frozen=True)
class Display:
    """A drawing a block asked for: `data` of kind `mime_type`, under `label` (a graph option's
    expression, or what ``show_graph(..., label=)`` was given)."""

    mime_type: str
    data: str
    label: str


@dataclass(frozen=True)
class Outcome:
    """What one run of a block did: a small record, the same in the build and in the browser.

    Attributes:
        printed: what the block printed (stdout and stderr in one stream), when the run captured
            it (the build); in the browser printing streams to the page as it happens and this is "".
        raised: the exception that ended the block, or None.
        drawings: the drawings the block asked for, when no page was there to take them as they came
            (the build); in the browser they went to the page through `set_display`'s function.
    """

    printed: str
    raised: Raised | None
    drawings: list[Display]

    def as_expected(self, expect: str | None) -> bool:
        """True when the block did what its ``expect`` option says: no error without one,
        otherwise an exception of class `expect` or of a subclass of it."""
        if self.raised is None:
            return expect is None
        return expect is not None and expect in self.raised.names

    def to_json(self, expect: str | None = None) -> str:
        """The record as JSON text, with its verdict against `expect` as ``as_expected``: how the
        worker hands it to the page."""
        return json.dumps({**asdict(self), "as_expected": self.as_expected(expect)})


_display: DisplayFunction | None = None
_collected: list[Display] | None = None


def set_display(display: DisplayFunction | None) -> None:
    """Install the function that sends drawings (mime type, data, label) to the page as they come;
    None collects them into each run's `Outcome` instead."""
    global _display
    _display = display


def show_graph(root: Any, label: str = "", **options: Any) -> None:
    """Draw the computation graph that produced `root` below the block.

    `root` is a Value of the package, of one of the story's stages, or of the reader's own class
    (see `scratchgrad.graph.is_value`); `options` go to `scratchgrad.graph.to_dot`
    (e.g. ``rankdir="TB"``). A graph of more than `scratchgrad.graph.DRAW_LIMIT` Values is
    summarised in one box instead. Its study follows the drawing (`STUDY_MIME_TYPE`).
    """
    from scratchgrad import graph  # at call time: after a Restart, the package as it is now
    from scratchgrad.drawn_graph import study

    if not graph.is_value(root):
        raise TypeError(f"show_graph() draws the graph of a Value, got {type(root).__name__}")
    dot, study_json = study.dot_and_study(root, **options)
    _send(Display(DOT_MIME_TYPE, dot, label))
    _send(Display(STUDY_MIME_TYPE, study_json, label))


def show_curve(run: Any, label: str = "") -> None:
    """Draw a training run's loss per step below the block (the accuracy too, when it has one).

    `run` is a `scratchgrad.train.History` (its ``loss`` and ``accuracy``) or a list of losses.
    """
    losses = getattr(run, "loss", run)
    accuracy = getattr(run, "accuracy", None)
    try:
        curve = {
            "loss": [_finite_or_none(x) for x in losses],
            "accuracy": None if accuracy is None else [_finite_or_none(x) for x in accuracy],
        }
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"a curve is drawn from a History or a list of losses, got {type(run).__name__}: {error}"
        ) from None
    _send(Display(CURVE_MIME_TYPE, json.dumps(curve, allow_nan=False), label))


def _finite_or_none(x: Any) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def _send(drawing: Display) -> None:
    if _display is not None:
        _display(drawing.mime_type, drawing.data, drawing.label)
    elif _collected is not None:
        _collected.append(drawing)
    else:
        raise RuntimeError("show_graph() draws below a runnable block: call it in a block's code")


def new_namespace() -> dict[str, Any]:
    """A fresh namespace for the blocks of one page, with `random` seeded with `PAGE_SEED`.

    ``show_graph`` is the one name added to it: a reader can draw any Value.
    """
    random.seed(PAGE_SEED)
    return {"__name__": "__main__", "show_graph": show_graph}


def run_block(
    code: str,
    filename: str,
    namespace: dict[str, Any],
    graphs: Sequence[str] = (),
    capture: bool = False,
    bug: str | None = None,
    curves: Sequence[str] = (),
    engine: Any = None,
) -> Outcome:
    """Run one block in `namespace` and say what it did.

    `filename` names the block in tracebacks (`block_filename`); its source goes into `linecache`,
    so a traceback quotes the reader's line as for a file on disk. `graphs` are the expressions of
    the block's ``graph=`` option: once the block has run, the graph of each one's Value is drawn;
    `curves`, of its ``curve=`` option, the training run each one names (`show_curve`).
    With `capture`, what the block prints is collected into the outcome (the build); without, it
    goes to `sys.stdout` and `sys.stderr` as it is printed (the browser streams it to the page),
    and both are flushed before returning, so a last ``print(..., end="")`` is not held back.
    Every exception is caught and reported, the reader's KeyboardInterrupt and SystemExit too.
    With `bug` (a name of `scratchgrad.page.break_it.BUGS`: a break-it switch), the block runs with that bug
    switched into the package, in a copy of `namespace` and with `random`'s state put back after:
    neither what it defines nor the random numbers it draws reach the blocks below.
    With `engine` (a `scratchgrad.page.reader_engine.ReaderEngine`: "Run with: my engine"), the
    reader's own pieces stand in for the story's stages while the block runs.
    """
    global _collected
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    printed = io.StringIO()
    drawings: list[Display] = []
    raised = None
    _collected = drawings
    try:
        with (
            _recursion_limit(RECURSION_LIMIT),
            _printing_into(printed if capture else None),
            _bug(bug),
            _yours(engine, bug),
        ):
            if bug is not None:
                namespace = dict(namespace)
            exec(compile(code, filename, "exec"), namespace)
            for expression in graphs:
                show_graph(eval(expression, namespace), label=expression)
            for expression in curves:
                show_curve(eval(expression, namespace), label=expression)
    except BaseException as error:  # the block's own error: reported, or expected
        raised = Raised.of(error, filename)
    finally:
        _collected = None
        sys.stdout.flush()
        sys.stderr.flush()
    return Outcome(printed.getvalue(), raised, drawings)


def run_for_page(
    code: str,
    *,
    namespace: dict[str, Any],
    page: str | None = None,
    index: int | None = None,
    filename: str | None = None,
    expect: str | None = None,
    graphs: Sequence[str] = (),
    curves: Sequence[str] = (),
    bug: str | None = None,
    engine: Any = None,
) -> str:
    """Run code for the browser's page and return its outcome and verdict as JSON (`Outcome.to_json`).

    A block is named by its `page` and `index` (`block_filename`) and judged against its `expect`
    option; other code the page runs (the work file's, the playground's program) gives its own
    `filename`. The rest is `run_block`'s (`engine` too: "Run with: my engine"), with printing
    streamed to the page.
    """
    if filename is None:
        if page is None or index is None:
            raise TypeError("run_for_page() needs a block's page and index, or a filename")
        filename = block_filename(page, index)
    outcome = run_block(code, filename, namespace, graphs, bug=bug, curves=curves, engine=engine)
    return outcome.to_json(expect)


@contextlib.contextmanager
def _bug(name: str | None) -> Iterator[None]:
    """Switch bug `name` on for a run (nothing for None), and put `random`'s state back after it."""
    if name is None:
        yield
        return
    from scratchgrad.page import break_it  # at call time: after a Restart, the package as it is now

    drawn_so_far = random.getstate()
    try:
        with break_it.switched_on(name):
            yield
    finally:
        random.setstate(drawn_so_far)


def _yours(engine: Any, bug: str | None) -> contextlib.AbstractContextManager:
    """The reader's engine standing in for the story's stages (after a bug's switch: theirs wins),
    with the bug switched into their classes where it reaches them."""
    return contextlib.nullcontext() if engine is None else engine.standing_in(bug)


@contextlib.contextmanager
def _recursion_limit(limit: int) -> Iterator[None]:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@contextlib.contextmanager
def _printing_into(stream: io.StringIO | None) -> Iterator[None]:
    if stream is None:
        yield
        return
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        yield


def _reader_traceback(error: BaseException, filename: str) -> str:
    """Format `error` from the first frame of the reader's block on.

    The frames above it (this runner, the build or Pyodide's machinery) are dropped; frames below
    it (say, inside ``scratchgrad``) stay, since they are part of what the reader's code did.
    A SyntaxError has no frame of the reader's: it is shown alone, pointing at the line.
    """
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def forget_imported_packages(baseline: Set[str] = STARTUP_MODULES) -> list[str]:
    """Drop the package and every module imported after start-up, so the next import runs them afresh.

    The browser's Restart uses this: a reader who patched ``Value`` on one page gets the package
    as shipped again (the worker keeps its hold on this module, which goes on serving it). The
    standard library stays: its modules hold on to each other and are not the reader's to change;
    so do the other modules of `baseline` (Pyodide's own). Returns the names removed, sorted.
    """
    removed = sorted(
        name
        for name in sys.modules
        if _top(name) not in sys.stdlib_module_names and (name not in baseline or _top(name) == _PACKAGE)
    )
    for name in removed:
        del sys.modules[name]
    return removed


def _top(module: str) -> str:
    return module.partition(".")[0]
