"""The reader's own engine runs "The += bug" and "More operations" in Firefox and WebKit too.

A learner's complete, correct engine (tests/learner_engine) is stored as passed; each page is then
opened, "my engine" is on by default, and "Run from top" on its last block runs every block on it
(tests/browser/test_every_block_on_a_readers_engine.py does every chapter, block by block, in
Chromium). Every block must end as the page expects (no exception but an ``expect=``), on the
reader's engine, printing what the book's does where the rules are the same.
"""

from __future__ import annotations

import json

import pytest
from pages import READ_RESULT, page_url, same_as_the_books
from test_engines import LOAD_TIMEOUT_S, PAGE_SHOWN, RUN_TIMEOUT_S, wait_until_python_is_ready

from reader_work import LEARNER, STORE_AS_PASSED

BLOCKS = "document.querySelectorAll('.sg-runnable')"
RESULTS = f"""[...{BLOCKS}].map((element, i) => ({{
  ...({READ_RESULT})(i),
  runs: Number(element.dataset.sgRuns ?? 0),
  expect: element.dataset.sgExpect ?? null,
  yours: element.classList.contains('sg-runnable--yours'),
}}))"""


@pytest.mark.parametrize("source", ["accumulating-gradients.md", "more-operations.md"])
def test_every_block_runs_on_a_learners_engine(engine, site_url, source):
    engine.goto(page_url(site_url, source))
    engine.wait_for(PAGE_SHOWN, LOAD_TIMEOUT_S, f"{source} loading")
    engine.evaluate(f"({STORE_AS_PASSED})({json.dumps(LEARNER)})")
    engine.reload(LOAD_TIMEOUT_S)
    engine.wait_for(PAGE_SHOWN, LOAD_TIMEOUT_S, f"{source} loading again")
    wait_until_python_is_ready(engine)
    assert engine.evaluate("document.querySelector('.sg-engine-choice input[value=mine]').checked")
    built = engine.evaluate(RESULTS)
    engine.evaluate(f"{BLOCKS}[{len(built) - 1}].querySelector('.sg-button--from-top').click()")
    engine.wait_for(
        f"Number({BLOCKS}[{len(built) - 1}].dataset.sgRuns ?? 0) > 0 || document.querySelector("
        "'.sg-runnable:not([data-sg-expect]) .sg-result[data-sg-origin=browser] .sg-error') !== null",
        RUN_TIMEOUT_S * 4,
        f"{source} run from the top",
    )
    ran = engine.evaluate(RESULTS)
    assert sum(block["yours"] for block in ran) > len(ran) // 2, "most blocks run on the reader's engine"
    for number, (before, after) in enumerate(zip(built, ran, strict=True), start=1):
        where = f"{engine.name}, {source} block {number}"
        assert after["runs"] == 1, f"{where} did not run: {after}"
        assert after["origin"] == "browser", where
        if after["expect"]:
            assert after["error"].rstrip().splitlines()[-1].startswith(after["expect"]), where
            continue
        assert after["error"] is None, f"{where}:\n{after['error']}"
        assert same_as_the_books(after["printed"], before["printed"]), f"{where}:\n{after['printed']}"
