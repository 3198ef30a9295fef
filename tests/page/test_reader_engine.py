"""The reader's engine in the story (scratchgrad.page.reader_engine): their pieces stand in for the stages."""

from __future__ import annotations

import functools
import json

import pytest

from docs_pages import page_fences
from reader_work import ACCUMULATING, LEARNER, NATURAL, SOLUTIONS
from scratchgrad.exercises import by_id
from scratchgrad.exercises.blame import rule_line
from scratchgrad.exercises.runner import check, earlier_pieces
from scratchgrad.page import blocks, reader_engine
from scratchgrad.page.reader_engine import STAGES, ReaderEngine, describe, pieces_on
from scratchgrad.stages import closures, graph_only, overwrite_bug

GRAPH_ONLY, BY_HAND, CLOSURES, OVERWRITE, TEXTBOOK = STAGES
REUSED = """\
from scratchgrad.stages.closures import Value

a = Value(2.0, label="a")
b = Value(-3.0, label="b")
y = a * b + a
y.backward()
print(a.grad)
"""


def run(code: str, page: str, passed: dict[str, str] | None, bug: str | None = None) -> blocks.Outcome:
    engine = None if passed is None else ReaderEngine.load(page, passed, bug)
    return blocks.run_block(
        code, f"<{page} block 1>", blocks.new_namespace(), capture=True, bug=bug, engine=engine
    )


def said(outcome: blocks.Outcome) -> str | None:
    return None if outcome.raised is None else outcome.raised.line


def ids(page: str, stage) -> list[str]:
    return [piece.id for piece in pieces_on(page, stage)]


def test_the_fix_joins_the_engine_from_its_chapter_on():
    assert "accumulate" not in ids("chain-rule", CLOSURES)
    assert "accumulate" not in ids("automatic-backward", OVERWRITE)
    assert ids("accumulating-gradients", CLOSURES)[5] == "accumulate"
    assert ids("more-operations", CLOSURES)[5] == "accumulate"


def test_a_stage_has_no_stand_in_before_its_first_piece_or_off_the_story():
    assert ids("value-object", GRAPH_ONLY) == ["value-graph"]
    assert ids("value-object", CLOSURES) == []
    assert ids("derivatives", GRAPH_ONLY) == []
    assert ids("notation", CLOSURES) == []


def test_blocks_that_import_a_stage_with_a_stand_in_and_those_below_can_run_on_the_readers_engine():
    assert describe("chain-rule", ["from scratchgrad.stages.closures import Value"])
    assert describe("accumulating-gradients", ["from scratchgrad.stages import closures, overwrite_bug"])
    made = "from scratchgrad.stages.closures import Value\nL = Value(2.0) * Value(3.0)"
    assert describe("chain-rule", [made, "L.backward()"])
    assert describe("chain-rule", [made, "twice = L + L", "twice.backward()"])  # and so on down
    assert not describe("chain-rule", ["L.backward()"])
    assert not describe("chain-rule", [made, "from scratchgrad import Value\nprint(Value(1.0))"])
    assert not describe(
        "training", ["from scratchgrad.stages import textbook_nn", "from scratchgrad.nn import MLP"]
    )
    assert describe("backprop-by-hand", ["from scratchgrad.stages.by_hand import Value"])
    assert describe("neurons-layers-mlp", ["from scratchgrad.stages.textbook_nn import MLP"])
    assert not describe("training", ["from scratchgrad.nn import MLP"])
    assert not describe("value-object", ["from scratchgrad.stages.closures import Value"])
    package = "from scratchgrad import Value"
    assert not describe("automatic-backward", [made, package, "print(Value(1.0) * 2)"])  # rebound: the book's


def test_the_page_is_told_each_piece_in_the_order_of_the_story():
    told = describe("automatic-backward", ["from scratchgrad.stages.closures import Value"])
    assert [piece["id"] for piece in told] == ids("automatic-backward", CLOSURES)
    assert told[4] == {"id": "backward", "title": "backward()", "chapter": "automatic-backward"}


def test_a_readers_natural_rules_lose_a_share_on_a_reused_value():
    on_equals = REUSED.replace("stages.closures", "stages.overwrite_bug")
    assert run(on_equals, "automatic-backward", NATURAL).printed == "-3.0\n"
    assert run(on_equals, "accumulating-gradients", NATURAL).printed == "-3.0\n"


