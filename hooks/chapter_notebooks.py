"""MkDocs hook: every page with runnable blocks offers "Download as notebook".

The notebook is the page's ```python run``` blocks in page order, one code cell each, holding the
code exactly as the page runs it (snippets expanded) and, as outputs, what the block printed, the
error it was meant to raise, and the pictures drawn under it when the site was built (recorded by
hooks/runnable.py in `ran_blocks`: nothing runs twice). Between the code cells, markdown cells
carry the page's prose (`page_prose`: headings linking back to their sections, paragraphs, lists,
formulas, the code listings the page shows), so the notebook reads like the page. Two cells come
first:

* the install line: scratchgrad is not on PyPI, so ``%pip`` installs it from the repository
  (``repo_url`` in mkdocs.yml), with Graphviz drawing, and torch when a block imports it;
* the page's namespace as `scratchgrad.page.blocks` makes it: `random` seeded, ``show_graph`` defined,
  Python's recursion limit as on the page (a block may be meant to hit it), annotations not
  evaluated (blocks are compiled under ``from __future__ import annotations``), and, on a page
  that draws graphs, ``show_graph`` drawing with Graphviz in Jupyter.

A block with a ``graph=`` option draws its graph in the cell by a last line ``show_graph(L)``, as
the page draws it after the block; a block meant to fail is tagged ``raises-exception``, so
Jupyter's "Run all" carries on past it. Figures (``figure=``) are kept as pictures: the functions
that draw them belong to the site's build, not to the package.

The file is written next to the page (``derivatives/derivatives.ipynb`` for ``derivatives.md``),
so it is served by the site like any page, offline too, and linked under the page's title.
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

import nbformat
from helpers import page_prose, ran_blocks
from mkdocs.exceptions import PluginError
from nbformat import v4

LINK_TEXT = "Download as notebook"
_BLOCK = re.compile(r'<div class="sg-runnable" id="sg-run-(\d+)"')
_TORCH = re.compile(r"^\s*(?:import|from)\s+torch\b", re.MULTILINE)


def install_line(repo_url: str, blocks: list[ran_blocks.RanBlock]) -> str:
    """The ``%pip`` line a notebook needs: the package from its repository, with the extras its blocks use."""
    extras = ["graph"] + (["torch"] if any(_TORCH.search(block.source) for block in blocks) else [])
    return (
        "# scratchgrad is not on PyPI: this installs it from its repository (in a clone of it,\n"
        f'# `pip install -e ".[{",".join(extras)}]"` does the same).\n'
        f'%pip install --quiet "scratchgrad[{",".join(extras)}] @ git+{repo_url}"'
    )


def namespace_cell(draws_graphs: bool) -> str:
    """The first code cell after the install: the page's namespace, as `scratchgrad.page.blocks` makes it."""
    lines = [
        "# The cells share one namespace, as the page's blocks do: random seeded as on the page,",
        "# show_graph() defined, Python's recursion limit as it is when the page runs a block, and",
        "# annotations left unevaluated, as in the blocks (compiled by scratchgrad.page.blocks, which",
        "# has this import: a class may name itself in its methods' annotations). IPython keeps it for",
        "# every cell.",
        "from __future__ import annotations",
        "",
        "import sys",
        "",
        "from scratchgrad.page import blocks",
        "",
        "globals().update(blocks.new_namespace())",
        "sys.setrecursionlimit(blocks.RECURSION_LIMIT)",
    ]
    if draws_graphs:
        lines += [
            "",
            "# show_graph() draws with Graphviz here (the page draws in the browser; its step-through",
            "# study of the graph, the display that follows each drawing, is for the page only).",
            "import graphviz",
            "from IPython.display import display",
            "",
            "",
            "def draw(mime_type, data, label):",
            "    if mime_type == blocks.DOT_MIME_TYPE:",
            "        display(graphviz.Source(data))",
            "",
            "",
            "blocks.set_display(draw)",
        ]
    return "\n".join(lines)


def cell_source(block: ran_blocks.RanBlock) -> str:
    """The code of a block's cell: its source, then a ``show_graph`` line per ``graph=`` expression."""
    graphs = [part.strip() for part in block.options.get("graph", "").split(";") if part.strip()]
    source = block.source.rstrip("\n")
    return "\n".join([source, *(f"show_graph({expression})" for expression in graphs)])


def cell_outputs(block: ran_blocks.RanBlock) -> list:
    """What the build's run of `block` showed, as notebook outputs: printed text, error, pictures."""
    outputs = []
    if block.outcome.printed:
        outputs.append(v4.new_output("stream", name="stdout", text=block.outcome.printed))
    raised = block.outcome.raised
    if raised is not None:
        outputs.append(
            v4.new_output(
                "error",
                ename=raised.names[0],
                evalue=raised.line.partition(": ")[2],
                traceback=raised.traceback.rstrip("\n").splitlines(),
            )
        )
    for svg in block.pictures:
        outputs.append(v4.new_output("display_data", data={"image/svg+xml": svg}))
    return outputs


