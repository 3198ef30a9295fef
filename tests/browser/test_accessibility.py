"""The site as a keyboard, screen-reader or phone user meets it (issue 15), in Chromium.

axe-core (npm, injected into each page) checks every page of the built site in light and dark:
no serious or critical violation, and no unnamed or duplicate landmark. The other tests walk
what a reader does: Tab through a page of editors, run a block and hear how it ended, run a
later block first, come back to an edited block, read a page on a phone.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys

import pytest
from harness import CHROMIUM, CHROMIUM_ARGS
from page_watch import PageWatch
from pages import (
    ARTIFACTS,
    DOCS,
    ROOT,
    WITHOUT_ISOLATION,
    block,
    block_result,
    editor_in,
    editor_text,
    open_page,
    page_url,
    replace_code,
    run_block,
    switch_palette,
    wait_until_ready,
)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ALSO_FORBIDDEN = ("region", "landmark-unique")
EDITOR_PAGE = "automatic-backward.md"
"""The page with the most editors (13): where the issue found the keyboard trap and cut-off lines."""
RUN_PAGE = "derivatives.md"
"""A page whose first blocks draw no graph, so a reader's code in them runs on its own."""
PHONE = {"width": 390, "height": 844}
AXE_RUN = """
async () => {
  const { violations } = await axe.run(document, { resultTypes: ["violations"] });
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes
      .slice(0, 3)
      .map((n) => `${n.target.join(" ")}: ${(n.any[0] ?? n.all[0] ?? {}).message ?? ""}`),
  }));
}
"""


def reference_modules() -> list[str]:
    """The API reference's module pages (hooks/reference.py makes one per module): ``engine``, ..."""
    sys.path.insert(0, str(ROOT / "hooks"))
    import reference

    return [reference.page_path(name)[len("reference/") : -len(".md")] for name in reference.modules()]


def site_pages() -> list[str]:
    """Every page of the site, as its URL path: the docs' Markdown, the notebook, the reference."""
    pages = {page_url("", path.relative_to(DOCS).as_posix()) for path in DOCS.rglob("*.md")}
    pages |= {
        page_url("", path.relative_to(DOCS).as_posix().replace(".ipynb", ".md"))
        for path in DOCS.rglob("*.ipynb")
    }
    pages |= {f"reference/{module}/" for module in reference_modules()}
    return sorted(pages)


def test_every_built_page_is_checked(site_dir):
    built = {
        "" if path.parent == site_dir else path.parent.relative_to(site_dir).as_posix() + "/"
        for path in site_dir.rglob("index.html")
    }
    assert built == set(site_pages())


SCHEMES = {"light": ("default", "Switch to light mode"), "dark": ("slate", "Switch to dark mode")}
"""Each scheme: Material's name for it, and the title of the palette switch that turns it on."""


@pytest.fixture(scope="module", params=site_pages())
def first_visit(request, browser, site_url):
    """A page of the site as a reader's first visit shows it, settled, axe injected, and the watch
    on its context: one page load serves both schemes' tests (pytest runs them one after the other,
    as this fixture is module-scoped and parametrized by the page)."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: npm ci")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    context.add_init_script(WITHOUT_ISOLATION)
    watch = PageWatch()
    watch.attach(context)
    try:
        page = context.new_page()
        page.goto(site_url + request.param)
        page.wait_for_function("() => document.body.dataset.mdColorScheme === 'default'")
        settle(page)
        page.add_script_tag(path=str(AXE))
        yield page, watch
    finally:
        context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_serious_axe_violation(first_visit, scheme):
    """axe checks the page as the reader sees it in `scheme`; for dark, the system turns dark and
    the reader flips Material's switch."""
    page, watch = first_visit
    material_scheme, switch = SCHEMES[scheme]
    if page.evaluate("document.body.dataset.mdColorScheme") != material_scheme:
        # Colours switch at once: the article's blocks off the screen (content-visibility: auto)
        # take the new scheme only when next styled, and their colour transitions start then,
        # out of getAnimations()' sight; axe would read a transition's first frame.
        page.add_style_tag(content="*, ::before, ::after { transition: none !important; }")
        page.emulate_media(color_scheme=scheme)
        switch_palette(page, switch, material_scheme)
    bad = [
        f"{v['id']}: {v['nodes']}"
        for v in page.evaluate(AXE_RUN)
        if v["impact"] in ("serious", "critical") or v["id"] in ALSO_FORBIDDEN
    ]
    assert bad == [], f"{page.url} ({scheme}): " + "\n".join(bad)
    assert watch.errors == []


