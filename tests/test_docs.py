"""The tutorial site: a strict build, every runnable block re-run, no engine code pasted into pages.

The build itself runs each page's ```python run``` blocks (hooks/runnable.py) and fails on any
error; here every block runs again, in a fresh process and a fresh namespace per page, and its
output must equal what the built page shows: a page cannot show a number its code does not print.
"""

from __future__ import annotations

import ast
import html
import importlib
import pkgutil
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from docs_pages import ROOT, build_site, built_page, page_fences, pages, runnable_pages, small_site

sys.path.insert(0, str(ROOT / "hooks"))
runnable = importlib.import_module("runnable")

PAGES = pages()
SNIPPET_LINE = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["']).+\1\s*$""")


# -- reading built pages ---------------------------------------------------------------------


class RunnableBlocks(HTMLParser):
    """The runnable blocks of a built page: attributes and the text of their build-time output."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[dict] = []
        self._in_output = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "div" and "sg-runnable" in classes:
            self.blocks.append({**attributes, "output": "", "error": ""})
        elif tag == "pre" and "sg-output" in classes:
            self._in_output = 1
        elif self._in_output and tag == "span" and "sg-error" in classes:
            self._in_output = 2
        elif self._in_output:
            raise AssertionError(f"unexpected <{tag}> inside a block's output")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in_output = 0
        elif tag == "span" and self._in_output == 2:
            self._in_output = 1

    def handle_data(self, data: str) -> None:
        if self._in_output:
            self.blocks[-1]["error" if self._in_output == 2 else "output"] += data


@pytest.fixture(scope="session")
def site(site_dir: Path) -> Path:
    return site_dir


def test_strict_build_passes(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "vendor" / "katex" / "katex.min.css").is_file()


# -- every block runs again and prints what the page shows ------------------------------------


def assert_same_output(printed: str, block: dict, where: str) -> None:
    """The block printed what the page shows; for ``output="varies"`` (timings) the same number of lines."""
    if block.get("data-sg-output") == "varies":
        assert printed.count("\n") == block["output"].count("\n") > 0, where
    else:
        assert printed == block["output"], where


@pytest.mark.parametrize("page", PAGES)
def test_blocks_rerun_with_the_output_the_page_shows(site: Path, page: str) -> None:
    parser = RunnableBlocks()
    parser.feed(built_page(site, page).read_text())
    assert len(parser.blocks) == sum(fence.runnable for fence in page_fences(page)), (
        "runnable fences vs runnable blocks on the page"
    )
    session = runnable.PageSession(page.removesuffix(".md"))
    for index, block in enumerate(parser.blocks):
        assert block["data-sg-page"] == session.page
        assert block["data-sg-block"] == str(index)
        outcome = session.run(block["data-sg-code"])
        expect = block.get("data-sg-expect")
        where = f"{page}, block {index}:\n{block['data-sg-code']}"
        assert_same_output(outcome.printed, block, where)
        if expect is None:
            assert outcome.raised is None, f"{where}\nraised {outcome.raised.line}"
        else:
            assert outcome.raised is not None, f"{where}\nexpected {expect}, nothing was raised"
            assert outcome.as_expected(expect), where
            assert block["error"] == outcome.raised.line, where


CPYTHON_ONLY_PAGES = [
    page
    for page in PAGES
    if any(fence.runnable and 'browser="no"' in fence.info for fence in page_fences(page))
]


@pytest.mark.parametrize("page", CPYTHON_ONLY_PAGES)
def test_pages_run_in_the_browser_without_their_cpython_only_blocks(site: Path, page: str) -> None:
    """The browser skips ``browser="no"`` blocks (torch): every other block must not need them."""
    parser = RunnableBlocks()
    parser.feed(built_page(site, page).read_text())
    assert any(block.get("data-sg-browser") == "no" for block in parser.blocks)
    session = runnable.PageSession(page.removesuffix(".md"))
    for index, block in enumerate(parser.blocks):
        if block.get("data-sg-browser") == "no":
            continue
        outcome = session.run(block["data-sg-code"])
        where = f'{page}, block {index} without the browser="no" blocks:\n{block["data-sg-code"]}'
        assert_same_output(outcome.printed, block, where)
        expected_error = block.get("data-sg-expect") is not None
        assert (outcome.raised is not None) == expected_error, f"{where}\n{outcome.raised}"


# -- engine code only through snippets ---------------------------------------------------------


def engine_names() -> set[str]:
    """Names a page must never define itself: the package's public API, methods and the classic helpers."""
    import scratchgrad

    names = {"_backward", "build_topo", "backward", "zero_grad", "parameters"}
    for info in pkgutil.walk_packages(scratchgrad.__path__, "scratchgrad."):
        if info.name.endswith(".__main__") or info.name.startswith("scratchgrad.exercises"):
            continue  # a command line (importing it runs it); the exercises: reader code, not the engine
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            names.add(name)
            member = getattr(module, name)
            if isinstance(member, type):
                names.update(
                    attr for attr in vars(member) if not attr.startswith("__") or attr.endswith("__")
                )
    return names - {"__module__", "__doc__", "__dict__", "__weakref__", "__slots__", "__annotations__"}


