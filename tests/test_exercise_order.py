"""The built site asks before it tells: no "Your turn" stands below its own answer.

For every exercise of the registry, read its chapter's built page: the code printed above the
exercise (every ``<pre>``, collapsed blocks and earlier exercises included) must not define what the
exercise's reference solution defines, and must not hold more than a small fraction of the
solution's lines that its stub does not already give and that no earlier chapter of the story
printed (``loss.backward()`` on the training page is the reader's by then, not the exercise's
answer). The book's version of the piece comes after the exercise, in a collapsed
``details.sg-book`` that names the exercise (hooks/exercises.py).
"""

from __future__ import annotations

import ast
import copy
import html
import re
import textwrap
from pathlib import Path

import pytest
import yaml

from docs_pages import ROOT, built_page
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


SAME_FORM_AT_LEAST = 8
"""Expressions smaller than this (counted in `ast.expr` nodes) are glue, not a function's answer:
``self.w + [self.b]`` (6) may stand anywhere; ``(f(x + h) - f(x)) / h`` (11) may not."""


class _Canonical(ast.NodeTransformer):
    """Every name renamed in the order it first appears (``v0``, ``v1``, …): the same code under
    other names reads the same. Attributes (``.grad``, ``.tanh``) and constants keep theirs."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _renamed(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self._renamed(node.id), ast.Load()), node)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.copy_location(ast.arg(self._renamed(node.arg)), node)


def canonical(node: ast.AST) -> str:
    """`node`'s code with its names renamed canonically (`_Canonical`), as one comparable string."""
    return ast.dump(_Canonical().visit(copy.deepcopy(node)), annotate_fields=False)


def result_expression(function: ast.FunctionDef | ast.Lambda) -> ast.expr | None:
    """What a straight-line function returns, as one expression: each local assigned once and used
    after is put in its place (``rise = f(x + h) - f(x); return rise / h`` is
    ``(f(x + h) - f(x)) / h``). None when the body is anything else."""
    if isinstance(function, ast.Lambda):
        return function.body
    assigned: dict[str, ast.expr] = {}

    class Inline(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(assigned[node.id]) if node.id in assigned else node

    body = [statement for statement in function.body if not _is_docstring(statement)]
    for statement in body[:-1]:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            return None
        assigned[statement.targets[0].id] = Inline().visit(copy.deepcopy(statement.value))
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return None
    return Inline().visit(copy.deepcopy(body[-1].value))


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def _size(node: ast.AST) -> int:
    return sum(isinstance(each, ast.expr) for each in ast.walk(node))


def _parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return None


def forms(source: str) -> dict[str, str]:
    """The canonical forms of what `source` computes: each function's body (its arguments, then its
    statements, docstring left out) and each expression of any size worth comparing, lambdas' and
    the results of straight-line functions included → where it was found."""
    tree = _parsed(source)
    found: dict[str, str] = {}
    if tree is None:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = [statement for statement in node.body if not _is_docstring(statement)]
            if len(body) > 1:
                found.setdefault(
                    canonical(ast.Module([ast.arguments(*_plain(node.args)), *body], [])), node.name
                )
            node_result = result_expression(node) if isinstance(node, ast.FunctionDef) else None
            if node_result is not None and _size(node_result) >= SAME_FORM_AT_LEAST:
                found.setdefault(canonical(node_result), f"what {node.name}() returns")
        elif isinstance(node, ast.expr) and _size(node) >= SAME_FORM_AT_LEAST:
            found.setdefault(canonical(node), ast.unparse(node))
    return found


def _plain(arguments: ast.arguments) -> list:
    """A function's arguments without their defaults or annotations: `h=0.001` and `h=1e-6` are one form."""
    return [[], [ast.arg(arg.arg) for arg in arguments.posonlyargs + arguments.args], None, [], [], None, []]


def same_forms(solution: str, above: list[str]) -> dict[str, str]:
    """What the solution computes that code `above` computes too, in whatever names: its function
    → the code above that matches it (a function's body, or a function's result as an expression)."""
    shown: dict[str, str] = {}
    for block in above:
        for form, where in forms(block).items():
            shown.setdefault(form, where)
    tree = _parsed(solution)
    clashes_found: dict[str, str] = {}
    for node in ast.walk(tree) if tree else []:
        if not isinstance(node, ast.FunctionDef):
            continue
        body = [statement for statement in node.body if not _is_docstring(statement)]
        mine = (
            [canonical(ast.Module([ast.arguments(*_plain(node.args)), *body], []))] if len(body) > 1 else []
        )
        result = result_expression(node)
        if result is not None and _size(result) >= SAME_FORM_AT_LEAST:
            mine.append(canonical(result))
        for form in mine:
            if form in shown:
                clashes_found[node.name] = shown[form]
    return clashes_found


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


class _TaggedYaml(yaml.SafeLoader):
    """mkdocs.yml's own tags (!ENV, !relative) read as nothing: only the nav is wanted here."""


_TaggedYaml.add_multi_constructor("!", lambda loader, suffix, node: None)


def story() -> list[str]:
    """The chapters of "The story", in the order of mkdocs.yml's nav, by file name without ``.md``."""
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_TaggedYaml)["nav"]
    [section] = [item["The story"] for item in nav if isinstance(item, dict) and "The story" in item]
    return [next(iter(entry.values())).removesuffix(".md") for entry in section]