EVERY_BLOCK_ENHANCED = """() => [...document.querySelectorAll(
  ".sg-runnable[data-sg-code]:not([data-sg-hidden], [data-sg-browser=no]), .sg-exercise")].every((block) =>
  block.classList.contains("sg-runnable--enhanced") || block.classList.contains("sg-exercise--enhanced"))"""
"""True once the page script has enhanced every shown block the browser runs (its toolbar, and its
editor or the code standing in for it) and every exercise."""

REGIONS_CHECKED = "() => !document.querySelector('[data-sg-checking]')"
"""True once the page script has checked which of the page's regions scroll and so need a tab stop:
it checks them a few at a time, after the page shows (web/page/page-accessibility.js)."""


def settle(page) -> None:
    """Wait until the page is as a reader sees it: blocks enhanced (an editor, or the build's code
    standing in for one not made yet), playground panels loaded, and no transition running."""
    page.wait_for_function(EVERY_BLOCK_ENHANCED)
    page.wait_for_function(REGIONS_CHECKED)
    panels = page.locator(".sg-playground")
    for index in range(panels.count()):  # a panel starts when it comes near the viewport
        panels.nth(index).scroll_into_view_if_needed()
        page.wait_for_function(
            "i => document.querySelectorAll('.sg-playground')[i].dataset.sgState === 'paused'",
            arg=index,
            timeout=120_000,
        )
    wait_for_transitions(page)


def wait_for_transitions(page) -> None:
    """Wait until no CSS transition runs: a colour caught halfway between the schemes would fool
    axe's contrast check."""
    page.wait_for_function(
        "() => document.getAnimations()"
        ".every((a) => !(a instanceof CSSTransition) || a.playState !== 'running')"
    )


# -- point 1: no keyboard trap ------------------------------------------------------------------


def focused(page) -> str:
    return page.evaluate(
        """() => {
          const element = document.activeElement;
          const owner = element?.closest(".sg-runnable, .sg-exercise");
          const inEditor = element?.classList.contains("cm-content");
          return inEditor ? `editor ${owner.id}` : element?.tagName;
        }"""
    )


def test_tab_walks_through_every_editor_and_changes_nothing(context, site_url):
    page = open_page(context, page_url(site_url, EDITOR_PAGE))
    editors = page.locator(".sg-runnable--enhanced .sg-editor, .sg-exercise--enhanced .sg-editor").count()
    originals = [editor_text(page, i) for i in range(page.locator(".sg-runnable").count())]
    page.locator(".sg-status").click()
    seen = []
    for _ in range(70):
        page.keyboard.press("Tab")
        seen.append(focused(page))
    in_editors = [where for where in seen if where.startswith("editor")]
    assert len(set(in_editors)) == min(editors, len(in_editors)), "Tab stayed in an editor"
    assert all(a != b for a, b in itertools.pairwise(in_editors)), "Tab stayed in an editor"
    assert [editor_text(page, i) for i in range(len(originals))] == originals
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('scratchgrad:edit:'))") == []
    assert page.locator(".sg-edited:visible").count() == 0


STAND_INS = """[...document.querySelectorAll('.sg-runnable')].flatMap((b, i) =>
  b.querySelector(':scope > .sg-source[role=textbox]') && !b.closest('details:not([open])') ? [i] : [])"""
"""The blocks on show whose editor is not made yet: the build's code stands in (web/shared/editor.js)."""


