"""The MkDocs hooks one by one: figures, formulas, reference pages, notebook clean-up, block options.

tests/test_docs.py checks them together through real builds; here each behaviour is pinned down
on its own, with the inputs that would make it go wrong.
"""

from __future__ import annotations

import html
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from matplotlib.figure import Figure
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
figures = importlib.import_module("helpers.figures")
fresh_package = importlib.import_module("helpers.fresh_package")
formulas = importlib.import_module("formulas")
jupyter_pages = importlib.import_module("jupyter_pages")
page_head = importlib.import_module("helpers.page_head")
reference = importlib.import_module("reference")
runnable = importlib.import_module("runnable")

from scratchgrad import Value  # noqa: E402 (after the hooks' path is set up, like the build)
from scratchgrad.graph import to_dot  # noqa: E402


def page(src_uri: str) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), toc=[])


# -- figures -----------------------------------------------------------------------------------


def test_graph_svg_draws_labels_on_a_transparent_page() -> None:
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    product = a * b
    product.label = "ab"
    svg = figures.graph_svg(to_dot(product), where="test")
    assert svg.startswith("<svg")
    assert all(f">{label}<" in svg for label in ("a", "b", "ab"))
    assert 'polygon fill="white"' not in svg


def test_graph_svg_is_drawn_at_70_percent_of_its_natural_size() -> None:
    dot = to_dot(Value(1.0, label="x") + 1)
    svg = figures.graph_svg(dot, where="test")
    natural = subprocess.run(
        ["dot", "-Tsvg", *figures.GRAPH_STYLE], input=dot, capture_output=True, text=True, check=True
    ).stdout
    width = float(re.search(r'width="([0-9.]+)pt"', natural).group(1))
    assert f'width="{width * figures.GRAPH_SCALE:.1f}pt"' in svg


def test_graph_svg_draws_in_the_sites_font() -> None:
    svg = figures.graph_svg(to_dot(Value(1.0, label="x")), where="test")
    assert 'font-family="Helvetica,Arial,sans-serif" font-size="12.00"' in svg


def test_graph_svg_names_the_block_when_graphviz_refuses_the_text() -> None:
    with pytest.raises(
        PluginError, match=r"page, block 3: Graphviz could not draw the graph: .*syntax error"
    ):
        figures.graph_svg("digraph { v0 -> }", where="page, block 3")


def test_a_stage_value_in_a_graph_option_is_drawn_at_build_time() -> None:
    session = runnable.PageSession("page")
    code = (
        "from scratchgrad.stages.graph_only import Value\nL = Value(2.0, label='a') * Value(3.0, label='b')"
    )
    outcome = session.run(code, ["L"])
    _, result = runnable.render_block(0, code, {"run": "run", "graph": "L"}, outcome, session)
    opening = r'<div class="sg-figure sg-graph" data-sg-graph="L" data-sg-study="([^"]*)"><svg'
    figure = re.match(opening, result)
    assert figure, result[:200]
    study = json.loads(html.unescape(figure[1]))  # the graph's study, for the page's graph tools
    assert "keep no gradient" in study["note"]
    assert all(f">{text}<" in result for text in ("a", "b", "*"))


def test_a_curve_option_writes_its_numbers_for_the_page_and_in_words() -> None:
    session = runnable.PageSession("page")
    code = "losses = [0.5, 0.25, float('inf')]"
    outcome = session.run(code, curves=["losses"])
    _, result = runnable.render_block(0, code, {"run": "run", "curve": "losses"}, outcome, session)
    figure = re.fullmatch(
        r'<div class="sg-figure sg-curve" data-sg-curve="losses" data-sg-points="([^"]*)">(.*)</div>', result
    )
    assert figure, result
    assert json.loads(html.unescape(figure[1])) == {"loss": [0.5, 0.25, None], "accuracy": None}
    assert figure[2] == "<p>Loss per step (loss 0.5 at step 1, not a number at step 3).</p>"


STAGE_DIAMOND = (
    "from scratchgrad.stages.closures import Value\n"
    "a, b, c = Value(2.0, label='a'), Value(-3.0, label='b'), Value(10.0, label='c')\n"
    "e = a * b\n"
    "e.label = 'e'\n"
    "d = e + c\n"
    "d.label = 'd'\n"
    "L = d * e\n"
    "L.backward()\n"
    "print(a.grad, b.grad)\n"
)


def test_a_switch_whose_bug_changes_what_the_block_prints_passes_the_build() -> None:
    session = runnable.PageSession("page")
    outcome = session.run(STAGE_DIAMOND)
    with_bug = session.run_with_bug(STAGE_DIAMOND, "wrong-order")
    assert (outcome.printed, with_bug.printed) == ("6.0 -4.0\n", "-12.0 8.0\n")
    runnable.check_switch(outcome, with_bug, "page, runnable block 0")
    assert session.namespace["a"].grad == 6.0  # the run with the bug changed no name of the page


