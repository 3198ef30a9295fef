"""Readers' work as the exercises store it, for the tests of "Run with: my engine": piece id → code.

One definition for the unit tests (tests/page/test_reader_engine.py) and the browser's
(tests/browser/test_run_with_my_engine.py), so both mean the same four readers.
"""

from __future__ import annotations

import re
from pathlib import Path

from scratchgrad.exercises.registry import EXERCISES

SOLUTIONS = {exercise.id: exercise.solution for exercise in EXERCISES}
"""Every piece passed with the reference solution (whose first rules set their shares with =)."""
NATURAL = {k: v for k, v in SOLUTIONS.items() if k != "accumulate"}
NATURAL["local-derivatives"] = SOLUTIONS["local-derivatives"].replace(".grad +=", ".grad =")
"""The first rules written the natural way, with =, and the += fix not done yet."""
ACCUMULATING = {
    **SOLUTIONS,
    "local-derivatives": re.sub(r"\.grad = (?=.*out\.grad)", ".grad += ", SOLUTIONS["local-derivatives"]),
}
"""A correct engine: shares added (+=) from the first rules on."""
LEARNER = {
    **SOLUTIONS,
    **{
        piece.stem.replace("_", "-"): piece.read_text(encoding="utf-8")
        for piece in (Path(__file__).parent / "learner_engine").glob("*.py")
    },
}
"""A correct engine in a learner's own style (tests/learner_engine/): children in a tuple, other names,
integer seeds, a plain "**" label, rules written with = until the += fix; every piece passes its checks."""
EQUALS = {**LEARNER, "accumulate": LEARNER["accumulate"].replace(".grad +=", ".grad =")}
"""The learner's engine with its += fix written with = (stored as passed, as a reader's work is kept
after an edit nobody checked): every rule still overwrites a reused node's share."""

STORE_AS_PASSED = """work => {
  const prefix = "scratchgrad:exercise:";
  for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
  localStorage.removeItem("scratchgrad:engine");
  for (const [id, code] of Object.entries(work)) {
    const record = {code, stub: "", checked: true, passed: code, lastChecked: code};
    localStorage.setItem(prefix + id, JSON.stringify(record));
  }
}"""
"""A page script: the reader's work (piece id → code) stored as the exercises keep it
(web/shared/exercise-work.js), each piece passed with that code, no engine chosen yet (so "my engine"
is the default); a page loaded afterwards reads it."""
