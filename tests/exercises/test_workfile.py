"""The work file: one .py with a marked section per exercise, written and read by one module."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scratchgrad.exercises import EXERCISES, WorkFileError, export, parse
from scratchgrad.exercises.registry import ENGINE_PIECES

IDS = [exercise.id for exercise in EXERCISES]
code_lines = st.lists(
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), max_size=30).filter(
        lambda line: not line.startswith("# %% exercise:")
    ),
    min_size=1,
    max_size=6,
)


@given(st.dictionaries(st.sampled_from(IDS), code_lines, min_size=1))
def test_parse_gives_back_what_export_wrote(pieces):
    sources = {name: "\n".join(lines) for name, lines in pieces.items()}
    canonical = {
        name: (source.strip("\n").rstrip() + "\n" if source.strip() else "")
        for name, source in sources.items()
    }
    assert parse(export(sources)) == canonical


def test_sections_come_in_the_order_of_the_story_with_their_titles():
    text = export(
        {"backward": "class Value(Value):\n    pass\n", "slope": "def slope(f, x):\n    return 0\n"}
    )
    assert text.index("# %% exercise: slope — Slope by nudging") < text.index(
        "# %% exercise: backward — backward()"
    )
    assert text.startswith("# My scratchgrad engine")


def test_an_unknown_exercise_is_kept_not_dropped():
    assert parse(export({"from-a-newer-site": "x = 1\n"})) == {"from-a-newer-site": "x = 1\n"}


def test_a_file_without_sections_is_refused_with_the_reason():
    with pytest.raises(WorkFileError, match="no '# %% exercise: <id>' lines"):
        parse("# just a comment\n")


def test_code_outside_any_section_names_its_line():
    with pytest.raises(WorkFileError, match="line 2 is code before the first"):
        parse("# header\nx = 1\n# %% exercise: slope\n")


def test_two_sections_for_one_exercise_name_both_lines():
    with pytest.raises(
        WorkFileError, match=r"line 3: a second section for 'slope' \(the first is on line 1\)"
    ):
        parse("# %% exercise: slope\na = 1\n# %% exercise: slope\nb = 2\n")


def test_the_exported_file_runs_as_the_readers_engine():
    # the engine's pieces: torch-port's port imports torch, which Pyodide has not
    pieces = {exercise.id: exercise.solution for exercise in ENGINE_PIECES}
    namespace: dict = {"__name__": "my_engine"}
    exec(export(pieces), namespace)
    a = namespace["Value"](3.0)
    (a * a + a).backward()
    assert a.grad == 7.0