def test_a_switch_whose_bug_the_block_never_meets_fails_the_build() -> None:
    session = runnable.PageSession("page")
    outcome = session.run(STAGE_DIAMOND)
    with_bug = session.run_with_bug(STAGE_DIAMOND, "recursive")  # the package's backward, not the stage's
    with pytest.raises(
        PluginError, match="page, runnable block 0: break= switches on a bug that changes nothing"
    ):
        runnable.check_switch(outcome, with_bug, "page, runnable block 0")


def test_the_run_with_a_bug_leaves_the_pages_random_numbers_as_they_were() -> None:
    session = runnable.PageSession("page")
    session.run("import random")
    session.run_with_bug("print(random.random())", "recursive")
    assert (
        session.run("print(random.random())").printed
        == runnable.PageSession("b").run("import random\nprint(random.random())").printed
    )


def test_loss_curve_draws_one_line_per_run() -> None:
    figure = figures.loss_curve({"lr 0.1": [3.0, 2.0, 1.0], "lr 1": [3.0, float("inf"), 9.0]})
    assert isinstance(figure, Figure)
    lines = figure.axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["lr 0.1", "lr 1"]
    assert list(lines[1].get_ydata())[1] != list(lines[1].get_ydata())[1]  # inf is drawn as a gap (nan)


def test_loss_curve_reads_a_history_object() -> None:
    history = SimpleNamespace(loss=[1.0, 0.5])
    assert list(figures.loss_curve(history).axes[0].get_lines()[0].get_ydata()) == [1.0, 0.5]


def test_function_plot_draws_a_tangent_of_the_given_slope() -> None:
    figure = figures.function_plot(lambda x: x * x, -1.0, 1.0, tangents={0.5: 1.0})
    _, tangent, point = figure.axes[0].get_lines()
    (x0, x1), (y0, y1) = tangent.get_xdata(), tangent.get_ydata()
    assert (y1 - y0) / (x1 - x0) == pytest.approx(1.0)
    assert (point.get_xdata()[0], point.get_ydata()[0]) == (0.5, 0.25)


def test_function_plot_draws_one_labelled_curve_per_named_function() -> None:
    figure = figures.function_plot({"x²": lambda x: x * x, "2x": lambda x: 2 * x}, -1.0, 1.0)
    square, double = figure.axes[0].get_lines()
    assert (square.get_label(), double.get_label()) == ("x²", "2x")
    assert (square.get_ydata()[-1], double.get_ydata()[-1]) == (1.0, 2.0)


def test_descent_paths_step_against_the_slope_and_stop_when_x_overflows() -> None:
    paths = figures.descent_paths(lambda x: 2 * x, 1.0, rates=(0.25, 2.0, 1e308), steps=3)
    assert paths[0.25] == [1.0, 0.5, 0.25, 0.125]  # x ← x − 0.25 · 2x halves x
    assert paths[2.0] == [1.0, -3.0, 9.0, -27.0]  # too large a rate overshoots further each step
    assert paths[1e308] == [1.0]  # the first step overflows to -inf: nothing after it is drawn


def test_descent_plot_draws_the_function_and_one_labelled_path_per_rate() -> None:
    figure = figures.descent_plot(lambda x: x * x, lambda x: 2 * x, 1.0, rates=(0.25, 0.75), steps=2)
    curve, slow, fast = figure.axes[0].get_lines()
    assert (slow.get_label(), fast.get_label()) == ("η = 0.25", "η = 0.75")
    assert list(slow.get_xdata()) == [1.0, 0.5, 0.25]
    assert list(fast.get_ydata()) == [1.0, 0.25, 0.0625]
    assert min(curve.get_xdata()) < -0.5  # the curve spans every point visited


def test_decision_boundary_colours_the_regions_a_model_predicts() -> None:
    xs = [[-1.0, 0.0], [1.0, 0.0], [-2.0, 1.0], [2.0, -1.0]]
    ys = [-1.0, 1.0, -1.0, 1.0]
    figure = figures.decision_boundary(lambda x: Value(x[0]), xs, ys, steps=11)
    regions = figure.axes[0].collections[0]
    assert len(regions.get_paths()) >= 2  # one filled region per class


def test_decision_boundary_refuses_data_it_cannot_draw() -> None:
    with pytest.raises(ValueError, match="2-input data"):
        figures.decision_boundary(lambda x: Value(0.0), [[1.0, 2.0, 3.0]], [1.0])


