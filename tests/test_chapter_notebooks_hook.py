"""hooks/chapter_notebooks.py: a page's runnable blocks, as they ran at build time, become a notebook.

The blocks here really run (`runnable.PageSession`, as in the build); the notebook must hold
their code in page order, what they printed and raised, and the headings between them; it must be
valid nbformat 4; and, run top to bottom in a Jupyter kernel, it must print what the page printed.
tests/test_docs.py checks every generated notebook of the built site.
"""

from __future__ import annotations

import copy
import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from mkdocs.exceptions import PluginError
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
chapter_notebooks = importlib.import_module("chapter_notebooks")
ran_blocks = importlib.import_module("helpers.ran_blocks")
runnable = importlib.import_module("runnable")

PAGE_URL = "https://example.org/site/chain/"
REPO_URL = "https://example.org/scratchgrad"
FENCES = [
    ({"run": "run"}, "from scratchgrad import Value\na = Value(2.0, label='a')\nprint(a.data)\n"),
    ({"run": "run", "graph": "b"}, "b = a * a\nb.label = 'b'\nb.backward()\nprint(a.grad)\n"),
    ({"run": "run", "expect": "ZeroDivisionError"}, "print('before')\n1 / 0\n"),
    ({"run": "run", "hide": "hide"}, "import random\nprint(random.random())\n"),
    ({"run": "run"}, "def twice(v: Defined_later) -> Defined_later:\n    return v + v\n\nprint(twice(a))\n"),
]
PAGE_HTML = (
    '<h1 id="chain">The chain <a class="headerlink" href="#chain">&para;</a></h1><p>Intro.</p>'
    '<div class="sg-runnable" id="sg-run-0"></div>'
    '<h2 id="twice">A &amp; B, twice<a class="headerlink" href="#twice">&para;</a></h2>'
    '<h3 id="sub"><code>b</code> again</h3><p>Text.</p>'
    '<div class="sg-runnable" id="sg-run-1"></div>'
    '<div class="sg-runnable" id="sg-run-2"></div>'
    '<h2 id="seed">Seeded</h2><div class="sg-runnable" id="sg-run-3"></div><p>The end.</p>'
    '<div class="sg-runnable" id="sg-run-4"></div>'
)


@pytest.fixture(scope="module")
def ran() -> list:
    """The page's blocks, run as the build runs them (one namespace, seeded), with their pictures."""
    session = runnable.PageSession("chain")
    blocks = []
    for index, (options, source) in enumerate(FENCES):
        outcome = session.run(source, runnable.split_expressions(options.get("graph", "")))
        _, result = runnable.render_block(index, source, options, outcome, session)
        blocks.append(ran_blocks.RanBlock(source, options, outcome, runnable.drawn_svgs(result)))
    return blocks


@pytest.fixture(scope="module")
def notebook(ran: list) -> nbformat.NotebookNode:
    return chapter_notebooks.build_notebook("The chain", PAGE_URL, REPO_URL, PAGE_HTML, ran)


def code_cells(notebook: nbformat.NotebookNode) -> list:
    """The cells of the page's blocks: every code cell after the install and namespace cells."""
    return [cell for cell in notebook.cells if cell.cell_type == "code"][2:]


def stream_text(cell) -> str:
    return "".join(output.text for output in cell.outputs if output.output_type == "stream")


def test_the_notebook_is_valid_nbformat_4(notebook: nbformat.NotebookNode) -> None:
    nbformat.validate(notebook)
    assert notebook.nbformat == 4
    assert nbformat.reads(nbformat.writes(notebook), as_version=4) == notebook


def test_code_cells_hold_the_blocks_in_page_order_with_graph_lines_after(notebook, ran) -> None:
    sources = [cell.source for cell in code_cells(notebook)]
    assert sources == [
        FENCES[0][1].rstrip("\n"),
        FENCES[1][1] + "show_graph(b)",
        FENCES[2][1].rstrip("\n"),
        FENCES[3][1].rstrip("\n"),
        FENCES[4][1].rstrip("\n"),
    ]


def test_outputs_are_what_the_build_printed_raised_and_drew(notebook, ran) -> None:
    cells = code_cells(notebook)
    assert [stream_text(cell) for cell in cells] == [block.outcome.printed for block in ran]
    assert stream_text(cells[1]) == "4.0\n"
    pictures = [output.data["image/svg+xml"] for output in cells[1].outputs[1:]]
    assert pictures == ran[1].pictures
    assert len(pictures) == 1
    assert pictures[0].startswith("<svg")
    assert pictures[0].endswith("</svg>")
    error = cells[2].outputs[1]
    assert (error.output_type, error.ename, error.evalue) == (
        "error",
        "ZeroDivisionError",
        "division by zero",
    )
    assert error.traceback[-1] == "ZeroDivisionError: division by zero"
    assert cells[2].metadata.tags == ["raises-exception"]
    assert cells[3].metadata.jupyter == {"source_hidden": True}