@pytest.mark.fresh_context
def test_an_editor_not_made_yet_takes_the_readers_first_key_and_click(context, site_url):
    """Tab onto the code of a block whose editor is not made yet, then type at once; click on
    another's, then type: every key lands in the block's editor, nothing typed is lost (CodeMirror is
    fetched on this first use, so the first keys come before it), and after the click or the typing
    Tab indents (the reader came to edit)."""
    page = open_page(context, page_url(site_url, EDITOR_PAGE))
    waiting = page.evaluate(STAND_INS)
    assert len(waiting) >= 2, "editors were made before the reader needed them"
    by_key, by_click = waiting[-1], waiting[-2]
    originals = {index: editor_text(page, index) for index in (by_key, by_click)}
    code_of = "([i, code]) => scratchgrad.page.blocks[i].code === code"

    block(page, by_key).locator(":scope > .sg-source").focus()  # where Tab lands
    page.keyboard.type("x = 1\n")
    page.wait_for_function(code_of, arg=[by_key, "x = 1\n" + originals[by_key]])
    assert focused(page) == f"editor sg-run-{by_key}"
    page.keyboard.press("Tab")
    page.wait_for_function(code_of, arg=[by_key, "x = 1\n    " + originals[by_key]])

    block(page, by_click).locator(":scope > .sg-source").click(position={"x": 4, "y": 4})
    page.keyboard.type("#")
    page.wait_for_function(code_of, arg=[by_click, "#" + originals[by_click]])
    assert focused(page) == f"editor sg-run-{by_click}"
    page.keyboard.press("Tab")
    assert focused(page) == f"editor sg-run-{by_click}"
    assert editor_text(page, by_click) == "    #" + originals[by_click]
    assert page.evaluate(STAND_INS) == [index for index in waiting if index not in (by_key, by_click)]


def test_after_typing_tab_indents_and_escape_then_tab_leaves_as_the_description_says(context, site_url):
    page = open_page(context, page_url(site_url, EDITOR_PAGE))
    editor = editor_in(block(page, 0))
    help_id = editor.get_attribute("aria-describedby")
    help_text = page.locator(f"#{help_id}").text_content()
    assert "Escape then Tab" in help_text
    assert "Ctrl+M" in help_text
    replace_code(page, 0, "if True:\n")
    page.keyboard.press("Tab")
    page.keyboard.type("x = 1")
    assert editor_text(page, 0) == "if True:\n    x = 1"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert focused(page) == "BUTTON"


def test_trailing_spaces_are_not_an_edit(context, site_url):
    page = open_page(context, page_url(site_url, EDITOR_PAGE))
    editor_in(block(page, 0)).click()
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type("   ")
    assert block(page, 0).locator(".sg-edited").is_hidden()
    page.reload()
    wait_until_ready(page)
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('scratchgrad:edit:'))") == []


# -- point 3: what a screen reader hears ---------------------------------------------------------


def announced(page, index: int) -> str:
    return block(page, index).locator(".sg-toolbar [role=status]").text_content()


def test_a_run_and_its_error_are_announced(context, site_url):
    page = open_page(context, page_url(site_url, RUN_PAGE))
    replace_code(page, 0, "print(6 * 7)\n")
    run_block(page, 0)
    assert announced(page, 0) == "Block 1 ran. Output: 42\n"
    replace_code(page, 0, "1 / 0\n")
    run_block(page, 0)
    assert announced(page, 0) == "Block 1 failed: ZeroDivisionError: division by zero"


def test_figures_and_graphs_have_text_alternatives(context, site_url):
    page = open_page(context, page_url(site_url, RUN_PAGE))
    replace_code(page, 0, "from scratchgrad import Value\nshow_graph(Value(2.0, label='a') * 3)\n")
    run_block(page, 0)
    names = page.evaluate(
        """() => [...document.querySelectorAll(".sg-figure > svg, .sg-graph-scroll > svg, .md-typeset img")]
             .map((e) =>
             e.tagName === "IMG"
               ? e.getAttribute("alt") ?? ""
               : e.getAttribute("role") === "img" ? e.getAttribute("aria-label") ?? "" : "")"""
    )
    assert len(names) > 1, names
    assert all(names), names
    drawn = block(page, 0).locator(".sg-graph-scroll > svg").get_attribute("aria-label")  # graph-view.js
    assert drawn.startswith("Computation graph, ")
    assert "a" in drawn.split(": ", 1)[1].split("; ")


# -- point 4: a later block run first -------------------------------------------------------------