def ids(svg: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', svg))


def test_figure_ids_differ_between_figures_and_references_follow_them() -> None:
    first = figures.figure_svg(figures.loss_curve([3.0, 1.0]), "page-1-0")
    second = figures.figure_svg(figures.loss_curve([3.0, 1.0]), "page-2-0")
    assert ids(first)
    assert not ids(first) & ids(second)
    referenced = set(re.findall(r'(?:url\(#|href="#)([^")]+)', first))
    assert referenced
    assert referenced <= ids(first)


def test_graph_ids_differ_between_graphs_of_one_page() -> None:
    x = Value(1.0, label="x")
    dot = to_dot(x + 1)
    first, second = figures.graph_svg(dot, "page, block 0"), figures.graph_svg(dot, "page, block 1")
    assert ids(first)
    assert not ids(first) & ids(second)


def test_figure_svg_needs_a_figure() -> None:
    with pytest.raises(TypeError, match="must give a matplotlib Figure, got list"):
        figures.figure_svg([1, 2], "salt")


# -- formulas ----------------------------------------------------------------------------------


def test_formulas_are_typeset_in_place() -> None:
    html = (
        '<p>Slope <span class="arithmatex">\\(x^2 &lt; y\\)</span>.</p>'
        '<div class="arithmatex">\\[\\frac{a}{b}\\]</div>'
    )
    typeset = formulas.on_page_content(html, page("p.md"), None, None)
    assert "\\(" not in typeset
    assert "\\[" not in typeset
    assert typeset.count('class="katex-display"') == 1  # the display formula
    assert typeset.count('class="katex"') == 2  # both formulas (a display one sits inside katex-display)
    assert "<mo>&lt;</mo>" in typeset  # the escaped < reached KaTeX as a real <


def test_a_formula_katex_rejects_names_the_page() -> None:
    html = '<span class="arithmatex">\\(\\frac{1}{\\)</span>'
    with pytest.raises(PluginError, match=r"broken\.md: KaTeX cannot typeset '\\\\frac\{1\}\{'"):
        formulas.on_page_content(html, page("broken.md"), None, None)


def test_a_page_with_formulas_keeps_their_mathml_out_of_layout_until_parsed_before_any_stylesheet() -> None:
    html = (
        '<html><head><meta charset="utf-8"><link rel="stylesheet" href="katex.min.css"></head>'
        '<body><span class="katex"><span class="katex-mathml"><math></math></span></span></body></html>'
    )
    guarded = formulas.on_post_page(html, page("p.md"), None)
    assert guarded.startswith(f'<html><head><meta charset="utf-8">{formulas.PARSE_GUARD}<link')
    assert guarded.count("sg-parsing") == 3  # hidden while the class is on; on at once; off when parsed
    assert "DOMContentLoaded" in formulas.PARSE_GUARD


def test_a_page_without_formulas_is_left_alone() -> None:
    html = '<html><head><meta charset="utf-8"></head><body><p>No math.</p></body></html>'
    assert formulas.on_post_page(html, page("p.md"), None) == html


# -- the top of <head> ------------------------------------------------------------------------


def test_early_markup_goes_right_after_the_charset_or_else_the_head_tag() -> None:
    assert page_head.at_top_of_head('<head><meta charset="utf-8"><title>', "<x>") == (
        '<head><meta charset="utf-8"><x><title>'
    )
    assert page_head.at_top_of_head('<head lang="en"><title>', "<x>") == '<head lang="en"><x><title>'


def test_a_page_without_a_head_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="neither <meta charset> nor <head>"):
        page_head.at_top_of_head("<p>fragment</p>", "<x>")


# -- reference pages ---------------------------------------------------------------------------


def test_every_public_module_gets_a_reference_page() -> None:
    names = reference.modules()
    assert {
        "scratchgrad.engine",
        "scratchgrad.nn",
        "scratchgrad.stages",
        "scratchgrad.stages.graph_only",
    } <= set(names)
    assert "scratchgrad" not in names
    assert not [name for name in names if any(part.startswith("_") for part in name.split("."))]
    assert reference.page_path("scratchgrad.stages.graph_only") == "reference/stages/graph_only.md"


def test_reference_pages_join_their_nav_section_once() -> None:
    config = SimpleNamespace(nav=[{"Home": "index.md"}, {reference.SECTION: ["reference/index.md"]}])
    reference.on_config(config)
    reference.on_config(config)  # mkdocs serve calls it again on every rebuild
    section = config.nav[1][reference.SECTION]
    assert section[0] == "reference/index.md"
    assert [next(iter(entry)) for entry in section[1:]] == reference.modules()


