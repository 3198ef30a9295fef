"""What a runnable block is (scratchgrad.page.blocks): namespaces, seeding, outcomes, verdicts, drawings.

The build (tests/test_hooks.py, tests/test_docs.py) and the browser (tests/browser/) use this same
module; here its rules are pinned down one at a time, in CPython and inside Pyodide alike.
"""

from __future__ import annotations

import json
import random
import sys

import pytest

from scratchgrad import Value
from scratchgrad.graph import to_dot
from scratchgrad.page import blocks
from scratchgrad.stages import graph_only


@pytest.fixture
def sent():
    """What the blocks sent to a page (mime type, data, label), with a page attached for the test."""
    drawings = []
    blocks.set_display(lambda mime_type, data, label: drawings.append((mime_type, data, label)))
    yield drawings
    blocks.set_display(None)


def run(code: str, namespace: dict | None = None, **options) -> blocks.Outcome:
    namespace = blocks.new_namespace() if namespace is None else namespace
    return blocks.run_block(code, "<page block 0>", namespace, **options)


def test_the_file_name_names_the_page_and_the_block():
    assert blocks.block_filename("chain-rule", 3) == "<chain-rule block 4>"
    assert blocks.block_filename("part/index", 0) == blocks.FILENAME_FORMAT.format(
        page="part/index", number=1
    )


def test_blocks_of_a_page_share_their_namespace(capsys):
    namespace = blocks.new_namespace()
    assert run("x = 20", namespace).raised is None
    assert run("print(x + 1)", namespace).raised is None
    assert capsys.readouterr().out == "21\n"


def test_a_captured_run_keeps_stdout_and_stderr_in_one_stream():
    outcome = run("import sys\nprint('out')\nprint('err', file=sys.stderr)\nprint('out again')", capture=True)
    assert outcome.printed == "out\nerr\nout again\n"


def test_new_namespace_is_main_and_seeds_random_with_the_page_seed():
    random.seed(12345)
    namespace = blocks.new_namespace()
    first_draw = random.random()
    random.seed(blocks.PAGE_SEED)
    assert first_draw == random.random()
    assert namespace["__name__"] == "__main__"
    assert set(namespace) == {"__name__", "show_graph"}


def test_blocks_run_under_the_default_recursion_limit_whatever_the_caller_set():
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(before + 500)
    try:
        outcome = run("import sys\nprint(sys.getrecursionlimit())", capture=True)
        assert outcome.printed == f"{blocks.RECURSION_LIMIT}\n"
        assert sys.getrecursionlimit() == before + 500
    finally:
        sys.setrecursionlimit(before)


def test_a_raised_exception_lists_its_class_and_every_base_class():
    outcome = run("class Unlucky(ZeroDivisionError):\n    pass\n\nraise Unlucky('no luck')\n")
    assert outcome.raised.names == [
        "Unlucky",
        "ZeroDivisionError",
        "ArithmeticError",
        "Exception",
        "BaseException",
        "object",
    ]
    assert outcome.raised.line == "Unlucky: no luck"


@pytest.mark.parametrize(
    ("code", "expect", "verdict"),
    [
        ("x = 1", None, True),
        ("x = 1", "KeyError", False),
        ("1 / 0", None, False),
        ("1 / 0", "ZeroDivisionError", True),
        ("1 / 0", "ArithmeticError", True),  # a subclass of what is expected is what is expected
        ("1 / 0", "KeyError", False),
        ("raise KeyboardInterrupt", "Exception", False),
    ],
)
def test_the_verdict_follows_the_expect_option_and_the_exceptions_bases(code, expect, verdict):
    assert run(code).as_expected(expect) is verdict


def test_the_outcome_is_plain_json():
    outcome = run("print('hi')\n{}['key']", capture=True, graphs=())
    record = json.loads(outcome.to_json())
    assert record["printed"] == "hi\n"
    assert record["raised"]["names"][:2] == ["KeyError", "LookupError"]
    assert record["raised"]["line"] == "KeyError: 'key'"
    assert record["raised"]["traceback"] == outcome.raised.traceback
    assert record["drawings"] == []
    assert json.loads(run("x = 1").to_json())["raised"] is None


def test_the_page_gets_the_verdict_with_the_outcome():
    namespace = blocks.new_namespace()

    def verdict(code, **named):
        return json.loads(blocks.run_for_page(code, namespace=namespace, **named))

    record = verdict("1 / 0", page="p", index=2, expect="ArithmeticError")
    assert record["as_expected"] is True
    assert record["raised"]["traceback"].splitlines()[1].startswith('  File "<p block 3>", line 1')
    assert verdict("x = 1", page="p", index=0, expect="KeyError")["as_expected"] is False
    assert verdict("y = x", filename="<work file>")["as_expected"] is True


