"""Drawings a reader can read: node text of at least 11 CSS px and the output node in view, measured.

Every graph drawing of every page (the build's, with every <details> open), at 1280 px and at
390 px; then the drawings the blocks of "The += bug" and "More operations" make when run from the
top on a learner's engine (tests/learner_engine), where no block may fail, also saved as screenshots
(light, dark, 390 px) for a person to look at. The output node is the node no arrow leaves
(web/graph/graph-view.js: outputNode); "in view" means inside the drawing's scrolling region and the
window, with no one scrolling.
"""

from __future__ import annotations

import pytest
from pages import ARTIFACTS, BLOCK_TIMEOUT_MS, EVERY_BLOCK_LAID_OUT, NEXT_FRAME, block, open_page, page_url

from reader_work import LEARNER, STORE_AS_PASSED

WIDTHS = (1280, 390)
MIN_TEXT_PX = 11
MEASURE = """() => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const drawings = document.querySelectorAll(".md-content .sg-figure.sg-graph > .sg-graph-scroll > svg");
  return [...drawings].map((svg) => {
    const figure = svg.closest(".sg-figure");
    const scroller = svg.parentElement;
    const name = scroller.getAttribute("aria-label");
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll("g.node text")].map(
      (text) => (parseFloat(text.getAttribute("font-size")) || 14) * scale);
    const tails = new Set([...svg.querySelectorAll("g.edge > title")].map(
      (title) => title.textContent.split("->")[0].trim()));
    const output = [...svg.querySelectorAll("g.node")].filter(
      (node) => !tails.has(node.querySelector(":scope > title").textContent.trim())).at(-1);
    const box = output.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    const inView = box.left >= view.left - 1 && box.right <= view.right + 1
      && box.right <= document.documentElement.clientWidth + 1 && box.width > 0;
    return {name, smallestText: Math.min(...texts), outputInView: inView,
            hidden: figure.getBoundingClientRect().width === 0};
  });
}"""


CODE_BELOW_BADGE = """() => [...document.querySelectorAll(".sg-runnable--yours")].every((block) => {
  const tag = getComputedStyle(block, "::before");
  if (tag.position === "absolute") return innerWidth > 720;  // beside the code, over its right end
  const code = block.firstElementChild.getBoundingClientRect();
  return code.top >= block.getBoundingClientRect().top + parseFloat(tag.height) - 1;
})"""
"""Every your-engine tag leaves the first code line uncovered: on a phone it has a line of its own."""


def measured(page) -> list[dict]:
    page.add_style_tag(content=EVERY_BLOCK_LAID_OUT)
    page.evaluate(MEASURE)  # opens the <details>: their drawings fit themselves on the next frames
    page.evaluate(NEXT_FRAME)
    page.evaluate(NEXT_FRAME)
    return page.evaluate(MEASURE)


def unreadable(drawings: list[dict]) -> list[str]:
    """What is wrong with each drawing that fails, in one line each."""
    return [
        f"{d['name'].split(' (')[0]}: text {d['smallestText']:.1f} px, output "
        + ("in view" if d["outputInView"] else "cut off")
        + (", hidden" if d["hidden"] else "")
        for d in drawings
        if d["hidden"] or d["smallestText"] < MIN_TEXT_PX - 0.05 or not d["outputInView"]
    ]


def drawn_pages(site_dir) -> list[str]:
    return sorted(
        f"{html.parent.name}.md"
        for html in site_dir.glob("*/index.html")
        if 'class="sg-figure sg-graph' in html.read_text()
    )


def test_every_drawing_of_every_page_is_readable_at_both_widths(context, site_url, site_dir):
    pages = drawn_pages(site_dir)
    assert len(pages) >= 5, pages  # the story's chapters draw graphs
    failures = {}
    for name in pages:
        page = open_page(context, page_url(site_url, name))
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            drawings = measured(page)
            assert drawings, f"{name} draws no graph at {width} px"
            if bad := unreadable(drawings):
                failures[f"{name} at {width} px"] = bad
        page.close()
    assert failures == {}, "\n".join(f"{where}: {line}" for where, bad in failures.items() for line in bad)


@pytest.mark.parametrize("chapter", ["accumulating-gradients.md", "more-operations.md"])
def test_the_drawings_of_a_readers_engine_are_readable_and_looked_at(context, site_url, chapter):
    page = open_page(context, page_url(site_url, chapter))
    page.evaluate(STORE_AS_PASSED, LEARNER)
    page.reload()
    page.wait_for_selector('.sg-status[data-status="ready"]')
    assert page.get_by_role("radio", name="my engine").is_checked()
    last = page.evaluate("() => scratchgrad.page.blocks.length - 1")
    runs = int(block(page, last).get_attribute("data-sg-runs") or 0)
    block(page, last).locator(":scope > .sg-toolbar > .sg-button--from-top").click()
    page.wait_for_function(  # the last block's run, or a block that failed and ended the run from the top
        """([last, runs]) => {
          const block = scratchgrad.page.blocks[last].element;
          const stopped = document.querySelector(".sg-runnable:not([data-sg-expect]) .sg-error")
            && document.querySelector('.sg-status[data-status="ready"]');
          return Number(block.dataset.sgRuns ?? 0) > runs || stopped;
        }""",
        arg=[last, runs],
        timeout=BLOCK_TIMEOUT_MS,
    )
    errors = page.locator(".sg-runnable:not([data-sg-expect]) > .sg-result .sg-error")
    assert errors.count() == 0, errors.first.text_content()
    # The =/+= split: the block's run with the bug drawn beside (or under) the right one.
    split = page.locator(".sg-runnable:has(.sg-result .sg-graph):has([role=switch])").first
    if split.count():
        split.get_by_role("switch").check()
        split.locator(":scope > .sg-result--bug[data-sg-runs='1'] .sg-graph svg").wait_for()
    for width, scheme in ((1280, "default"), (1280, "slate"), (390, "default")):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        drawings = measured(page)
        assert unreadable(drawings) == [], f"{chapter} at {width} px"
        assert page.evaluate(CODE_BELOW_BADGE), f"the your-engine tag covers code at {width} px"
        drawn = page.locator(".sg-runnable--yours:has(.sg-result .sg-graph)").first
        shots = [("block", page.locator(".sg-runnable--yours").first), ("drawing", drawn)]
        for what, shown in shots + ([("split", split)] if split.count() else []):
            shown.scroll_into_view_if_needed()
            shown.screenshot(path=str(ARTIFACTS / f"drawings-{chapter[:-3]}-{what}-{width}-{scheme}.png"))