def test_a_nav_without_the_reference_section_is_an_error() -> None:
    with pytest.raises(PluginError, match="needs a section titled 'API reference'"):
        reference.on_config(SimpleNamespace(nav=[{"Home": "index.md"}]))


# -- jupyter_pages: the notebook pages that mkdocs-jupyter makes ----------------------------------

NOTEBOOK_HTML = (
    '<!-- Load mathjax -->\n<script src=""> </script>\n<!-- End of mathjax configuration -->'
    '<script type="module">const m = await import("https://cdn.example/mermaid.mjs")</script>'
    "<h1>Notebook</h1>"
)


def test_notebook_pages_lose_their_cdn_loaders_and_gain_a_download_button() -> None:
    cleaned = jupyter_pages.on_page_content(NOTEBOOK_HTML, page("notebooks/walk.ipynb"), None, None)
    assert "mathjax" not in cleaned
    assert "mermaid" not in cleaned
    assert "https://" not in cleaned
    assert 'href="walk.ipynb" download' in cleaned
    assert cleaned.endswith("<h1>Notebook</h1>")


def test_a_notebook_script_from_another_host_fails_the_build() -> None:
    remote = '<script>fetch("https://example.com/x.js")</script>'
    with pytest.raises(PluginError, match="refers to another host"):
        jupyter_pages.on_page_content(remote, page("n.ipynb"), None, None)


def test_markdown_pages_are_left_alone() -> None:
    assert jupyter_pages.on_page_content(NOTEBOOK_HTML, page("index.md"), None, None) == NOTEBOOK_HTML


# -- runnable block options and outcomes -------------------------------------------------------


def test_a_block_without_run_is_an_ordinary_code_block() -> None:
    assert runnable.parse_options({"title": "x.py"}) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"run": "run", "colour": "red"}, r"unknown option\(s\) \['colour'\]"),
        ({"run": "run", "expect": "not a name"}, "must name an exception class"),
        ({"run": "run", "graph": "L +"}, 'graph="L \\+" is not an expression'),
    ],
)
def test_bad_block_options_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(SuperFencesException, match=message):
        runnable.parse_options(options)


def test_a_page_session_shares_names_between_blocks_and_captures_both_streams() -> None:
    session = runnable.PageSession("page")
    assert session.run("x = 6").printed == ""
    outcome = session.run("import sys\nprint(x * 7)\nprint('careful', file=sys.stderr)")
    assert (outcome.printed, outcome.raised) == ("42\ncareful\n", None)


def test_a_page_session_is_seeded() -> None:
    first = runnable.PageSession("a").run("import random\nprint(random.random())").printed
    second = runnable.PageSession("b").run("import random\nprint(random.random())").printed
    assert first == second


def test_a_page_session_names_its_blocks_in_tracebacks() -> None:
    session = runnable.PageSession("chain-rule")
    session.run("x = 1")
    assert 'File "<chain-rule block 2>", line 1' in session.run("1 / 0").raised.traceback


def test_an_expected_error_may_be_named_by_a_base_class() -> None:
    outcome = runnable.PageSession("page").run("print('before')\n1 / 0")
    assert outcome.raised.line == "ZeroDivisionError: division by zero"
    runnable.check_outcome(outcome, "ArithmeticError", "page, block 0")
    with pytest.raises(PluginError, match="expected KeyError, got ZeroDivisionError"):
        runnable.check_outcome(outcome, "KeyError", "page, block 0")
    with pytest.raises(
        PluginError, match=r"(?s)unexpected error ZeroDivisionError.*printed before it:\nbefore"
    ):
        runnable.check_outcome(outcome, None, "page, block 0")


def test_each_build_imports_scratchgrad_afresh() -> None:
    """`mkdocs serve` keeps one Python process: without the purge, edits to src/ would not show."""
    program = (
        "import sys; sys.path.insert(0, 'hooks'); import runnable\n"
        "import scratchgrad.engine; before = scratchgrad.engine.Value\n"
        "runnable.on_pre_build(None)\n"
        "import scratchgrad.engine; print(scratchgrad.engine.Value is before)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout == "False\n"


# -- fresh_package -----------------------------------------------------------------------------


def test_forget_scratchgrad_drops_the_package_and_its_modules_and_nothing_else() -> None:
    ours = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "scratchgrad"}
    assert "scratchgrad.engine" in ours
    sys.modules["scratchgradish"] = sys.modules["re"]  # a name that only starts the same way
    try:
        fresh_package.forget_scratchgrad()
        assert [name for name in sys.modules if name.split(".")[0] == "scratchgrad"] == []
        assert sys.modules["scratchgradish"] is sys.modules["re"]
    finally:
        sys.modules.update(ours)  # the rest of this process keeps the classes it imported
        del sys.modules["scratchgradish"]