def test_the_closure_stage_adds_on_the_fix_s_page_the_book_s_fix_until_the_reader_s_passes():
    assert run(REUSED, "accumulating-gradients", None).printed == "-2.0\n"
    assert run(REUSED, "accumulating-gradients", NATURAL).printed == "-2.0\n"
    fixed = {**NATURAL, "accumulate": SOLUTIONS["accumulate"]}
    assert run(REUSED, "accumulating-gradients", fixed).printed == "-2.0\n"
    assert run(REUSED, "more-operations", fixed).printed == "-2.0\n"


def test_the_overwrite_switch_writes_equals_into_an_engine_that_accumulates():
    assert run(REUSED, "accumulating-gradients", ACCUMULATING).printed == "-2.0\n"
    assert run(REUSED, "accumulating-gradients", ACCUMULATING, bug="overwrite").printed == "-3.0\n"


def test_the_overwrite_stage_is_the_readers_engine_with_equals():
    code = "from scratchgrad.stages import overwrite_bug"
    code += "\na = overwrite_bug.Value(3.0)\n(a + a).backward()\nprint(a.grad)\n"
    assert run(code, "accumulating-gradients", SOLUTIONS).printed == "1.0\n"


def test_blame_quotes_the_readers_own_rule_and_the_overwrite_stages_copy_its_own():
    engine = ReaderEngine.load("accumulating-gradients", LEARNER)
    with engine.standing_in():
        theirs = closures.Value(2.0) * closures.Value(-3.0)
        copy = overwrite_bug.Value(2.0) * overwrite_bug.Value(-3.0)
    mine = "self.grad += result.grad * other.data"
    line = 1 + LEARNER["accumulate"].splitlines().index(f"            {mine}")
    assert rule_line(theirs._backward, theirs._prev[0]) == (
        f" (your code for 'accumulate', line {line}: `{mine}`)"
    )
    assert rule_line(copy._backward, copy._prev[0]) == (
        f" (your code for 'accumulate, with the overwrite bug', line {line}: "
        "`self.grad = result.grad * other.data`)"
    )


def test_an_engine_kept_from_before_quotes_its_own_lines_after_another_was_built():
    learners = ReaderEngine.load("accumulating-gradients", LEARNER)
    with learners.standing_in():
        pass  # built: its accumulate compiled under "<yours: accumulate>"
    others = {**LEARNER, "accumulate": SOLUTIONS["accumulate"]}
    assert others["accumulate"] != LEARNER["accumulate"]
    with ReaderEngine.load("accumulating-gradients", others).standing_in():
        pass  # the same file name, another text
    with learners.standing_in():
        theirs = closures.Value(2.0) * closures.Value(-3.0)
    mine = "self.grad += result.grad * other.data"
    line = 1 + LEARNER["accumulate"].splitlines().index(f"            {mine}")
    quoted = rule_line(theirs._backward, theirs._prev[0])
    assert quoted == f" (your code for 'accumulate', line {line}: `{mine}`)"


def test_the_books_stages_come_back_after_the_run_even_when_it_raises():
    outcome = run(
        "from scratchgrad.stages.closures import Value\nraise ValueError('x')", "chain-rule", NATURAL
    )
    assert outcome.raised.names[0] == "ValueError"
    assert (closures.Value.__module__, graph_only.Value.__module__, overwrite_bug.Value.__module__) == (
        "scratchgrad.stages.closures",
        "scratchgrad.stages.graph_only",
        "scratchgrad.stages.overwrite_bug",
    )


def test_a_page_gets_one_class_so_values_of_two_blocks_work_together():
    first = ReaderEngine.load("chain-rule", NATURAL)
    assert ReaderEngine.load("chain-rule", dict(NATURAL)) is first
    assert ReaderEngine.load("chain-rule", SOLUTIONS) is not first


def test_a_piece_that_raises_when_loaded_is_replaced_by_the_books_and_named_in_the_output():
    broken = {**ACCUMULATING, "backward": "raise RuntimeError('half written')"}
    printed = run(REUSED, "automatic-backward", broken).printed
    assert printed == "(your “backward()” raised RuntimeError when loaded: the book's is used)\n-2.0\n"


def test_a_piece_that_never_ends_loading_stops_as_the_blocks_error(monkeypatch):
    monkeypatch.setattr(reader_engine, "LOAD_TIME_LIMIT", 0.2)
    endless = {**SOLUTIONS, "topological-order": "while True:\n    pass\n"}
    engine = ReaderEngine("automatic-backward", endless)
    outcome = blocks.run_block(REUSED, "<b>", blocks.new_namespace(), capture=True, engine=engine)
    assert outcome.raised.names[0] == "TimeLimitExceeded"
    assert closures.Value.__module__ == "scratchgrad.stages.closures"