def test_the_page_names_a_block_or_its_file():
    with pytest.raises(TypeError, match="page and index, or a filename"):
        blocks.run_for_page("x = 1", namespace={}, page="p")


def test_traceback_starts_at_the_readers_block():
    code = "def f(n):\n    return 1 / n\n\nf(0)\n"
    traceback = run(code).raised.traceback
    lines = traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "<page block 0>", line 4, in <module>'
    assert lines[2] == "    f(0)"
    assert '  File "<page block 0>", line 2, in f' in lines
    assert "    return 1 / n" in lines
    assert lines[-1] == "ZeroDivisionError: division by zero"
    assert "blocks.py" not in traceback


def test_traceback_keeps_frames_inside_the_package():
    traceback = run("Value(1.0) + 'text'", {"Value": Value}).raised.traceback
    assert 'File "<page block 0>", line 1, in <module>' in traceback
    assert "scratchgrad" in traceback
    assert traceback.rstrip().splitlines()[-1].startswith("TypeError")


def test_syntax_error_points_at_the_readers_line():
    traceback = blocks.run_block("x = 1\ny = (", "<page block 2>", blocks.new_namespace()).raised.traceback
    assert 'File "<page block 2>", line 2' in traceback
    assert traceback.rstrip().splitlines()[-1].startswith("SyntaxError")
    assert "Traceback (most recent call last)" not in traceback


def test_keyboard_interrupt_and_system_exit_are_reported_not_raised():
    assert run("raise KeyboardInterrupt").raised.line == "KeyboardInterrupt"
    assert run("raise SystemExit(3)").raised.names[0] == "SystemExit"


def test_output_printed_without_newline_is_flushed_at_the_end(capfd):
    run("print('no newline', end='')")
    assert capfd.readouterr().out == "no newline"


def test_graph_option_sends_the_dot_of_each_expression_to_the_page(sent):
    namespace = blocks.new_namespace()
    code = "from scratchgrad import Value\na = Value(2.0, label='a')\nL = a * 3\n"
    outcome = run(code, namespace, graphs=["L", "a"])
    assert outcome.raised is None
    assert outcome.drawings == []
    assert drawn(sent) == [
        (blocks.DOT_MIME_TYPE, to_dot(namespace["L"]), "L"),
        (blocks.DOT_MIME_TYPE, to_dot(namespace["a"]), "a"),
    ]


def drawn(sent):
    """The graph drawings among what a block sent, after checking each is followed by its study."""
    graphs = [item for item in sent if item[0] == blocks.DOT_MIME_TYPE]
    studies = [item for item in sent if item[0] == blocks.STUDY_MIME_TYPE]
    assert [item[0] for item in sent] == [blocks.DOT_MIME_TYPE, blocks.STUDY_MIME_TYPE] * len(graphs)
    assert [label for _, _, label in studies] == [label for _, _, label in graphs]
    return graphs


def test_each_graph_is_followed_by_its_study_with_the_steps_of_backward(sent):
    namespace = blocks.new_namespace()
    run("from scratchgrad import Value\na = Value(2.0, label='a')\nL = a * 3\n", namespace, graphs=["L"])
    study = json.loads(sent[1][1])
    assert [node["name"] for node in study["nodes"]] == ["a", "v1"]
    assert study["steps"][0]["text"] == ["a.grad += 3.0 × v1.grad = 3.0 × 1.0 = 3.0"]
    assert namespace["a"].grad == 0.0  # recording the pass changed nothing the reader sees


def test_a_graph_above_the_draw_limit_is_summarised_in_one_box(sent):
    code = "from scratchgrad import Value\ntotal = sum(Value(float(i)) for i in range(150))\n"
    assert run(code, graphs=["total"]).raised is None
    [(_, dot, _)] = drawn(sent)
    assert "300 Values: more than the 200 a page draws readably" in dot
    assert "more than the 200" in json.loads(sent[1][1])["note"]


