"""What an exercise is: a folder of `scratchgrad.exercises._pieces` holding ``exercise.toml`` (what
the reader is told, where it sits in the story, the wrong variants the chapter teaches, each an
edit of the solution with the message its failing check must give), ``__init__.py`` (the
`Exercise` and its hidden checks: functions of an `Engine`, the namespace the reader's code ran in,
that return a short message or raise `Fail` with "expected …, got …"), ``stub.py`` (what the
reader starts from, which runs and fails a check) and ``solution.py`` (the reference, which passes
every check and stands in for an earlier piece the reader has not done), or, where the chapter
shows the very code the reader writes, ``[solution]`` edits of those snippet sections of the
package (`scratchgrad.exercises.sources` writes such sources out); ``needs`` names the modules its
checks need beyond scratchgrad (torch), which make it an exercise for the command line only.
`Exercise.load` reads a folder.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from scratchgrad.exercises.sources import SnippetSolution, SourceError, WrongVariant, apply_edits, read

__all__ = ["Check", "Engine", "Exercise", "Fail"]


class Fail(Exception):  # noqa: N818 (a check "fails"; it is not an error of the checker)
    """A check did not hold; the message names what was expected and what came out.

    `graph`, when the check has one to show: the drawing of the reader's graph with the study of its
    backward (``{"dot": ..., "study": ...}``, `scratchgrad.drawn_graph.study.dot_and_study`), for the
    page to draw with every node checked (`scratchgrad.exercises.oracle.graph_failure`).
    """

    def __init__(self, message: str, graph: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.graph = graph


class Engine:
    """The names the reader's code (and the earlier pieces) defined, read by the checks.

    ``engine.Value`` is the reader's ``Value``; a missing name fails the check with a message
    that says which exercise should have defined it. ``engine.rng`` draws a check's random cases:
    a `random.Random` seeded from the run's seed and the check's title, so the same seed gives
    every check the same cases again, whatever ran before it.
    """

    def __init__(self, namespace: dict, providers: dict[str, str], rng: random.Random | None = None) -> None:
        self._namespace = namespace
        self._providers = providers
        self.rng = rng if rng is not None else random.Random(0)

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._namespace[name]
        except KeyError:
            owner = self._providers.get(name)
            where = f" (exercise {owner!r} defines it)" if owner else ""
            raise Fail(f"there is no `{name}`: the code does not define it, or deleted it{where}") from None


@dataclass(frozen=True)
class Check:
    """One hidden check: a title for its line, and the function that runs it."""

    title: str
    run: Callable[[Engine], str]


@dataclass(frozen=True)
class Exercise:
    """One "Your turn" exercise. `package` is the folder holding its files.

    A wrong variant in ``exercise.toml`` (`wrong_source` writes it out in full)::

        [[wrong]]
        name = "no-division"
        bug = "returns the rise without dividing by h"
        message = "did you divide"
        edits = [["return rise / h", "return rise"]]   # [text of solution.py, what stands instead]
    """

    id: str
    chapter: str
    title: str
    task: str
    provides: tuple[str, ...]
    requires: tuple[str, ...]
    hints: tuple[str, ...]
    wrong: tuple[WrongVariant, ...]
    package: str
    snippet_solution: SnippetSolution | None = None
    stub_edits: tuple[tuple[str, str], ...] | None = None
    needs: tuple[str, ...] = ()
    checks: list[Check] = field(default_factory=list)

    @property
    def on_the_command_line_only(self) -> bool:
        """Whether only the command line can check it: its checks need a module outside the standard
        library and scratchgrad (`needs`, such as torch), and the page's Python has none."""
        return bool(self.needs)

    def missing_tools(self) -> list[str]:
        """The modules of `needs` that this Python cannot import (looked up, not imported)."""
        return [module for module in self.needs if importlib.util.find_spec(module) is None]

    def import_tools(self) -> None:
        """Import the modules of `needs` (torch takes seconds): the checker does it before the reader's
        clock starts, so that their own ``import torch`` costs them nothing."""
        for module in self.needs:
            importlib.import_module(module)

    def check(self, title: str) -> Callable[[Callable[[Engine], str]], Callable[[Engine], str]]:
        """Decorator: add the function as the next hidden check, with `title` on its line."""

        def add(run: Callable[[Engine], str]) -> Callable[[Engine], str]:
            self.checks.append(Check(title, run))
            return run

        return add

    @classmethod
    def load(cls, package: str) -> Exercise:
        """The exercise declared in the ``exercise.toml`` of `package` (an exercise's folder)."""
        declared = tomllib.loads(read(package, "exercise.toml"))
        wrong = tuple(
            WrongVariant(variant["name"], variant["bug"], variant["message"], _edits(variant))
            for variant in declared.pop("wrong")
        )
        snippet = declared.pop("solution", None)
        if snippet is not None:
            before, sections = snippet.get("before", ""), tuple(snippet["snippets"])
            declared["snippet_solution"] = SnippetSolution(sections, before, _edits(snippet))
        stub = declared.pop("stub", None)
        if stub is not None:
            declared["stub_edits"] = _edits(stub)
        for listed in ("provides", "requires", "hints"):
            declared[listed] = tuple(declared[listed])
        declared["needs"] = tuple(declared.get("needs", ()))
        return cls(**declared, wrong=wrong, package=package)

    @property
    def stub(self) -> str:
        """What the reader starts from: ``stub.py``, or the solution with the ``[stub]`` edits made."""
        if self.stub_edits is not None:
            return apply_edits(self.solution, self.stub_edits, f"exercise {self.id!r}, stub")
        return read(self.package, "stub.py")

    @property
    def solution(self) -> str:
        """The reference solution: ``solution.py``, or the package's code the chapter shows, edited."""
        if self.snippet_solution is not None:
            return self.snippet_solution.source(self.id)
        return read(self.package, "solution.py")

    def wrong_source(self, name: str) -> str:
        """The full source of wrong variant `name`: the solution with its edits made."""
        for variant in self.wrong:
            if variant.name == name:
                return variant.source(self.solution, self.id)
        known = ", ".join(variant.name for variant in self.wrong)
        raise SourceError(f"exercise {self.id!r} has no wrong variant {name!r}; it has: {known}")


def _edits(declared: dict) -> tuple[tuple[str, str], ...]:
    return tuple((old, new) for old, new in declared.get("edits", ()))


def names(nodes: Iterable[object], labels: dict[int, str]) -> str:
    """The labels of `nodes`, in order, for a message such as "[a, b, e]"."""
    return "[" + ", ".join(labels.get(id(node), "?") for node in nodes) + "]"