def test_a_piece_not_passed_is_the_books():
    engine = ReaderEngine.load("automatic-backward", {"value-graph": SOLUTIONS["value-graph"]})
    assert engine.stand_ins
    sources = {use.exercise: use.source for use in engine.uses}
    assert sources["value-graph"] == "yours"
    assert sources["backward"] == "reference"


@pytest.mark.parametrize(
    ("page", "count"),
    # automatic-backward: its 7th block on imports the package's Value, for a graph of a million nodes
    [
        ("value-object", 4),
        ("backprop-by-hand", 12),
        ("chain-rule", 6),
        ("automatic-backward", 6),
        ("accumulating-gradients", 11),
        ("neurons-layers-mlp", 6),  # its 7th block is PyTorch's
    ],
)
def test_a_correct_engine_prints_what_the_book_prints(page, count):
    """The chapter's first `count` runnable blocks, in order, on the book's engine and on the reference
    pieces, with shares added (+=) from the first rules on."""
    book, yours = blocks.new_namespace(), blocks.new_namespace()
    engine = ReaderEngine.load(page, ACCUMULATING)
    runnable = [fence for fence in page_fences(f"{page}.md") if fence.runnable]
    assert len(runnable) >= count
    for n, fence in enumerate(runnable[:count]):
        filename = blocks.block_filename(page, n)
        expected = blocks.run_block(fence.body, filename, book, capture=True)
        got = blocks.run_block(fence.body, filename, yours, capture=True, engine=engine)
        # The tracebacks differ, as they should: one goes through the reader's code.
        assert (got.printed, said(got)) == (expected.printed, said(expected)), f"{page} block {n + 1}"


DIAMOND = """\
from scratchgrad.stages.closures import Value

a, b, c = Value(2.0, label="a"), Value(-3.0, label="b"), Value(10.0, label="c")
e = a * b
e.label = "e"
d = e + c
d.label = "d"
L = d * e
L.label = "L"
"""
GRADS_OF_A_AND_B = "for v in (a, b, c, e, d, L):\n    v.grad = 0.0\nL.backward()\nprint(a.grad, b.grad)\n"


def test_the_wrong_order_switch_reaches_the_readers_values_made_above_and_only_for_its_run():
    namespace = blocks.new_namespace()
    engine = ReaderEngine.load("automatic-backward", ACCUMULATING)
    assert ReaderEngine.load("automatic-backward", ACCUMULATING, "wrong-order") is engine

    def run_here(code: str, bug: str | None = None) -> str:
        return blocks.run_block(code, "<b>", namespace, capture=True, bug=bug, engine=engine).printed

    run_here(DIAMOND)
    assert type(namespace["a"]).__module__ == "__your_engine__"
    assert run_here(GRADS_OF_A_AND_B, bug="wrong-order") == "-12.0 8.0\n"
    assert run_here(GRADS_OF_A_AND_B) == "6.0 -4.0\n"
    book = blocks.new_namespace()
    blocks.run_block(DIAMOND, "<b>", book, capture=True)
    assert (
        blocks.run_block(GRADS_OF_A_AND_B, "<b>", book, capture=True, bug="wrong-order").printed
        == "-12.0 8.0\n"
    )


def run_page_until(page: str, passed: dict[str, str], marker: str) -> blocks.Outcome:
    """The page's runnable blocks on the reader's engine, from the top to the first with `marker`."""
    namespace, engine = blocks.new_namespace(), ReaderEngine.load(page, passed)
    for n, fence in enumerate(fence for fence in page_fences(f"{page}.md") if fence.runnable):
        outcome = blocks.run_block(
            fence.body, blocks.block_filename(page, n), namespace, capture=True, engine=engine
        )
        if marker in fence.body:
            return outcome
    raise AssertionError(f"no block of {page} has {marker!r}")


def test_the_readers_walk_by_hand_fills_the_chapters_graph():
    walk = "backprop_by_hand(a, b, c, f, e, d, L)"
    swapped = SOLUTIONS["backprop-by-hand"].replace("d.grad = f.data * L.grad", "d.grad = d.data * L.grad")
    assert swapped != SOLUTIONS["backprop-by-hand"]
    right = run_page_until("backprop-by-hand", SOLUTIONS, walk).printed
    wrong = run_page_until("backprop-by-hand", {**SOLUTIONS, "backprop-by-hand": swapped}, walk).printed
    assert "dL/dd = -2.0" in right
    assert "dL/dd = +4.0" in wrong  # their local derivative for d: d itself, 4, where f = -2 belongs
    assert "dL/da = -12.0" in wrong  # and every gradient below d carries it


