"""Check one exercise: load the earlier pieces, run the reader's code, run the hidden checks.

The reader's engine grows across chapters. Running exercise N builds **one namespace**: first
every earlier piece N builds on (all of `requires`, transitively, in the order of the story) —
the reader's own code for that piece when the caller gives it, the reference solution otherwise —
then the reader's code for N. A later piece extends an earlier class by re-opening it,
``class Value(Value): ...``: the methods of every piece look ``Value`` up in this shared
namespace when they run, so they all build nodes of the newest class.
"""

from __future__ import annotations

import linecache
import traceback
from collections.abc import Mapping, Sequence

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.registry import EXERCISES, by_id
from scratchgrad.exercises.report import CheckLine, CodeError, PieceUse, Report
from scratchgrad.exercises.sandbox import READER_FILE_PREFIX, Sandbox, TimeLimitExceeded, reader_filename

__all__ = ["check", "earlier_pieces", "load_pieces"]

DEFAULT_TIME_LIMIT = 10.0


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
) -> Report:
    """Check the reader's `source` for one exercise and return the `Report`.

    `earlier` maps exercise ids to the reader's passing code for earlier pieces; a piece not in
    it is loaded from its reference solution. `time_limit` (seconds, or None for none) bounds the
    whole run, loading and checks together.
    """
    exercise = by_id(exercise_id)
    if not isinstance(source, str):
        raise TypeError(f"check() needs the reader's code as a str, got {type(source).__name__}")
    sandbox = Sandbox(time_limit)
    namespace: dict = {"__name__": "__exercise__", "__builtins__": __builtins__}
    report = Report(exercise.id, "passed", "")
    try:
        report.pieces = _load_earlier(exercise, earlier or {}, namespace, sandbox)
        _execute(source, reader_filename(exercise.id), namespace, sandbox)
    except (TimeLimitExceeded, KeyboardInterrupt):
        return _finish(report, sandbox, "stopped", _stopped(sandbox))
    except BaseException as error:
        report.error = _code_error(error)
        return _finish(report, sandbox, "raised", f"your code raised {report.error}")
    engine = Engine(namespace, _providers())
    for hidden in exercise.checks:
        try:
            message = sandbox.run(hidden.run, engine)
            report.checks.append(CheckLine(hidden.title, True, message))
        except Fail as failure:
            report.checks.append(CheckLine(hidden.title, False, str(failure), failure.graph))
        except (TimeLimitExceeded, KeyboardInterrupt):
            report.checks.append(CheckLine(hidden.title, False, _stopped(sandbox)))
            return _finish(report, sandbox, "stopped", _stopped(sandbox))
        except BaseException as error:
            report.checks.append(CheckLine(hidden.title, False, f"raised {_code_error(error)}"))
    failed = sum(not line.passed for line in report.checks)
    total = len(report.checks)
    if failed:
        return _finish(report, sandbox, "failed", f"{failed} of {total} checks failed")
    return _finish(report, sandbox, "passed", f"all {total} checks passed")


def _load_earlier(exercise: Exercise, earlier: Mapping[str, str], namespace: dict, sandbox: Sandbox) -> list:
    return load_pieces(earlier_pieces(exercise), earlier, namespace, sandbox)


def load_pieces(
    pieces: Sequence[Exercise], yours: Mapping[str, str], namespace: dict, sandbox: Sandbox
) -> list[PieceUse]:
    """Run each of `pieces` into `namespace`, in order: the reader's code (`yours`) when given, else the
    reference solution. A piece of the reader's that raises when loaded is undone and replaced by the
    reference; its `PieceUse` says so. Used by the checker and by the story's blocks
    (`scratchgrad.page.reader_engine`)."""
    uses = []
    for piece in pieces:
        code = yours.get(piece.id)
        note = ""
        if code is not None:
            snapshot = dict(namespace)
            try:
                _execute(code, reader_filename(piece.id), namespace, sandbox)
                uses.append(PieceUse(piece.id, piece.provides, "yours"))
                continue
            except (TimeLimitExceeded, KeyboardInterrupt):
                raise
            except BaseException as error:
                namespace.clear()
                namespace.update(snapshot)
                note = f"yours raised {type(error).__name__} when loaded"
        _execute(piece.solution, f"<reference: {piece.id}>", namespace, sandbox)
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
    limit = sandbox.time_limit
    if limit is not None and sandbox.elapsed >= limit:
        return f"stopped: ran longer than {limit:g} s — is there a loop that never ends?"
    return "stopped before the checks finished (interrupted)"


def _code_error(error: BaseException) -> CodeError:
    """The exception, and the innermost line of code under check that it passed through."""
    where, line = "the checker", None
    if isinstance(error, SyntaxError) and (error.filename or "").startswith("<"):
        where, line = _describe_file(error.filename), error.lineno
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename.startswith(("<yours", "<reference")):
            where, line = _describe_file(frame.filename), frame.lineno
    message = error.msg if isinstance(error, SyntaxError) else str(error)
    return CodeError(type(error).__name__, message, where, line)


def _describe_file(filename: str) -> str:
    if filename.startswith(READER_FILE_PREFIX):
        return f"your code for {filename[len(READER_FILE_PREFIX) : -1]!r}"
    return f"the reference solution of {filename[len('<reference: ') : -1]!r}"


def _finish(report: Report, sandbox: Sandbox, outcome: str, headline: str) -> Report:
    report.outcome = outcome
    report.headline = headline
    report.output = sandbox.output.getvalue()
    report.output_dropped = sandbox.output.dropped
    report.seconds = round(sandbox.elapsed, 3)
    return report
