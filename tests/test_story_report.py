"""The per-chapter report of whose engine runs (tests/story_report.py) tells the story's order."""

from docs_pages import runnable_pages
from story_report import chapter_row, report


def test_the_report_has_a_row_for_every_runnable_page():
    rows = report().splitlines()[2:]
    assert [row.split(" | ")[0].lstrip("| ") for row in rows] == runnable_pages()


def test_the_chain_rule_runs_the_equals_stage_without_the_fix_and_the_bug_chapter_adds_it():
    chain_rule, bug = chapter_row("chain-rule.md"), chapter_row("accumulating-gradients.md")
    assert chain_rule["stages"] == ["overwrite_bug"]
    assert "local-derivatives" in chain_rule["reader"]
    assert "accumulate" not in chain_rule["reader"]
    assert bug["stages"] == ["closures", "overwrite_bug"]
    assert "accumulate" in bug["reader"]


def test_operations_no_exercise_asks_for_are_the_books():
    row = chapter_row("more-operations.md")
    assert {"log", "sigmoid", "relu"} <= set(row["book"])
    assert row["on_yours"] > 0
