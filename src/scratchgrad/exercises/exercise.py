"""What an exercise is: its place in the story, its files, its hints and its hidden checks.

Each exercise lives in a folder of `scratchgrad.exercises.pieces`. The folder's ``__init__.py``
holds an `Exercise`; beside it are real Python files that are executed, never imported:

* ``stub.py``: what the reader starts from. It runs, and fails at least one check.
* ``solution.py``: the reference solution. It passes every check; a reader who has not done an
  earlier exercise gets this piece in place of their own.
* ``wrong_*.py``: bugs the chapter teaches, each with the message its failing check must give.

A check is a function of an `Engine`: the namespace the reader's code ran in. It returns a short
message when the behaviour is right and raises `Fail` with "expected …, got …" when it is not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources

__all__ = ["Check", "Engine", "Exercise", "Fail", "WrongVariant", "num"]


class Fail(Exception):  # noqa: N818 (a check "fails"; it is not an error of the checker)
    """A check did not hold; the message names what was expected and what came out."""


class Engine:
    """The names the reader's code (and the earlier pieces) defined, read by the checks.

    ``engine.Value`` is the reader's ``Value``; a missing name fails the check with a message
    that says which exercise should have defined it.
    """

    def __init__(self, namespace: dict, providers: dict[str, str]) -> None:
        self._namespace = namespace
        self._providers = providers

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
class WrongVariant:
    """A known-wrong solution (``file``), the bug it has, and a fragment of the message it must get."""

    file: str
    bug: str
    message: str


@dataclass(frozen=True)
class Exercise:
    """One "Your turn" exercise. `package` is the folder holding its files."""

    id: str
    chapter: str
    title: str
    task: str
    provides: tuple[str, ...]
    requires: tuple[str, ...]
    hints: tuple[str, ...]
    wrong: tuple[WrongVariant, ...]
    package: str
    checks: list[Check] = field(default_factory=list)

    def check(self, title: str) -> Callable[[Callable[[Engine], str]], Callable[[Engine], str]]:
        """Decorator: add the function as the next hidden check, with `title` on its line."""

        def add(run: Callable[[Engine], str]) -> Callable[[Engine], str]:
            self.checks.append(Check(title, run))
            return run

        return add

    def source(self, file: str) -> str:
        """The text of one of the exercise's files: ``stub.py``, ``solution.py``, ``wrong_….py``."""
        return resources.files(self.package).joinpath(file).read_text(encoding="utf-8")

    @property
    def stub(self) -> str:
        return self.source("stub.py")

    @property
    def solution(self) -> str:
        return self.source("solution.py")


def num(x: object) -> str:
    """A number as a learner reads it in a message: -3.0, 0.707107, 2.2e-05."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return repr(x)
    x = float(x)
    if not math.isfinite(x) or x == 0 or 1e-4 <= abs(x) < 1e7:
        return repr(round(x, 6) + 0.0)
    return f"{x:.4g}"


def names(nodes: Iterable[object], labels: dict[int, str]) -> str:
    """The labels of `nodes`, in order, for a message such as "[a, b, e]"."""
    return "[" + ", ".join(labels.get(id(node), "?") for node in nodes) + "]"