def test_a_by_hand_stand_in_is_the_readers_value_with_the_books_grad_and_tanh():
    engine = ReaderEngine.load("backprop-by-hand", SOLUTIONS)
    code = (
        "from scratchgrad.stages.by_hand import Value\n"
        "o = (Value(2.0) * Value(0.5)).tanh()\nprint(type(o).__module__, o.grad, o._prev.pop()._op)\n"
    )
    assert blocks.run_block(code, "<b>", blocks.new_namespace(), capture=True, engine=engine).printed == (
        "__your_engine__ 0.0 *\n"
    )


def test_the_readers_network_starts_from_the_books_weights_and_shows_its_own_bug():
    code = (
        "from scratchgrad.stages.textbook_nn import MLP\n"
        "model = MLP(3, [4, 4, 1], rng=0)\n"
        "print(len(model.parameters()), round(model([2.0, 3.0, -1.0]).data, 6))\n"
    )
    book = blocks.run_block(code, "<b>", blocks.new_namespace(), capture=True).printed
    engine = ReaderEngine.load("neurons-layers-mlp", ACCUMULATING)
    assert blocks.run_block(code, "<b>", blocks.new_namespace(), capture=True, engine=engine).printed == book
    no_bias = {**ACCUMULATING, "mlp": SOLUTIONS["mlp"].replace("return self.w + [self.b]", "return self.w")}
    engine = ReaderEngine.load("neurons-layers-mlp", no_bias)
    printed = blocks.run_block(code, "<b>", blocks.new_namespace(), capture=True, engine=engine).printed
    assert printed.split()[0] == "32"  # 41 less the 9 biases: their parameters() forgets them
    assert printed != book


def test_the_readers_training_loop_trains_the_story_network_on_the_training_page():
    marker = "textbook_nn.train("
    right = run_page_until("training", ACCUMULATING, marker).printed
    uphill = by_id("training").wrong_source("uphill")  # the loop moves every parameter uphill
    wrong = run_page_until("training", {**ACCUMULATING, "training": uphill}, marker).printed
    assert right.endswith("to 1e-9: True\n")
    assert wrong.endswith("to 1e-9: False\n")
    assert right.splitlines()[0] == wrong.splitlines()[0]  # the same start: the book's weights


def test_the_wrong_order_switch_on_the_readers_engine_marks_a_and_b_in_the_drawn_check():
    namespace, engine = blocks.new_namespace(), ReaderEngine.load("automatic-backward", ACCUMULATING)
    blocks.run_block(DIAMOND + "L.backward()\n", "<b>", namespace, capture=True, engine=engine)
    outcome = blocks.run_block(
        "print(L.data)", "<b>", namespace, graphs=["L"], capture=True, bug="wrong-order", engine=engine
    )
    study = json.loads(outcome.drawings[1].data)
    wrong = {
        node["name"]
        for node, verdict in zip(study["nodes"], study["check"]["nodes"], strict=True)
        if verdict["status"] == "wrong"
    }
    assert wrong == {"a", "b"}


ENGINES = {"reference": ACCUMULATING, "learner": LEARNER, "natural": NATURAL}
"""The readers' engines whole pages are run on, by name: each page runs once on each, for every test."""


def browser_blocks(page: str) -> list[tuple[int, str, str]]:
    """(index among the runnable blocks, code, filename) of each block of `page` the browser runs."""
    fences = [fence for fence in page_fences(f"{page}.md") if fence.runnable]
    return [
        (n, fence.body, blocks.block_filename(page, n))
        for n, fence in enumerate(fences)
        if 'browser="no"' not in fence.info
    ]


@functools.cache
def on_the_book(page: str) -> dict[int, blocks.Outcome]:
    """What each block of `page` the browser runs did on the book's engine, run once in page order
    and kept: every test comparing a reader's engine with the book reads the same run."""
    namespace = blocks.new_namespace()
    return {
        n: blocks.run_block(code, filename, namespace, capture=True)
        for n, code, filename in browser_blocks(page)
    }


@functools.cache
def on_a_readers(page: str, engine: str) -> dict[int, blocks.Outcome]:
    """What each block of `page` the browser runs did on the `engine` of ENGINES, in page order, each
    block on the reader's engine where "my engine" puts it; run once and kept, like on_the_book."""
    namespace, loaded = blocks.new_namespace(), ReaderEngine.load(page, ENGINES[engine])
    codes = [fence.body for fence in page_fences(f"{page}.md") if fence.runnable]
    return {
        n: blocks.run_block(
            code, filename, namespace, capture=True, engine=loaded if describe(page, codes[: n + 1]) else None
        )
        for n, code, filename in browser_blocks(page)
    }


