"""An exercise's code that is not a file of its own, declared in ``exercise.toml`` as edits (text,
what stands there instead) of other code: a wrong variant is the solution with a line or two
changed, and a solution may be the code the chapter shows (a snippet section of the package) with
the name the exercise asks for, so no copy can drift from what it copies; an edit whose text is not
there exactly once fails loudly, naming the exercise and what was being written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

__all__ = ["SnippetSolution", "SourceError", "WrongVariant", "apply_edits", "read"]

Edits = tuple[tuple[str, str], ...]


class SourceError(ValueError):
    """A declared source that cannot be written: an edit's text is not there once, or no such source."""


def read(package: str, file: str) -> str:
    """The text of `file` in the folder of `package`."""
    return resources.files(package).joinpath(file).read_text(encoding="utf-8")


def apply_edits(text: str, edits: Iterable[tuple[str, str]], where: str) -> str:
    """`text` with each (old, new) edit made in order; `where` says what is being written, for the error."""
    for old, new in edits:
        found = text.count(old)
        if found != 1:
            needs = "an edit needs it exactly once"
            raise SourceError(f"{where}: the text {old!r} occurs {found} times; {needs}")
        text = text.replace(old, new)
    return text


@dataclass(frozen=True)
class WrongVariant:
    """A known bug: `edits` turn the solution into it; `message` is a fragment its failing check must say."""

    name: str
    bug: str
    message: str
    edits: Edits

    def source(self, solution: str, exercise_id: str) -> str:
        """The solution with every edit made."""
        return apply_edits(solution, self.edits, f"exercise {exercise_id!r}, wrong variant {self.name!r}")


@dataclass(frozen=True)
class SnippetSolution:
    """A solution that is the package's own code, as a chapter shows it: `before`, the sections, `edits`.

    Each of `sections` is ``"module:name"``: the lines between ``# --8<-- [start:name]`` and
    ``# --8<-- [end:name]`` of that module, the section a page includes as a snippet. Sections keep
    their indentation, so methods follow a ``class`` line given in `before`.
    """

    sections: tuple[str, ...]
    before: str
    edits: Edits

    def source(self, exercise_id: str) -> str:
        shown = "\n".join(_section(spec, exercise_id) for spec in self.sections)
        where = f"exercise {exercise_id!r}, solution from {', '.join(self.sections)}"
        return apply_edits(self.before + shown, self.edits, where)


def _section(spec: str, exercise_id: str) -> str:
    module, name = spec.split(":")
    package, file = module.rsplit(".", 1)
    text = read(package, f"{file}.py")
    start, end = f"# --8<-- [start:{name}]\n", f"# --8<-- [end:{name}]"
    if start not in text or end not in text:
        raise SourceError(f"exercise {exercise_id!r}: {module} has no snippet section {name!r}")
    lines = text.split(start, 1)[1].split(end, 1)[0].rstrip().splitlines()
    return "\n".join(line for line in lines if "# --8<--" not in line).strip("\n") + "\n"
