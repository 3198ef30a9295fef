"""What a check says, one line per check and then a verdict: `Report` is the one shape the browser
worker (``report.to_json()``, whose fields `Report` lists) and the command line
(``report.text()``) both read, and a failed check can carry the reader's graph that went wrong,
drawn on the page with every node checked and "Step through backward" under it
(`scratchgrad.drawn_graph.study.dot_and_study`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

__all__ = ["CheckLine", "CodeError", "PieceUse", "Report", "report_from_dict"]


@dataclass(frozen=True)
class CheckLine:
    """One hidden check: its title, whether it held, what it found (expected and got), and the
    reader's graph that shows it, when there is one."""

    title: str
    passed: bool
    message: str
    graph: dict[str, str] | None = None


@dataclass(frozen=True)
class CodeError:
    """An exception raised by code under check, and where it came from (``line`` in that code)."""

    type: str
    message: str
    where: str
    line: int | None = None

    def __str__(self) -> str:
        place = f"{self.where}, line {self.line}" if self.line else self.where
        return f"{self.type}: {self.message} ({place})"


@dataclass(frozen=True)
class PieceUse:
    """An earlier exercise's piece loaded before the reader's code: theirs, or the reference."""

    exercise: str
    provides: tuple[str, ...]
    source: str  # "yours" or "reference"
    note: str = ""


@dataclass
class Report:
    """The result of checking one exercise. As JSON (`to_json`)::

        {
          "exercise": "backward",              # the exercise id
          "verdict": "pass" | "fail",          # what the page's data-sg-verdict shows
          "outcome": "passed" | "failed" | "raised" | "stopped",
          "headline": "4 of 4 checks passed",  # the verdict as one sentence
          "checks": [{"title": "...", "passed": true, "message": "...",
                      "graph": null | {"dot": "...", "study": "..."}}, ...],
          "error": null | {"type": "ZeroDivisionError", "message": "...", "where": "...", "line": 7},
          "pieces": [{"exercise": "value-graph", "provides": ["Value"], "source": "yours" | "reference",
                      "note": ""}, ...],     # the earlier pieces this run loaded, in order
          "output": "what the code printed (capped)",
          "output_dropped": 0,                 # characters of output not kept
          "seconds": 0.05,                     # CPU seconds in CPython, on the clock in Pyodide
          "seed": 271828                       # picked the random cases; the same seed, the same cases
        }

    ``outcome`` says why a failing run failed: a check did not hold (``failed``), the reader's code
    raised while it was loaded (``raised``: no check could run), or it ran past the time limit or
    was interrupted (``stopped``).
    """

    exercise: str
    outcome: str
    headline: str
    checks: list[CheckLine] = field(default_factory=list)
    error: CodeError | None = None
    pieces: list[PieceUse] = field(default_factory=list)
    output: str = ""
    output_dropped: int = 0
    seconds: float = 0.0
    seed: int = 0

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else "fail"

    def as_dict(self) -> dict:
        """The JSON-ready dictionary described in this module's docstring."""
        data = asdict(self)
        data["verdict"] = self.verdict
        data["pieces"] = [dict(piece, provides=list(piece["provides"])) for piece in data["pieces"]]
        return data

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False)

    def lines(self) -> list[str]:
        """The check lines then the verdict, as the command line prints them."""
        lines = []
        for piece in self.pieces:
            origin = "yours" if piece.source == "yours" else "the book's"
            note = f" ({piece.note})" if piece.note else ""
            lines.append(f"uses  {piece.exercise}: {', '.join(piece.provides)} — {origin}{note}")
        lines += [f"{'pass' if c.passed else 'FAIL'}  {c.title}: {c.message}" for c in self.checks]
        if self.error is not None and not self.checks:
            lines.append(f"FAIL  {self.error}")
        lines.append(f"{'PASSED' if self.passed else 'FAILED'}: {self.headline}")
        return lines

    def text(self) -> str:
        return "\n".join(self.lines())


def report_from_dict(data: dict) -> Report:
    """The `Report` that ``as_dict`` described (the command line reads one back from its child)."""
    fields = {key: value for key, value in data.items() if key != "verdict"}
    fields["checks"] = [CheckLine(**line) for line in data["checks"]]
    fields["error"] = CodeError(**data["error"]) if data["error"] else None
    fields["pieces"] = [dict(piece, provides=tuple(piece["provides"])) for piece in data["pieces"]]
    fields["pieces"] = [PieceUse(**piece) for piece in fields["pieces"]]
    return Report(**fields)