def pasted_engine_code(source: str, forbidden: set[str]) -> list[str]:
    """Definitions in `source` that re-create the engine instead of importing it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.name in forbidden:
            found.append((node.lineno, f"line {node.lineno}: defines {node.name}"))
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                owner = (
                    target.value.id
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    else ""
                )
                if owner in forbidden and owner[:1].isupper():
                    found.append((node.lineno, f"line {node.lineno}: patches {owner}.{target.attr}"))
    return [text for _, text in sorted(found)]


@pytest.fixture(scope="module")
def forbidden() -> set[str]:
    return engine_names()


@pytest.mark.parametrize("page", PAGES)
def test_python_on_pages_is_runnable_or_a_snippet_of_src(page: str, forbidden: set[str]) -> None:
    for fence in page_fences(page):
        lang, body = fence.language, fence.body
        if lang not in ("python", "py", "pycon", "python3"):
            continue
        lines = [line for line in body.splitlines() if line.strip()]
        if lines and all(SNIPPET_LINE.match(line) for line in lines):
            assert all("src/" in line for line in lines), f"{page}: engine code is included from src/ only"
            continue
        assert lang == "python", f"{page}: write Python blocks as ```python run```, not ```{lang}:\n{body}"
        assert fence.runnable, (
            f"{page}: a Python block that is neither ```python run``` (tested) nor a snippet of src/:\n{body}"
        )
        assert pasted_engine_code(body, forbidden) == [], f"{page}: engine code pasted into the page:\n{body}"


@pytest.mark.parametrize("page", PAGES)
def test_reader_code_lives_only_in_exercise_blocks_filled_from_the_package(page: str) -> None:
    """The no-pasted-engine rule holds for the package's code everywhere. The one place a page shows
    a reader-written engine (a stub, a solution defining its own `Value`) is an exercise block, and
    its fence holds nothing but the exercise's id: hooks/exercises.py fills it from
    scratchgrad.exercises, whose tests prove each stub fails and each solution passes."""
    from scratchgrad.exercises import describe

    known = {exercise["id"] for exercise in describe()}
    for fence in page_fences(page):
        if fence.language == "exercise":
            assert fence.body.strip() in known, (
                f"{page}: an ```exercise fence holds one exercise id, not:\n{fence.body}"
            )


def test_the_paste_detector_catches_a_pasted_engine() -> None:
    pasted = "class Value:\n    def backward(self):\n        pass\n\nValue.__add__ = lambda a, b: a\n"
    found = pasted_engine_code(pasted, engine_names())
    assert found == ["line 1: defines Value", "line 2: defines backward", "line 5: patches Value.__add__"]
    assert (
        pasted_engine_code("from scratchgrad import Value\nv = Value(1.0)\nv.label = 'v'\n", engine_names())
        == []
    )


# -- the build fails when a page is wrong --------------------------------------------------------


def mini_site(tmp_path: Path, page: str) -> Path:
    """A one-page site using the real configuration and hooks; returns its mkdocs.yml."""
    return small_site(tmp_path, {"index": page})


GOOD_PAGE = (
    '# Page\n\n```python\n--8<-- "src/scratchgrad/engine.py:value_add"\n```\n\n'
    "```python run\nprint(6 * 7)\n```\n"
)


def test_a_correct_mini_site_builds(tmp_path: Path) -> None:
    result = build_site(tmp_path / "site", mini_site(tmp_path, GOOD_PAGE))
    assert result.returncode == 0, result.stderr
    shown = (tmp_path / "site" / "index.html").read_text()
    assert '<pre class="sg-output">42\n</pre>' in shown
    assert "def __add__" in html.unescape(re.sub(r"<[^>]+>", "", shown))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("engine.py:value_add", "engine.py:no_such_section"),
            "Snippet section 'no_such_section' could not be located",
        ),
        (("engine.py:value_add", "no_such_file.py"), "no_such_file.py"),
        (("print(6 * 7)", "print(undefined_name)"), "NameError: name 'undefined_name' is not defined"),
        (
            ("```python run\n", '```python run expect="KeyError"\n'),
            "expected KeyError but the block ran without an error",
        ),
        (("print(6 * 7)", "[][1]"), "unexpected error IndexError"),
        (
            ("```python run\n", '```python run graph="42"\n'),
            "show_graph() draws the graph of a Value, got int",
        ),
        (("```python run\n", "```python run colour\n"), "unknown option(s) ['colour']"),
        (("```python run\n", '```python run browser="yes"\n'), 'the only value is "no"'),
        (("```python run\n", '```python run output="same"\n'), 'the only value is "varies"'),
    ],
)
def test_a_broken_page_fails_the_build(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    page = GOOD_PAGE.replace(*change)
    assert page != GOOD_PAGE
    result = build_site(tmp_path / "site", mini_site(tmp_path, page))
    assert result.returncode != 0
    assert message in result.stdout + result.stderr


# -- "Download as notebook": the page's blocks and their outputs (hooks/chapter_notebooks.py) -----

NOTEBOOK_LINK = re.compile(r'<a href="([^"]+\.ipynb)" download [^>]*>Download as notebook</a>')
GRAPH_LINE = re.compile(r"show_graph\([^\n]+\)")


def chapter_notebook(site: Path, page: str) -> tuple[list[dict], nbformat.NotebookNode]:
    """The page's runnable blocks as built, and the notebook its "Download as notebook" link serves."""
    shown = built_page(site, page).read_text()
    links = NOTEBOOK_LINK.findall(shown)
    assert len(links) == 1, f"{page}: one 'Download as notebook' link, found {links}"
    parser = RunnableBlocks()
    parser.feed(shown)
    notebook = nbformat.read(built_page(site, page).parent / links[0], as_version=4)
    return parser.blocks, notebook