def test_the_pages_prose_sits_between_the_cells_where_the_page_has_it(notebook) -> None:
    markdown = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    assert markdown[0].startswith(f"# The chain\n\nThe runnable code of the chapter [The chain]({PAGE_URL})")
    assert markdown[1:] == [
        "Intro.",
        f"## [A & B, twice]({PAGE_URL}#twice)\n\n### [`b` again]({PAGE_URL}#sub)\n\nText.",
        f"## [Seeded]({PAGE_URL}#seed)",
        "The end.",
    ]
    kinds = [cell.cell_type for cell in notebook.cells]
    prose_and_blocks = ["markdown" if kind == "m" else "code" for kind in "mcmccmcmc"]
    assert kinds == ["markdown", "code", "code", *prose_and_blocks]  # intro, install, namespace first


def test_the_first_cells_install_from_the_repository_and_make_the_pages_namespace(notebook) -> None:
    install, namespace = (cell.source for cell in notebook.cells[1:3])
    assert install.splitlines()[-1] == f'%pip install --quiet "scratchgrad[graph] @ git+{REPO_URL}"'
    assert namespace.startswith("# ")
    assert "\nfrom __future__ import annotations\n" in namespace
    assert "globals().update(blocks.new_namespace())" in namespace
    assert "blocks.set_display(" in namespace  # the page draws a graph


def test_torch_joins_the_install_line_only_when_a_block_imports_it() -> None:
    torch_block = ran_blocks.RanBlock("import torch\n", {"run": "run"}, None, [])
    plain = ran_blocks.RanBlock("x = 1\n", {"run": "run"}, None, [])
    assert '"scratchgrad[graph,torch] @' in chapter_notebooks.install_line(REPO_URL, [plain, torch_block])
    assert '"scratchgrad[graph] @' in chapter_notebooks.install_line(REPO_URL, [plain])


def test_cell_ids_are_the_same_from_one_build_to_the_next(ran) -> None:
    first = chapter_notebooks.build_notebook("The chain", PAGE_URL, REPO_URL, PAGE_HTML, ran)
    second = chapter_notebooks.build_notebook("The chain", PAGE_URL, REPO_URL, PAGE_HTML, ran)
    assert nbformat.writes(first) == nbformat.writes(second)


def test_a_page_whose_blocks_do_not_match_what_ran_fails_the_build(ran) -> None:
    with pytest.raises(PluginError, match=r"the page shows blocks \[0, 1, 2, 3, 4\], 4 ran"):
        chapter_notebooks.build_notebook("The chain", PAGE_URL, REPO_URL, PAGE_HTML, ran[:4])


def test_the_link_sits_under_the_title_and_names_the_notebook() -> None:
    shown = chapter_notebooks.add_link("<h1>T</h1><p>x</p>", "chain.ipynb")
    assert shown.startswith('<h1>T</h1><p class="sg-notebook-download"><a href="chain.ipynb" download')
    assert ">Download as notebook</a></p><p>x</p>" in shown
    assert chapter_notebooks.add_link("<p>x</p>", "a.ipynb").startswith('<p class="sg-notebook-download">')
    assert chapter_notebooks.notebook_name("guide/chain-rule.md") == "chain-rule.ipynb"


def test_the_hook_writes_the_notebook_next_to_the_page_and_links_it(tmp_path: Path, ran) -> None:
    ran_blocks.record("chain", ran)
    page = SimpleNamespace(
        file=SimpleNamespace(src_uri="chain.md", dest_uri="chain/index.html"), url="chain/", title="The chain"
    )
    config = SimpleNamespace(site_url="https://example.org/site/", repo_url=REPO_URL, site_dir=str(tmp_path))
    shown = chapter_notebooks.on_page_content(PAGE_HTML, page, config, None)
    assert 'href="chain.ipynb" download' in shown
    written = nbformat.read(tmp_path / "chain" / "chain.ipynb", as_version=4)
    assert code_cells(written)[0].source == FENCES[0][1].rstrip("\n")
    assert f"]({PAGE_URL})" in written.cells[0].source
    ran_blocks.record("chain", [])
    assert chapter_notebooks.on_page_content(PAGE_HTML, page, config, None) == PAGE_HTML


@pytest.mark.slow
def test_run_top_to_bottom_in_jupyter_the_notebook_prints_what_the_page_printed(notebook) -> None:
    """The kernel imports scratchgrad from this environment, so the %pip cell is emptied."""
    run = copy.deepcopy(notebook)
    run.cells[1].source = ""
    NotebookClient(run, timeout=120, kernel_name="python3").execute()
    cells = code_cells(run)
    assert [stream_text(cell) for cell in cells] == [stream_text(cell) for cell in code_cells(notebook)]
    drawn = [output for output in cells[1].outputs if output.output_type == "display_data"]
    assert "image/svg+xml" in drawn[0].data
    errors = [output.ename for output in cells[2].outputs if output.output_type == "error"]
    assert errors == ["ZeroDivisionError"]
