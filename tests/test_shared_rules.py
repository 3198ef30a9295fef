"""The rules the page shares with Python are written once, in Python (hooks/pyodide_runtime.py's
`shared_rules`, and the block file names hooks/runnable.py writes into each block's markup).

A value copied by hand into web/ would pass every other test until the day the two disagree:
here, no text value of a shared rule appears as a string literal in web/, nor does the start of
a format's text (a copy of it as a template literal).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from scratchgrad.page import blocks

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hooks"))  # the hooks import their siblings, as MkDocs lets them

import pyodide_runtime  # noqa: E402

WEB_SOURCES = sorted(ROOT.joinpath("web").rglob("*.js"))
QUOTES = "\"'`"


def literal_pattern(value: str) -> re.Pattern[str]:
    """A string literal of `value` in JavaScript; for a format ("<{page} block {number}>"), its
    longest piece of text between a quote or a placeholder and the next, as a template writes it."""
    if "{" not in value:
        return re.compile(f"[{QUOTES}]{re.escape(value)}(?:[{QUOTES}]|\\$\\{{)")
    piece = max(re.split(r"\{[^}]*\}", value), key=len)
    return re.compile(f"(?:[{QUOTES}]|\\}})\\s*{re.escape(piece)}\\s*(?:[{QUOTES}]|\\$?\\{{)")


def shared_texts() -> dict[str, str]:
    """The shared rules' text values; a separator ("; ") is too short to tell a copy from punctuation."""
    rules = pyodide_runtime.shared_rules() | {"blocks.FILENAME_FORMAT": blocks.FILENAME_FORMAT}
    return {name: value for name, value in rules.items() if isinstance(value, str) and len(value) > 2}


@pytest.mark.parametrize(("name", "value"), sorted(shared_texts().items()))
def test_no_shared_rule_is_copied_into_web(name, value):
    pattern = literal_pattern(value)
    copies = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in WEB_SOURCES
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not copies, f"{name} ({value!r}) is Python's: read the bundle's define instead of\n" + "\n".join(
        copies
    )


def test_a_copy_is_found_as_a_literal_or_as_the_start_of_a_template():
    assert literal_pattern("grad ").search('text.startsWith("grad ")')
    assert literal_pattern("grad ").search("`grad ${x.toFixed(4)}`")
    assert not literal_pattern("grad ").search("GRAPH_GRAD_FIELD")
    assert literal_pattern("<{page} block {number}>").search("`<${page} block ${n + 1}>`")
    assert literal_pattern("<{page} block {number}>").search('"<{page} block {number}>".replace(')
    assert not literal_pattern("<{page} block {number}>").search('filename: "<work file>"')
    assert literal_pattern("Computation graph, {nodes} nodes: {labels}").search("`Computation graph, ${n}")


def test_the_rules_reach_the_bundle_under_the_names_web_reads():
    declared = set()
    for path in WEB_SOURCES:
        for names in re.findall(r"/\* global ([^*]*)\*/", path.read_text()):
            declared |= {name.strip() for name in names.split(",")}
    defined = set(pyodide_runtime.defines(None, "build"))
    assert declared == defined, (sorted(declared - defined), sorted(defined - declared))