@pytest.mark.parametrize("page", runnable_pages())
def test_every_page_with_blocks_offers_them_as_a_valid_notebook_with_the_builds_outputs(
    site: Path, page: str
) -> None:
    blocks, notebook = chapter_notebook(site, page)
    nbformat.validate(notebook)
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"][2:]  # after install, namespace
    assert len(cells) == len(blocks)
    for index, (cell, block) in enumerate(zip(cells, blocks, strict=True)):
        where = f"{page}, block {index}"
        code = block["data-sg-code"].rstrip("\n")
        assert cell.source.startswith(code), where
        assert all(GRAPH_LINE.fullmatch(line) for line in cell.source[len(code) :].split("\n")[1:]), where
        printed = "".join(output.text for output in cell.outputs if output.output_type == "stream")
        assert printed == block["output"], where
        errors = [f"{output.traceback[-1]}" for output in cell.outputs if output.output_type == "error"]
        assert errors == ([block["error"]] if block["error"] else []), where


def test_pages_without_blocks_offer_no_notebook(site: Path) -> None:
    for page in sorted(set(PAGES) - set(runnable_pages())):
        assert NOTEBOOK_LINK.search(built_page(site, page).read_text()) is None, page


@pytest.mark.slow
@pytest.mark.parametrize("page", ["chain-rule.md", "notebooks/build-the-engine.md"])
def test_a_downloaded_notebook_run_in_jupyter_prints_what_the_page_printed(site: Path, page: str) -> None:
    """chain-rule draws graphs; build-the-engine defines the engine in its cells. The kernel imports
    scratchgrad from this environment: no %pip."""
    blocks, notebook = chapter_notebook(site, page)
    notebook.cells[1].source = ""
    NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"][2:]
    printed = ["".join(o.text for o in cell.outputs if o.output_type == "stream") for cell in cells]
    assert printed == [block["output"] for block in blocks]
    assert any(o.output_type == "display_data" for cell in cells for o in cell.outputs)


def test_the_build_the_engine_notebook_builds_it_from_the_stages_and_imports_the_package_last() -> None:
    """Every engine line of the page is a snippet of src/scratchgrad/stages/; no block before the
    last imports scratchgrad (the engine is built, not imported); the last compares with it."""
    *building, comparing = [fence for fence in page_fences("notebooks/build-the-engine.md") if fence.runnable]
    snippets = [line for fence in building for line in fence.body.splitlines() if SNIPPET_LINE.match(line)]
    assert snippets
    assert all('"src/scratchgrad/stages/' in line for line in snippets), snippets
    for fence in building:
        assert not re.search(r"^\s*(from|import)\s+scratchgrad\b", fence.body, re.MULTILINE), fence.body
    assert "import scratchgrad\n" in comparing.body


def test_the_whole_engine_page_shows_every_stage_the_network_needs() -> None:
    listing = next(fence for fence in page_fences("story-engine.md") if not fence.runnable).body
    for section in ("graph_only.py:value", "closures.py:value", "textbook_nn.py:network"):
        assert f'"src/scratchgrad/stages/{section}"' in listing