def prose_cells(pieces: list[page_prose.Piece], start: int, end: int) -> list:
    """One markdown cell of the prose between offsets `start` and `end` of the page, if it has any."""
    between = [piece.markdown for piece in pieces if start <= piece.offset < end]
    return [v4.new_markdown_cell("\n\n".join(between))] if between else []


def code_cell(block: ran_blocks.RanBlock) -> nbformat.NotebookNode:
    """A block's cell: its code, its build-time outputs, and tags for a must-fail or hidden block."""
    cell = v4.new_code_cell(cell_source(block), outputs=cell_outputs(block))
    if block.options.get("expect"):
        cell.metadata["tags"] = ["raises-exception"]  # "Run all" goes on past it
    if "hide" in block.options:
        cell.metadata["jupyter"] = {"source_hidden": True}
    return cell


def build_notebook(
    title: str, page_url: str, repo_url: str, page_html: str, blocks: list[ran_blocks.RanBlock]
) -> nbformat.NotebookNode:
    """The notebook of a page: intro, install, namespace, then each block under the prose before it.

    `page_html` is the page's content after hooks/runnable.py has run its blocks: block ``n`` is
    the element with ``id="sg-run-n"``, which places the prose between the blocks.
    """
    positions = [int(m.group(1)) for m in _BLOCK.finditer(page_html)]
    if positions != list(range(len(blocks))):
        raise PluginError(f"{page_url}: the page shows blocks {positions}, {len(blocks)} ran")
    starts = [m.start() for m in _BLOCK.finditer(page_html)]
    intro = (
        f"# {title}\n\n"
        f"The runnable code of the chapter [{title}]({page_url}) of the scratchgrad tutorial, cell by "
        "cell in page order, with the outputs it printed when the site was built, and the chapter's "
        "text between the cells (its exercises, figures and collapsed deep dives are on the page: the "
        "headings link to it). Run the two cells below first, then the rest in order: the cells "
        "share one namespace, as the page's blocks do."
    )
    cells = [v4.new_markdown_cell(intro), v4.new_code_cell(install_line(repo_url, blocks))]
    draws_graphs = any(block.options.get("graph") or "show_graph(" in block.source for block in blocks)
    cells.append(v4.new_code_cell(namespace_cell(draws_graphs)))
    pieces = [piece for piece in page_prose.prose(page_html, page_url) if not piece.markdown.startswith("# ")]
    previous = 0
    for block, start in zip(blocks, starts, strict=True):
        cells += prose_cells(pieces, previous, start)
        cells.append(code_cell(block))
        previous = start
    cells += prose_cells(pieces, previous, len(page_html))
    for number, cell in enumerate(cells):
        cell.id = f"cell-{number}"  # the same file from the same page: no random ids
    notebook = v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
    )
    nbformat.validate(notebook)
    return notebook


def notebook_name(src_uri: str) -> str:
    """The file name of a page's notebook: ``derivatives.ipynb`` for ``derivatives.md``."""
    return posixpath.basename(src_uri).removesuffix(".md") + ".ipynb"


def download_link(name: str) -> str:
    """The link shown under the page's title."""
    return (
        f'<p class="sg-notebook-download"><a href="{html.escape(name)}" download '
        f'title="The code of this page as a Jupyter notebook, with its outputs (opens in Jupyter or '
        f'Colab)">{LINK_TEXT}</a></p>'
    )


def add_link(page_html: str, name: str) -> str:
    """`page_html` with the download link after its first ``<h1>`` (at the top when it has none)."""
    end = page_html.find("</h1>")
    at = end + len("</h1>") if end >= 0 else 0
    return page_html[:at] + download_link(name) + page_html[at:]


def on_page_content(html_text, page, config, files):
    if not page.file.src_uri.endswith(".md"):
        return html_text
    ran = ran_blocks.of(page.file.src_uri.removesuffix(".md"))
    if not ran:
        return html_text
    if not config.repo_url:
        raise PluginError(f"{page.file.src_uri}: its notebook's install line needs repo_url in mkdocs.yml")
    page_url = config.site_url.rstrip("/") + "/" + page.url if config.site_url else page.url
    notebook = build_notebook(page.title, page_url, config.repo_url, html_text, ran)
    name = notebook_name(page.file.src_uri)
    target = Path(config.site_dir) / posixpath.dirname(page.file.dest_uri) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(nbformat.writes(notebook), encoding="utf-8")
    return add_link(html_text, name)
