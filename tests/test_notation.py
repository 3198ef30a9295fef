"""One symbol, one meaning: the pages, the docstrings the reference shows and the Playground keep
the rules docs/notation.md states (each rule below names the line of that page it checks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md"))
SHOWN_SOURCES = sorted((ROOT / "src" / "scratchgrad").rglob("*.py")) + sorted((ROOT / "web").rglob("*.js"))
NOTATION = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")

MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+)\$", re.DOTALL)
PYTHON_BLOCK = re.compile(r"^(\s*)```python[^\n]*\n(.*?)^\1```", re.DOTALL | re.MULTILINE)


def math_of(text: str) -> list[str]:
    return [display or inline for display, inline in MATH.findall(text)]


def python_of(text: str) -> list[str]:
    return [code for _, code in PYTHON_BLOCK.findall(text)]


def offenders(pattern: str, pieces_by_file: dict[Path, list[str]]) -> list[str]:
    found = re.compile(pattern)
    return [
        f"{path.relative_to(ROOT)}: {match.group(0)!r}"
        for path, pieces in pieces_by_file.items()
        for piece in pieces
        for match in found.finditer(piece)
    ]


@pytest.fixture(scope="module")
def pages() -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in PAGES}


def test_the_notation_page_states_the_rules_this_test_checks():
    rules = (
        "$h$ | the size of a nudge, and nothing else",
        "and nothing else | [More operations]",
        "Euler's number is never written as a bare $e$",
        "never $n$",
        "l2·Σθ²",
        "$y$ is the true class",
        "written in $t$",
        "tests/test_notation.py",
    )
    for rule in rules:
        assert rule in NOTATION, rule


def test_euler_is_written_exp_since_e_names_a_node(pages):
    assert offenders(r"(?<![A-Za-z\\])e\^", {path: math_of(text) for path, text in pages.items()}) == []


def test_h_is_only_ever_a_nudge_never_a_hidden_output(pages):
    code = {path: python_of(text) for path, text in pages.items()}
    assert offenders(r"\bfor h in (?!\()|\bh\.(data|grad)\b|\bh = [a-z_]+\(", code) == []
    shown = {path: [path.read_text(encoding="utf-8")] for path in SHOWN_SOURCES}
    assert offenders(r"\bfor h in (?!\()|\bh\.(data|grad)\b", shown) == []


def test_a_parameter_is_theta_never_p(pages):
    everywhere = {path: [text] for path, text in pages.items()}
    everywhere |= {path: [path.read_text(encoding="utf-8")] for path in SHOWN_SOURCES}
    assert offenders(r"Σ ?p²|d/dp = 2·l2|\bp ← p\b|every parameter p\b", everywhere) == []


def test_k_is_an_exponent_never_a_step_a_class_or_an_index(pages):
    everywhere = {path: [text] for path, text in pages.items()}
    everywhere |= {path: [path.read_text(encoding="utf-8")] for path in SHOWN_SOURCES}
    assert offenders(r"decay·k|decay \* k|lambda k\b|0 … k-1|\\sum_k|_\{?k\}?\b(?!-)", everywhere) == []


def test_the_true_class_is_y_and_the_count_of_examples_is_capital_n(pages):
    assert offenders(r"softmax\(z\)_c|z_c\b", {path: math_of(text) for path, text in pages.items()}) == []
    losses = (ROOT / "src" / "scratchgrad" / "losses.py").read_text(encoding="utf-8")
    assert re.findall(r"\)/n\b|divided by n\b", losses) == []
