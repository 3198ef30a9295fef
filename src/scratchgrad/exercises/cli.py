"""The exercises from a terminal, with the same checks, lines and verdict as on the page:
``list``, ``check ID WORK``, ``stub ID``, ``export FOLDER`` and ``import WORK FOLDER`` (``--help``
says each), where WORK is a work file with one ``# %% exercise: <id>`` section per exercise (the
page's Export) or a folder of ``<id>.py`` files; earlier pieces come from WORK when they pass, else
from the reference solutions; a failure prints the seed of its random cases and the command that
checks the same cases again; the checks run in a child process (`scratchgrad.exercises.isolated`),
so code that exits or hangs inside one C call is "did not finish"; exit 0 is a pass, 1 a failure,
2 a usage error, said in words.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from scratchgrad.exercises import export, parse
from scratchgrad.exercises.isolated import DidNotFinish, run_checks
from scratchgrad.exercises.registry import (
    COMMAND_LINE_ONLY,
    ENGINE_PIECES,
    EXERCISES,
    UnknownExerciseError,
    by_id,
)
from scratchgrad.exercises.report import Report
from scratchgrad.exercises.runner import DEFAULT_TIME_LIMIT, MissingTool, new_seed
from scratchgrad.exercises.workfile import MARKER, WorkFileError

__all__ = ["main"]

USAGE_ERROR = 2


class UsageError(Exception):
    """The command line asks for something that cannot be done; the message says why."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, WorkFileError, UnknownExerciseError, MissingTool, OSError) as error:
        message = str(error) if not isinstance(error, OSError) else f"{error.strerror}: {error.filename}"
        print(f"error: {message}", file=sys.stderr)
        return USAGE_ERROR


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scratchgrad.exercises", description="Check your own autograd engine, piece by piece."
    )
    commands = parser.add_subparsers(required=True, metavar="command")
    listing = commands.add_parser("list", help="the exercises, and their state in your work")
    listing.add_argument("work", nargs="?", type=Path, help="a work file or a folder of <id>.py files")
    listing.set_defaults(run=_list)
    checking = commands.add_parser("check", help="check one exercise")
    checking.add_argument("exercise", help="the exercise id (see list)")
    checking.add_argument(
        "work", type=Path, help="a work file, a folder of <id>.py files, or that exercise's .py"
    )
    checking.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help="CPU seconds per piece (default %(default)s); code that waits is stopped on the clock, later",
    )
    checking.add_argument(
        "--seed", type=int, help="the seed of the random cases (default: a new one; a failure prints it)"
    )
    checking.set_defaults(run=_check)
    stub = commands.add_parser("stub", help="print the code an exercise starts from")
    stub.add_argument("exercise")
    stub.set_defaults(run=lambda args: print(by_id(args.exercise).stub, end="") or 0)
    exporting = commands.add_parser("export", help="a folder of <id>.py files as one work file, on stdout")
    exporting.add_argument("folder", type=Path)
    exporting.set_defaults(run=lambda args: print(export(_read_folder(args.folder)), end="") or 0)
    importing = commands.add_parser("import", help="a work file into a folder of <id>.py files")
    importing.add_argument("work", type=Path)
    importing.add_argument("folder", type=Path)
    importing.add_argument("--force", action="store_true", help="overwrite files whose content differs")
    importing.set_defaults(run=_import)
    return parser


def _list(args: argparse.Namespace) -> int:
    pieces = _read_work(args.work) if args.work else {}
    try:
        reports = run_checks(pieces, None, DEFAULT_TIME_LIMIT, new_seed())
    except DidNotFinish as stopped:
        print(f"FAILED: {stopped}")
        return 1
    for exercise in EXERCISES:
        state = _state(exercise.id, pieces, reports)
        print(f"{exercise.id:22} {exercise.chapter:25} {exercise.title:45} {state}")
    if args.work:
        done = sum(exercise.id in reports and reports[exercise.id].passed for exercise in ENGINE_PIECES)
        print(f"your engine: {done} of {len(ENGINE_PIECES)} pieces")
        for exercise in COMMAND_LINE_ONLY:
            state = _state(exercise.id, pieces, reports)
            print(f"checked on the command line only: {exercise.id} ({exercise.title}): {state}")
    for unknown in sorted(set(pieces) - {exercise.id for exercise in EXERCISES}):
        print(f"{unknown}: not an exercise of this version (kept, not checked)")
    return 0


def _state(exercise_id: str, pieces: dict[str, str], reports: dict[str, Report]) -> str:
    source = pieces.get(exercise_id)
    if source is None or source.strip() == by_id(exercise_id).stub.strip():
        return "not started"
    missing = by_id(exercise_id).missing_tools()
    if missing:
        return f"not checked: needs {', '.join(missing)} (pip install {' '.join(missing)})"
    report = reports[exercise_id]
    return "passed" if report.passed else f"tried: {report.headline}"


def _check(args: argparse.Namespace) -> int:
    exercise = by_id(args.exercise)
    if exercise.missing_tools():
        raise MissingTool(exercise, exercise.missing_tools())
    if not args.time_limit > 0:
        raise UsageError(f"--time-limit must be more than 0 seconds, got {args.time_limit:g}")
    if args.work.is_file() and not _has_sections(args.work):
        pieces = {exercise.id: args.work.read_text(encoding="utf-8")}
    else:
        pieces = _read_work(args.work)
    if exercise.id not in pieces:
        raise UsageError(
            f"{args.work} has no code for {exercise.id!r} (sections found: {', '.join(pieces) or 'none'})"
        )
    seed = new_seed() if args.seed is None else args.seed
    again = f"python -m scratchgrad.exercises check {exercise.id} {args.work} --seed {seed}"
    try:
        report = run_checks(pieces, exercise.id, args.time_limit, seed)[exercise.id]
    except DidNotFinish as stopped:
        print(f"FAILED: {stopped}\nthe same cases again: {again}")
        return 1
    print(report.text())
    if not report.passed:
        print(f"the same cases again: {again}")
    if report.output:
        dropped = f"\n… {report.output_dropped} more characters not shown" if report.output_dropped else ""
        print(f"\nyour code printed:\n{report.output.rstrip()}{dropped}")
    return 0 if report.passed else 1


def _import(args: argparse.Namespace) -> int:
    pieces = parse(args.work.read_text(encoding="utf-8"))
    args.folder.mkdir(parents=True, exist_ok=True)
    clashes = [
        piece
        for piece, source in pieces.items()
        if (args.folder / f"{piece}.py").exists()
        and (args.folder / f"{piece}.py").read_text(encoding="utf-8") != source
    ]
    if clashes and not args.force:
        raise UsageError(
            f"{args.folder} already has different code for {', '.join(clashes)}; nothing written "
            "(use --force to overwrite)"
        )
    for piece, source in pieces.items():
        (args.folder / f"{piece}.py").write_text(source, encoding="utf-8")
    print(f"wrote {len(pieces)} files to {args.folder}")
    return 0


def _has_sections(path: Path) -> bool:
    return any(MARKER.match(line) for line in path.read_text(encoding="utf-8").splitlines())


def _read_work(path: Path) -> dict[str, str]:
    if path.is_dir():
        return _read_folder(path)
    if not path.exists():
        raise UsageError(f"{path} does not exist")
    return parse(path.read_text(encoding="utf-8"))


def _read_folder(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    known = {exercise.id for exercise in EXERCISES}
    return {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted(folder.glob("*.py"))
        if path.stem in known
    }
