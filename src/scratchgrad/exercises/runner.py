"""Check one exercise: build **one namespace** with every earlier piece the exercise builds on (all of
its `requires`, transitively, in the order of the story; the reader's code for a piece when given,
the reference solution otherwise), then the reader's code for it, then run its hidden checks; a
later piece extends an earlier class by re-opening it (``class Value(Value): ...``), and the
methods of every piece look ``Value`` up in this shared namespace when they run, so they all build
nodes of the newest class.
"""

from __future__ import annotations

import linecache
import random
import secrets
import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from scratchgrad.exercises.borrowed import book_imports, borrowed_names
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.memory_cap import out_of_memory
from scratchgrad.exercises.registry import EXERCISES, by_id
from scratchgrad.exercises.report import CheckLine, CodeError, PieceUse, Report
from scratchgrad.exercises.sandbox import (
    BOOK_FILE_PREFIX,
    CPU_CLOCK,
    READER_FILE_PREFIX,
    Sandbox,
    TimeLimitExceeded,
    reader_filename,
)

__all__ = ["MissingTool", "check", "earlier_pieces", "load_pieces", "new_seed"]


class MissingTool(Exception):  # noqa: N818 (what the reader reads: a tool is missing)
    """An exercise whose checks need a module this Python lacks (torch); the message says how to get it."""

    def __init__(self, exercise: Exercise, missing: Sequence[str]) -> None:
        names = ", ".join(missing)
        super().__init__(
            f"exercise {exercise.id!r} is checked with {names}, which this Python cannot import: "
            f"pip install {' '.join(missing)} (then check again)"
        )


DEFAULT_TIME_LIMIT = 10.0
"""Seconds one exercise's check may use, loading and checks together: CPU seconds in CPython, seconds
on the clock in Pyodide (`scratchgrad.exercises.sandbox.Budget`). The one owner of the limit: the
command line's default, and the page's own deadline (hooks/pyodide_runtime.py, shared_rules)."""


def new_seed() -> int:
    """A seed for a run's random cases: a different one each run, printed with a failure."""
    return secrets.randbelow(1_000_000)


def earlier_pieces(exercise: Exercise) -> list[Exercise]:
    """Every exercise `exercise` builds on, directly or not, in the order of the story."""
    needed: set[str] = set()
    todo = list(exercise.requires)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo.extend(by_id(name).requires)
    return [other for other in EXERCISES if other.id in needed]


def check(
    exercise_id: str,
    source: str,
    earlier: Mapping[str, str] | None = None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    seed: int | None = None,
) -> Report:
    """Check the reader's `source` for one exercise and return the `Report`.

    `earlier` maps exercise ids to the reader's passing code for earlier pieces; a piece not in
    it is loaded from its reference solution. `time_limit` (seconds, or None for none) bounds the
    whole run, loading and checks together. `seed` picks the random cases (`new_seed()` when None):
    the report names it, and the same seed checks the same cases again. `MissingTool` when the
    exercise needs a module this Python lacks (torch, for the command line's exercises).
    """
    exercise = by_id(exercise_id)
    if exercise.missing_tools():
        raise MissingTool(exercise, exercise.missing_tools())
    if not isinstance(source, str):
        raise TypeError(f"check() needs the reader's code as a str, got {type(source).__name__}")
    exercise.import_tools()
    if seed is None:
        seed = new_seed()
    sandbox = Sandbox(time_limit)
    namespace: dict = {"__name__": "__exercise__", "__builtins__": __builtins__}
    report = Report(exercise.id, "passed", "", seed=seed)
    try:
        report.pieces = _load_earlier(exercise, earlier or {}, namespace, sandbox)
        _execute(source, reader_filename(exercise.id), namespace, sandbox)
    except (TimeLimitExceeded, KeyboardInterrupt):
        return _finish(report, sandbox, "stopped", _stopped(sandbox))
    except SystemExit as error:
        report.error = _code_error(error, exercise.id)
        return _finish(report, sandbox, "stopped", _exited(report.error))
    except BaseException as error:
        report.error = _code_error(error, exercise.id)
        return _finish(report, sandbox, "raised", f"your code raised {report.error}")
    borrowed = book_imports(source) or borrowed_names(exercise, namespace, source)
    if borrowed:
        report.checks.append(CheckLine("the piece is your own code", False, borrowed))
        return _finish(
            report, sandbox, "failed", "your code takes the book's implementation instead of writing it"
        )
    for hidden in exercise.checks:
        engine = Engine(namespace, _providers(), random.Random(f"{seed}: {hidden.title}"))
        random.seed(f"{seed}: {hidden.title}")  # the reader's own random.uniform (their Neuron's weights)
        try:
            message = sandbox.run(hidden.run, engine)
            report.checks.append(CheckLine(hidden.title, True, message))
        except Fail as failure:
            report.checks.append(CheckLine(hidden.title, False, str(failure), failure.graph))
        except (TimeLimitExceeded, KeyboardInterrupt):
            report.checks.append(CheckLine(hidden.title, False, _stopped(sandbox)))
            return _finish(report, sandbox, "stopped", _stopped(sandbox))
        except SystemExit as error:
            exited = _exited(_code_error(error, exercise.id))
            report.checks.append(CheckLine(hidden.title, False, exited))
            return _finish(report, sandbox, "stopped", exited)
        except BaseException as error:
            report.checks.append(CheckLine(hidden.title, False, f"raised {_code_error(error, exercise.id)}"))
    return _finish(report, sandbox, *_verdict(report))


