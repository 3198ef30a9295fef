"""Readers' work as the exercises store it, for the tests of "Run with: my engine": piece id → code.

One definition for the unit tests (tests/page/test_reader_engine.py) and the browser's
(tests/browser/test_run_with_my_engine.py), so both mean the same three readers.
"""

from __future__ import annotations

import re

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