def test_without_a_page_the_drawings_are_kept_in_the_outcome():
    namespace = blocks.new_namespace()
    outcome = run(
        "from scratchgrad import Value\nL = Value(2.0) * 3\nshow_graph(L, label='mine')",
        namespace,
        graphs=["L"],
    )
    assert [(d.mime_type, d.label) for d in outcome.drawings] == [
        (blocks.DOT_MIME_TYPE, "mine"),
        (blocks.STUDY_MIME_TYPE, "mine"),
        (blocks.DOT_MIME_TYPE, "L"),
        (blocks.STUDY_MIME_TYPE, "L"),
    ]
    assert outcome.drawings[2].data == to_dot(namespace["L"])


def test_a_stage_value_is_drawn_like_any_other(sent):
    namespace = blocks.new_namespace()
    code = (
        "from scratchgrad.stages.graph_only import Value\nL = Value(2.0, label='a') * Value(3.0, label='b')\n"
    )
    assert run(code, namespace, graphs=["L"]).raised is None
    assert drawn(sent) == [(blocks.DOT_MIME_TYPE, to_dot(namespace["L"]), "L")]
    assert "keep no gradient" in json.loads(sent[1][1])["note"]
    assert isinstance(namespace["L"], graph_only.Value)


def test_a_graph_option_that_is_not_a_value_is_an_error_the_reader_sees(sent):
    outcome = run("L = 42", graphs=["L"])
    assert outcome.raised.line == "TypeError: show_graph() draws the graph of a Value, got int"
    assert sent == []


def test_show_graph_of_something_else_than_a_value_is_an_error_the_reader_sees(sent):
    assert run("show_graph(3)").raised.line == "TypeError: show_graph() draws the graph of a Value, got int"
    assert sent == []


def test_show_graph_in_the_readers_code(sent):
    code = "from scratchgrad import Value\nshow_graph(Value(1.0, label='one') * 2, rankdir='TB')\n"
    assert run(code).raised is None
    [(mime_type, dot, label)] = drawn(sent)
    assert (mime_type, label) == (blocks.DOT_MIME_TYPE, "")
    assert 'rankdir="TB"' in dot
    assert "one" in dot


def test_a_curve_option_sends_each_steps_loss_and_accuracy(sent):
    code = (
        "from scratchgrad.train import History, StepRecord\n"
        "history = History()\n"
        "history.append(StepRecord(0, 0.5, 0.25))\n"
        "history.append(StepRecord(1, float('nan'), 0.75))\n"
        "losses = [2, 1.5]\n"
    )
    assert run(code, curves=["history", "losses"]).raised is None
    assert sent == [
        (blocks.CURVE_MIME_TYPE, '{"loss": [0.5, null], "accuracy": [0.25, 0.75]}', "history"),
        (blocks.CURVE_MIME_TYPE, '{"loss": [2.0, 1.5], "accuracy": null}', "losses"),
    ]


def test_a_curve_of_something_else_is_an_error_that_says_what_a_curve_is_drawn_from(sent):
    outcome = run("history = 3", curves=["history"])
    assert outcome.raised.line == (
        "TypeError: a curve is drawn from a History or a list of losses, got int: "
        "'int' object is not iterable"
    )
    assert sent == []


def test_show_graph_outside_a_block_says_where_it_works():
    with pytest.raises(RuntimeError, match="show_graph\\(\\) draws below a runnable block"):
        blocks.show_graph(Value(1.0))


def test_forget_drops_the_package_and_what_came_after_start_up_but_keeps_the_standard_library():
    import json as json_module  # noqa: F401 (a standard module imported after the baseline)

    baseline = set(sys.modules) - {"json", "json.decoder", "a_later_package"}
    before = dict(sys.modules)
    sys.modules["a_later_package"] = sys.modules["scratchgrad.engine"]
    try:
        removed = blocks.forget_imported_packages(baseline)
        assert "a_later_package" in removed
        assert {"scratchgrad", "scratchgrad.engine", "scratchgrad.page.blocks"} <= set(removed)
        assert all(name.partition(".")[0] in ("scratchgrad", "a_later_package") for name in removed)
        assert "json" in sys.modules
        assert not [name for name in sys.modules if name.startswith("scratchgrad")]
    finally:
        sys.modules.update(before)
        sys.modules.pop("a_later_package", None)


def test_a_run_with_a_bug_leaves_the_page_its_names_and_its_random_numbers() -> None:
    namespace = blocks.new_namespace()
    blocks.run_block("import random\nx = 1", "<b 1>", namespace)
    drawn_so_far = random.getstate()
    outcome = blocks.run_block(
        "x = 2\nprint(random.random())", "<b 2>", namespace, capture=True, bug="recursive"
    )
    assert outcome.raised is None
    assert outcome.printed
    assert namespace["x"] == 1
    assert random.getstate() == drawn_so_far
