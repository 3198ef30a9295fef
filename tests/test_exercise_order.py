"""The built site asks before it tells: no "Your turn" stands below its own answer.

For every exercise of the registry, read its chapter's built page: the code printed above the
exercise (every ``<pre>``, collapsed blocks and earlier exercises included) must not define what the
exercise's reference solution defines, and must not hold more than a small fraction of the
solution's lines that its stub does not already give. The book's version of the piece comes after
the exercise, in a collapsed ``details.sg-book`` that names the exercise (hooks/exercises.py).
"""

from __future__ import annotations

import ast
import html
import re
import textwrap
from pathlib import Path

import pytest

from docs_pages import built_page
from scratchgrad.exercises import describe

EXERCISES = describe()
LINES_ABOVE_AT_MOST = 0.25
"""The fraction of a solution's code lines that may stand above its exercise (a line or two of
glue such as ``other = other if isinstance(other, Value) else Value(other)`` is shared by design)."""

_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def code_blocks(page_html: str) -> list[str]:
    """The text of every <pre> of a piece of built HTML (Material's highlighted code, block outputs)."""
    return [html.unescape(_TAG.sub("", inner)) for inner in _PRE.findall(page_html)]


def definitions(source: str) -> dict[str, set[str]]:
    """The functions, classes and methods `source` defines ("name", "Class", "Class.method"), each
    with its code lines (`code_lines`).

    A method shown alone (an excerpt of a class) is "?.method" when its first argument is `self`.
    """
    source = textwrap.dedent(source)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    names: dict[str, set[str]] = {}

    def lines_of(node: ast.AST) -> set[str]:
        return set(code_lines(ast.get_source_segment(source, node) or ""))

    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            reopened = any(isinstance(base, ast.Name) and base.id == node.name for base in node.bases)
            if not reopened:
                names[node.name] = lines_of(node)
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    names[f"{node.name}.{member.name}"] = lines_of(member)
        elif isinstance(node, ast.FunctionDef):
            arguments = node.args.args
            method = bool(arguments) and arguments[0].arg == "self"
            names[f"?.{node.name}" if method else node.name] = lines_of(node)
    return names


def shown_as(name: str, shown: dict[str, set[str]]) -> set[str] | None:
    """The code lines of `name` as `shown` defines it, or None (a lone method matches any class's)."""
    if name in shown:
        return shown[name]
    lone = f"?.{name.rpartition('.')[2]}"
    return shown.get(lone) if "." in name else None


def clashes(solution: dict[str, set[str]], shown: dict[str, set[str]], stub: dict[str, set[str]]) -> set[str]:
    """The names of `solution` that `shown` defines too — unless what it shows is the stub's form
    rather than the solution's (the accumulate exercise starts from the chapter's own bug)."""
    found = set()
    for name, lines in solution.items():
        above = shown_as(name, shown)
        if above is None:
            continue
        if len(above & stub.get(name, set())) <= len(above & lines):
            found.add(name)
    return found


def code_lines(source: str) -> list[str]:
    """The lines of `source` that carry code: no blanks, comments, docstrings, imports or one-word lines."""
    lines = []
    for line in source.splitlines():
        text = " ".join(line.split("#", 1)[0].split())
        if len(text) < 12 or text.startswith(('"""', "import ", "from ", "return out")):
            continue
        lines.append(text)
    return lines


def shown_lines(blocks: list[str]) -> set[str]:
    return {" ".join(line.split("#", 1)[0].split()) for block in blocks for line in block.splitlines()}


def exercise_html(page: str, exercise_id: str) -> tuple[str, str]:
    """The page's HTML above the exercise's section, and from that section on."""
    marker = f'data-sg-exercise="{exercise_id}"'
    start = page.index(marker)
    start = page.rindex("<section", 0, start)
    return page[:start], page[start:]


@pytest.fixture(scope="module")
def chapters(site_dir: Path) -> dict[str, str]:
    return {
        chapter: built_page(site_dir, f"{chapter}.md").read_text(encoding="utf-8")
        for chapter in {each["chapter"] for each in EXERCISES}
    }


@pytest.mark.parametrize("exercise", EXERCISES, ids=[each["id"] for each in EXERCISES])
def test_no_code_above_an_exercise_solves_it(chapters, exercise):
    above, _ = exercise_html(chapters[exercise["chapter"]], exercise["id"])
    blocks = code_blocks(above)
    defined_above: dict[str, set[str]] = {}
    for block in blocks:
        defined_above.update(definitions(block))
    found = clashes(definitions(exercise["solution"]), defined_above, definitions(exercise["stub"]))
    assert not found, f"{exercise['chapter']}: code above the exercise defines {sorted(found)}"
    given = set(code_lines(exercise["stub"]))  # the reader has the stub's lines anyway
    lines = [line for line in code_lines(exercise["solution"]) if line not in given]
    seen = shown_lines(blocks)
    above_lines = [line for line in lines if line in seen]
    assert len(above_lines) <= LINES_ABOVE_AT_MOST * len(lines), (
        f"{exercise['chapter']}: {len(above_lines)} of {len(lines)} solution lines stand above the exercise: "
        + "; ".join(above_lines)
    )


@pytest.mark.parametrize("exercise", EXERCISES, ids=[each["id"] for each in EXERCISES])
def test_the_books_version_follows_its_exercise(chapters, exercise):
    _, below = exercise_html(chapters[exercise["chapter"]], exercise["id"])
    book = re.search(r'<details data-sg-book-for="([^"]+)" class="sg-book[ "]', below)
    assert book, f"no book's version after {exercise['id']!r}"
    assert book.group(1) == exercise["id"]


def test_the_solution_reader_finds_definitions_and_lines():
    """The measures above can fail: a pasted solution defines and repeats everything."""
    solution = next(each for each in EXERCISES if each["id"] == "local-derivatives")["solution"]
    assert {"Value.__add__", "Value.__mul__", "Value.tanh"} <= definitions(solution).keys()
    excerpt = "    def __add__(self, other):\n        return self\n"
    assert clashes(definitions(solution), definitions(excerpt), {}) == {"Value.__add__"}
    accumulate = next(each for each in EXERCISES if each["id"] == "accumulate")
    fixed, buggy = definitions(accumulate["solution"]), definitions(accumulate["stub"])
    assert clashes(fixed, definitions(accumulate["stub"]), buggy) == set()  # the bug, shown above
    fixes = {"Value.__add__", "Value.__mul__", "Value.tanh"}
    assert clashes(fixed, definitions(accumulate["solution"]), buggy) == fixes
    lines = code_lines(solution)
    assert len(lines) > 10
    assert set(lines) <= shown_lines([solution])