def test_a_name_an_earlier_block_defines_gets_a_hint_and_run_from_top(context, site_url):
    page = open_page(context, page_url(site_url, RUN_PAGE))
    replace_code(page, 0, "defined_above = 6 * 7\n")
    replace_code(page, 1, "print(defined_above)\n")
    run_block(page, 1)
    result = block_result(page, 1)
    assert result["error"].splitlines()[-1] == "NameError: name 'defined_above' is not defined"
    hint = block(page, 1).locator(".sg-note--missing-name")
    assert hint.text_content().startswith("defined_above is defined by block 1 above")
    runs = page.evaluate("document.querySelectorAll('.sg-runnable')[1].dataset.sgRuns")
    hint.locator("button", has_text="Run from top").click()
    page.wait_for_function(
        "n => Number(document.querySelectorAll('.sg-runnable')[1].dataset.sgRuns) > n", arg=int(runs)
    )
    assert block_result(page, 1)["printed"] == "42\n"


def test_tracebacks_number_blocks_as_the_editor_label_does(context, site_url):
    page = open_page(context, page_url(site_url, RUN_PAGE))
    index = page.evaluate(  # a block in the main line, after the first: not in a closed book's version
        """[...document.querySelectorAll('.sg-runnable')].findIndex(
             (b, i) => i > 0 && b.querySelector('.sg-editor') && !b.closest('details:not([open])'))"""
    )
    replace_code(page, index, "1 / 0\n")
    run_block(page, index)
    label = block(page, index).locator(".cm-content").get_attribute("aria-label")
    assert label.startswith(f"Python code, block {index + 1} ")
    assert f'"<derivatives block {index + 1}>", line 1' in block_result(page, index)["error"]


# -- point 5: an edited block after a reload ----------------------------------------------------------


def test_after_a_reload_the_build_output_of_an_edited_block_says_it_is_the_originals(context, site_url):
    page = open_page(context, page_url(site_url, RUN_PAGE))
    index = page.evaluate(
        """[...document.querySelectorAll('.sg-runnable')].findIndex(
             (b) => b.querySelector('.sg-result > .sg-output') && b.querySelector('.sg-editor'))"""
    )
    replace_code(page, index, "print('mine')\n")
    page.reload()
    wait_until_ready(page)
    note = block(page, index).locator(".sg-note--original")
    assert note.is_visible()
    assert "original code" in note.text_content()
    block(page, index).locator(".sg-button--reset").click()
    assert note.count() == 0


# -- point 6: last-bit claims say where they hold --------------------------------------------------------


def test_the_last_bit_claim_names_both_runtimes(context, site_url):
    page = open_page(context, page_url(site_url, "checking-against-pytorch.md"))
    text = page.locator("article").text_content()
    claim = next(p for p in re.split(r"\n\s*\n", text) if "last bit" in p)
    assert "browser" in claim, claim
    assert "built" in claim, claim


# -- point 7: phone -----------------------------------------------------------------------------------------


def test_on_a_phone_editors_wrap_and_toolbars_keep_one_row(context, site_url):
    page = open_page(context, page_url(site_url, EDITOR_PAGE))
    page.set_viewport_size(PHONE)
    page.evaluate("document.querySelectorAll('[role=textbox]:not(.cm-content)').forEach((e) => e.focus())")
    page.wait_for_function(  # every editor on show made (one in a closed <details> takes no focus)
        """[...document.querySelectorAll('[role=textbox]:not(.cm-content)')]
             .every((e) => e.closest('details:not([open])'))"""
    )
    cut = page.evaluate(
        """[...document.querySelectorAll('.sg-editor .cm-scroller')]
             .filter((s) => s.scrollWidth > s.clientWidth + 1).length"""
    )
    assert cut == 0, f"{cut} editors cut lines off at phone width"
    # Blocks off screen skip their rendering (content-visibility, site.css) and measure loosely: render
    # them all, as scrolling to each would.
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    wrapped = page.evaluate(
        """() => [...document.querySelectorAll('.sg-toolbar')]
             .map((bar) => [...bar.querySelectorAll('.sg-button:not([hidden])')])
             .filter((buttons) => {
               const tops = buttons.map((b) => b.getBoundingClientRect().top);
               return Math.max(...tops) - Math.min(...tops) > 2; // a second row is a button lower
             })
             .map((buttons) => buttons.map((b) => b.textContent.trim()).join(' | '))"""
    )
    assert wrapped == [], f"toolbars in two rows at phone width: {wrapped}"


