"""The reader's work as one .py file, the one owner of its format, used by the page's Export and
Import and by the command line (`export`, `parse`): one section per exercise, in the order of the
story, each starting with a marker line such as ``# %% exercise: backward — backward()`` and
running to the next, so that ``# %%`` makes each a cell in editors that know cells and the file run
top to bottom builds the reader's engine as the checker does; text before the first marker is a
header of comments only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from scratchgrad.exercises.registry import EXERCISES

__all__ = ["WorkFileError", "export", "parse"]

MARKER = re.compile(r"^# %% exercise: (?P<id>\S+)")
HEADER = """\
# My scratchgrad engine: one section per exercise, in the order of the story.
# Check one piece:  python -m scratchgrad.exercises check <exercise> this_file.py
# See them all:     python -m scratchgrad.exercises list this_file.py
"""


class WorkFileError(ValueError):
    """A work file that cannot be read back; the message names the line and the problem."""


def export(pieces: Mapping[str, str]) -> str:
    """One .py text holding every piece of `pieces` (exercise id → the reader's code).

    Known exercises come in the order of the story, unknown ids after them (nothing is dropped).
    ``parse(export(pieces))`` gives `pieces` back, each with one final newline.
    """
    titles = {exercise.id: exercise.title for exercise in EXERCISES}
    order = [e.id for e in EXERCISES if e.id in pieces] + sorted(set(pieces) - set(titles))
    sections = [HEADER]
    for exercise_id in order:
        if (
            not MARKER.match(f"# %% exercise: {exercise_id}")
            or exercise_id.strip() != exercise_id
            or not exercise_id
        ):
            raise WorkFileError(f"exercise id {exercise_id!r} cannot be written as a section marker")
        title = titles.get(exercise_id)
        marker = f"# %% exercise: {exercise_id}" + (f" — {title}" if title else "")
        sections.append(f"\n{marker}\n{_canonical(pieces[exercise_id])}")
    return "".join(sections)


def parse(text: str) -> dict[str, str]:
    """Exercise id → code for every section of an exported file (see the module docstring)."""
    if not isinstance(text, str):
        raise WorkFileError(f"a work file is text, got {type(text).__name__}")
    pieces: dict[str, list[str]] = {}
    started: dict[str, int] = {}
    current: list[str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        found = MARKER.match(line)
        if found:
            exercise_id = found["id"]
            if exercise_id in started:
                raise WorkFileError(
                    f"line {number}: a second section for {exercise_id!r} (the first is on line "
                    f"{started[exercise_id]}); keep one"
                )
            started[exercise_id] = number
            current = pieces[exercise_id] = []
        elif current is not None:
            current.append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            raise WorkFileError(
                f"line {number} is code before the first '# %% exercise: <id>' line: "
                "every piece of code belongs to an exercise's section"
            )
    if not started:
        raise WorkFileError("no '# %% exercise: <id>' lines: this is not an exported scratchgrad work file")
    return {exercise_id: _canonical("\n".join(lines)) for exercise_id, lines in pieces.items()}


def _canonical(source: str) -> str:
    """The code without blank lines around it, ending in one newline."""
    return source.strip("\n").rstrip() + "\n" if source.strip() else ""