def _verdict(report: Report) -> tuple[str, str]:
    """The outcome and headline of a run whose checks all ran: "passed", or "failed" with how many of
    them failed and the seed that chose their cases. The one verdict of every way a piece is checked."""
    failed = sum(not line.passed for line in report.checks)
    total = len(report.checks)
    if failed:
        return "failed", f"{failed} of {total} checks failed (seed {report.seed})"
    return "passed", f"all {total} checks passed"


def _load_earlier(exercise: Exercise, earlier: Mapping[str, str], namespace: dict, sandbox: Sandbox) -> list:
    return load_pieces(earlier_pieces(exercise), earlier, namespace, sandbox)


def load_pieces(
    pieces: Sequence[Exercise],
    yours: Mapping[str, str],
    namespace: dict,
    sandbox: Sandbox,
    *,
    rewrite: Callable[[str], str] | None = None,
    rewritten: str = "rewritten",
) -> list[PieceUse]:
    """Run each of `pieces` into `namespace`, in order: the reader's code (`yours`) when given, else the
    reference solution. A piece of the reader's that raises when loaded is undone and replaced by the
    reference; its `PieceUse` says so. Used by the checker and by the story's blocks
    (`scratchgrad.page.reader_engine`), which may `rewrite` every piece first (a break-it bug written
    into the code): each copy is then compiled under a file name of its own, saying what was written
    in (`rewritten`, such as ``<yours: accumulate, with the overwrite bug>``), so that the lines the
    reader wrote stay theirs in tracebacks, in "Step through backward" and in the checker's blame."""
    suffix = f", {rewritten}>" if rewrite is not None else ">"
    copy = rewrite or str
    uses = []
    for piece in pieces:
        code = yours.get(piece.id)
        note = ""
        if code is not None:
            snapshot = dict(namespace)
            try:
                filename = reader_filename(piece.id).removesuffix(">") + suffix
                _execute(copy(code), filename, namespace, sandbox)
                uses.append(PieceUse(piece.id, piece.provides, "yours"))
                continue
            except (TimeLimitExceeded, KeyboardInterrupt):
                raise
            except BaseException as error:
                namespace.clear()
                namespace.update(snapshot)
                note = f"yours raised {type(error).__name__} when loaded"
        filename = f"{BOOK_FILE_PREFIX}{piece.id}{suffix}"
        _execute(copy(piece.solution), filename, namespace, sandbox)
        uses.append(PieceUse(piece.id, piece.provides, "reference", note))
    return uses


def _execute(source: str, filename: str, namespace: dict, sandbox: Sandbox) -> None:
    # In linecache, a failed check's "Step through backward" can quote the reader's own lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    code = compile(source, filename, "exec", dont_inherit=True)
    sandbox.run(exec, code, namespace)


def _providers() -> dict[str, str]:
    return {name.split(".")[0]: exercise.id for exercise in EXERCISES for name in exercise.provides}


def _stopped(sandbox: Sandbox) -> str:
    budget = sandbox.budget
    if budget.limit is None or not budget.spent():
        return "stopped before the checks finished (interrupted)"
    if budget.used >= budget.limit:
        clock = " of CPU time" if CPU_CLOCK else ""
        return f"did not finish: ran longer than {budget.limit:g} s{clock} — is there a loop that never ends?"
    return (
        f"did not finish: ran longer than {budget.waited:.0f} s on the clock, using only {budget.used:.1f} s "
        "of CPU time — does your code sleep or wait for something?"
    )


def _exited(error: CodeError) -> str:
    place = f"{error.where}, line {error.line}" if error.line else error.where
    return f"did not finish: your code called sys.exit() or exit() ({place}); a piece returns instead"


def _code_error(error: BaseException, exercise_id: str) -> CodeError:
    """The exception, and where it came from: the reader's innermost line it passed through.

    Only when no line of the reader's ran does it name the book's code standing in for a piece, or
    else the checks of `exercise_id` using the reader's objects (a method that returned a plain
    number where a Value was due, say): never "the checker", whose own code is not at fault.
    """
    frames = traceback.extract_tb(error.__traceback__)
    if isinstance(error, SyntaxError) and (error.filename or "").startswith("<"):
        frames.append(traceback.FrameSummary(error.filename, error.lineno, ""))
    yours = [frame for frame in frames if frame.filename.startswith(READER_FILE_PREFIX)]
    books = [frame for frame in frames if frame.filename.startswith(BOOK_FILE_PREFIX)]
    if yours:
        place = yours[-1].filename, yours[-1].lineno
        if isinstance(error, RecursionError):  # the innermost call has only begun, at its def: name the
            place = Counter((f.filename, f.lineno) for f in yours).most_common(1)[0][0]  # line that recurses
        where, line = f"your code for {_piece(place[0])!r}", place[1]
    elif books:
        piece = _piece(books[-1].filename)
        given = "one of your Values"
        if "NoneType" in str(error):  # the book's code returns no None: one of the reader's did
            given = "a None that a method of yours returned: does each one `return` its result?"
        where, line = (f"the book's {piece!r}, which stands in for your own: it was given {given}", None)
    else:
        where, line = f"when the checks of {exercise_id!r} used what your code returned", None
    message = error.msg if isinstance(error, SyntaxError) else str(error)
    if isinstance(error, MemoryError):
        message = out_of_memory()
    return CodeError(type(error).__name__, message, where, line)


def _piece(filename: str) -> str:
    """The exercise id in a file name such as "<yours: backward>" or "<reference: backward>"."""
    return filename.split(": ", 1)[1][:-1]


def _finish(report: Report, sandbox: Sandbox, outcome: str, headline: str) -> Report:
    report.outcome = outcome
    report.headline = headline
    report.output = sandbox.output.getvalue()
    report.output_dropped = sandbox.output.dropped
    report.seconds = round(sandbox.elapsed, 3)
    return report