# -- point 8: the smaller slips ---------------------------------------------------------------------------


def test_the_table_of_contents_shows_no_tex(context, site_url):
    page = context.new_page()
    page.goto(page_url(site_url, "derivatives.md"))
    toc = page.locator(".md-nav--secondary").first.text_content()
    assert "How small should h be?" in toc
    assert "\\(" not in toc


def test_the_reference_shows_powers_and_lists_every_module(context, site_url):
    page = context.new_page()
    page.goto(site_url + "reference/engine/")
    tanh = page.locator('[id="scratchgrad.engine.Value.tanh"]').locator("xpath=..")
    assert "tanh(a)**2" in tanh.text_content()  # a power as Python writes it, not Markdown's bold
    assert tanh.locator(".doc-contents strong").count() == 0
    page.goto(site_url + "reference/")
    listed = page.locator("article a code").all_text_contents()
    assert listed == [f"scratchgrad.{module.replace('/', '.')}" for module in reference_modules()]


def test_the_notebook_uses_the_sites_code_font(context, site_url):
    page = context.new_page()
    page.goto(page_url(site_url, "index.md"))
    site_font = page.evaluate("getComputedStyle(document.querySelector('.md-typeset pre code')).fontFamily")
    page.goto(site_url + "notebooks/walkthrough/")
    notebook_font = page.evaluate("getComputedStyle(document.querySelector('.highlight-ipynb')).fontFamily")
    assert notebook_font == site_font


def test_about_and_home_name_the_configured_repository(context, site_url):
    mkdocs_yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    configured = re.search(r'repo_url: !ENV \[SCRATCHGRAD_REPO_URL, "([^"]+)"\]', mkdocs_yml)
    assert configured, "mkdocs.yml sets repo_url"
    url = configured.group(1)
    for source in ("about.md", "index.md"):
        page = context.new_page()
        page.goto(page_url(site_url, source))
        text = page.locator("article").text_content()
        assert f"git clone {url}" in text
        assert "<this repository>" not in text
        assert page.locator(f'.md-header a.md-source[href="{url}"]').count() == 1


# -- Lighthouse: the accessibility score of the three kinds of page ----------------------------------------

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
LIGHTHOUSE_PAGES = ["index.md", "automatic-backward.md", "accumulating-gradients.md", "playground.md"]
"""Home, the chapter with the most editors, the one benchmarks/README.md measures, the Playground."""
LIGHTHOUSE_MINIMUM = 98


@pytest.mark.parametrize("source", LIGHTHOUSE_PAGES)
def test_lighthouse_accessibility_score(site_url, source, tmp_path):
    if not LIGHTHOUSE.exists():
        pytest.fail(f"{LIGHTHOUSE} is missing: npm ci")
    flags = " ".join(["--headless=new", *(arg for arg in CHROMIUM_ARGS if arg != "--headless")])
    report = tmp_path / "report.json"
    subprocess.run(
        [
            str(LIGHTHOUSE),
            page_url(site_url, source),
            "--only-categories=accessibility",
            "--output=json",
            f"--output-path={report}",
            f"--chrome-flags={flags} --user-data-dir={tmp_path / 'profile'}",
            "--quiet",
        ],
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        check=True,
        timeout=300,
    )
    result = json.loads(report.read_text())
    score = round(100 * result["categories"]["accessibility"]["score"])
    failing = [
        audit_id
        for audit_id, audit in result["audits"].items()
        if audit.get("score") == 0 and audit.get("scoreDisplayMode") == "binary"
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / "lighthouse-accessibility.txt").open("a") as log:
        log.write(f"{source}: {score} (failing audits: {', '.join(failing) or 'none'})\n")
    assert score >= LIGHTHOUSE_MINIMUM, f"{source}: Lighthouse accessibility {score}; failing: {failing}"