def earlier_lines(site_dir: Path, chapter: str) -> set[str]:
    """Every code line the story's chapters before `chapter` printed: the reader's vocabulary by then."""
    in_order = story()
    chapters_before = in_order[: in_order.index(chapter)]
    pages = (built_page(site_dir, f"{name}.md").read_text(encoding="utf-8") for name in chapters_before)
    return shown_lines([block for page in pages for block in code_blocks(page)])


@pytest.fixture(scope="module")
def chapters(site_dir: Path) -> dict[str, str]:
    return {
        chapter: built_page(site_dir, f"{chapter}.md").read_text(encoding="utf-8")
        for chapter in {each["chapter"] for each in EXERCISES}
    }


def starting_sources(exercise: dict) -> list[str]:
    """What the reader starts the exercise from: the code of the pieces it builds on (the book's
    solutions, standing for the reader's own), then its stub. The accumulate exercise's stub is
    empty: it starts from the reader's `=` rules of "local-derivatives", which the page shows above it."""
    solutions = {each["id"]: each["solution"] for each in EXERCISES}
    return [*(solutions[piece] for piece in exercise["builds_on"]), exercise["stub"]]


def starting_definitions(exercise: dict) -> dict[str, set[str]]:
    """`definitions` of the `starting_sources`, each name as the latest piece (or the stub) defines it."""
    defined: dict[str, set[str]] = {}
    for source in starting_sources(exercise):
        defined.update(definitions(source))
    return defined


@pytest.mark.parametrize("exercise", EXERCISES, ids=[each["id"] for each in EXERCISES])
def test_no_code_above_an_exercise_solves_it(site_dir, chapters, exercise):
    above, _ = exercise_html(chapters[exercise["chapter"]], exercise["id"])
    blocks = code_blocks(above)
    defined_above: dict[str, set[str]] = {}
    for block in blocks:
        defined_above.update(definitions(block))
    found = clashes(definitions(exercise["solution"]), defined_above, starting_definitions(exercise))
    assert not found, f"{exercise['chapter']}: code above the exercise defines {sorted(found)}"
    stub_forms = same_forms("\n\n".join(starting_sources(exercise)), blocks)  # what the reader has anyway
    other_form = {
        name: where
        for name, where in same_forms(exercise["solution"], blocks).items()
        if name not in stub_forms
    }
    assert not other_form, (
        f"{exercise['chapter']}: code above the exercise computes the solution's {other_form}"
    )
    # the reader has these lines anyway
    given = {line for source in starting_sources(exercise) for line in code_lines(source)}
    given |= earlier_lines(site_dir, exercise["chapter"])  # and what earlier chapters taught
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
    fixed, buggy = definitions(accumulate["solution"]), starting_definitions(accumulate)
    assert {"Value.__add__", "Value.__mul__", "Value.tanh"} <= buggy.keys()  # the reader's = rules
    assert clashes(fixed, definitions(solution), buggy) == set()  # the bug, shown above
    fixes = {"Value.__add__", "Value.__mul__", "Value.tanh"}
    assert clashes(fixed, definitions(accumulate["solution"]), buggy) == fixes
    lines = code_lines(solution)
    assert len(lines) > 10
    assert set(lines) <= shown_lines([solution])


OLD_DERIVATIVES = """\
def nudged_slope(x, h=0.001):
    return (f(x + h) - f(x)) / h
"""
"""Above the slope exercise on the old derivatives page (git 714c0b2^): the slope under another name,
with other arguments, and no local ``rise``."""
OLD_TANH = """\
for x in (0.0, 1.0, 2.0, 3.0):
    print(f"x = {x}:  tanh x = {math.tanh(x):.4f}   1 - tanh² x = {1 - math.tanh(x) ** 2:.4f}")
"""
"""Above "work out d/dx tanh" on the old backprop-by-hand page: the derivative, coded inside an f-string."""


def exercise(exercise_id: str) -> dict:
    return next(each for each in EXERCISES if each["id"] == exercise_id)


def test_a_function_in_another_form_is_found_where_names_and_lines_miss_it():
    """The old pages' patterns: no name the solutions define, no line of theirs — the same function."""
    for exercise_id, old in (("slope", OLD_DERIVATIVES), ("tanh-derivative", OLD_TANH)):
        solution = exercise(exercise_id)
        assert clashes(definitions(solution["solution"]), definitions(old), {}) == set()
        assert not set(code_lines(solution["solution"])) & shown_lines([old])
        assert same_forms(solution["solution"], [old]), exercise_id
        assert not same_forms(solution["stub"], [old]), exercise_id
    assert same_forms(exercise("slope")["solution"], [OLD_DERIVATIVES]) == {
        "slope": "what nudged_slope() returns"
    }
    assert same_forms(exercise("tanh-derivative")["solution"], [OLD_TANH]) == {
        "tanh_derivative": "1 - math.tanh(x) ** 2"
    }


def test_a_renamed_copy_of_a_longer_function_is_found_and_other_code_is_not():
    solution = exercise("topological-order")["solution"]
    renamed = ast.unparse(_Canonical().visit(ast.parse(solution)))  # every name changed
    assert renamed != solution
    assert same_forms(solution, [renamed])
    assert (
        same_forms(solution, [exercise("backward")["solution"], "print(sum(x * x for x in range(10)))"]) == {}
    )


def test_the_story_is_read_in_the_navs_order():
    chapters = story()
    assert chapters[0] == "derivatives"
    assert chapters.index("neurons-layers-mlp") < chapters.index("training") < chapters.index("exercises")