def every_block_of(page: str, engine: str) -> list[tuple[int, str | None, str | None]]:
    """(block number, what the book's engine raised, what the reader's raised) for each block of
    `page` the browser runs, on the book's engine and on the `engine` of ENGINES."""
    fences = [fence for fence in page_fences(f"{page}.md") if fence.runnable]
    book, yours, ran = on_the_book(page), on_a_readers(page, engine), []
    for n in book:
        raised = (said(book[n]), said(yours[n]))
        if "expect=" in fences[n].info:  # a block meant to fail: its error's type, worded as Python words it
            raised = tuple(line and line.split(":")[0] for line in raised)
        ran.append((n + 1, *raised))
    return ran


@pytest.mark.parametrize("engine", ["reference", "learner"])
@pytest.mark.parametrize("page", reader_engine.CHAPTERS)
def test_every_block_of_every_chapter_runs_on_a_correct_readers_engine(page, engine):
    """Operations no exercise asks for (log, sigmoid, relu) come from the book, grafted on the
    reader's Value; a drawing reads the reader's graph: no block raises what the book's does not."""
    assert [(n, book, yours) for n, book, yours in every_block_of(page, engine) if book != yours] == []


@pytest.mark.parametrize("piece", [piece for piece, code in LEARNER.items() if code != SOLUTIONS[piece]])
def test_the_learners_pieces_each_pass_their_checks(piece):
    earlier = {exercise.id: LEARNER[exercise.id] for exercise in earlier_pieces(by_id(piece))}
    report = check(piece, LEARNER[piece], earlier, seed=0)
    assert report.outcome == "passed", report.headline


@pytest.mark.parametrize("page", reader_engine.CHAPTERS)
def test_a_page_check_that_an_equals_engine_fails_says_the_lesson(page):
    for n, book, yours in every_block_of(page, "natural"):
        if yours != book:
            assert yours.startswith("AssertionError: "), f"{page} block {n}: {yours}"
            assert ".grad +=" in yours or "The += bug" in yours, f"{page} block {n}: {yours}"


def test_the_books_operations_grafted_on_a_readers_value_are_named_once():
    engine = ReaderEngine("more-operations", SOLUTIONS)
    code = "from scratchgrad.stages.closures import Value\nprint(Value(2.0).log().log().data)\n"
    printed = blocks.run_block(code, "<b>", blocks.new_namespace(), capture=True, engine=engine).printed
    assert printed.count("(log: the book's, on your Value: no exercise asks you to write it)") == 1
    assert engine.grafted == {"log", "relu", "sigmoid"}


def test_the_readers_engine_trains_the_moons_beyond_four_points():
    """Past Training the reader's engine goes on: the moons block is their Value, MLP and train.
    The book's run and the reference engine's are those of the every-block tests (one training
    each, shared); a reader's loop that steps uphill trains once more, on its own."""
    page, marker = "beyond-four-points", "textbook_nn.train(story_net"
    codes = [fence.body for fence in page_fences(f"{page}.md") if fence.runnable]
    block = next(n for n, code in enumerate(codes) if marker in code)
    told = [piece["id"] for piece in describe(page, codes[: block + 1])]
    assert {"local-derivatives", "backward", "accumulate", "mlp", "training"} <= set(told)

    book = on_the_book(page)[block].printed
    assert book.endswith("training points on their own side: 40 of 40\n")
    assert on_a_readers(page, "reference")[block].printed == book
    engine = ReaderEngine.load(page, {**ACCUMULATING, "training": by_id("training").wrong_source("uphill")})
    filename = blocks.block_filename(page, block)
    uphill = blocks.run_block(
        codes[block], filename, blocks.new_namespace(), capture=True, engine=engine
    ).printed
    assert uphill.splitlines()[0] == book.splitlines()[0]  # the same start: the book's weights
    assert not uphill.endswith("40 of 40\n")


def test_the_networks_check_on_a_readers_wrong_network_names_what_to_fix():
    no_bias = {**ACCUMULATING, "mlp": SOLUTIONS["mlp"].replace("return self.w + [self.b]", "return self.w")}
    outcome = run_page_until("neurons-layers-mlp", no_bias, "package_model = scratchgrad.MLP")
    assert said(outcome) == (
        "AssertionError: the textbook MLP(3, [4, 4, 1]) lists 32 parameters, the package's 41: "
        "parameters() must give every weight and every bias (the exercise of this chapter)"
    )
