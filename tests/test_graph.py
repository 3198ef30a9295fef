"""Graph drawing: DOT text structure and escaping, the Graphviz picture, the text tree, size limits."""

import doctest
import io
import re
import sys
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from missing_tools import import_or_missing
from scratchgrad import Value, graph
from scratchgrad.graph import draw_dot, drawing, is_value, print_tree, to_dot
from scratchgrad.stages import closures, graph_only


@pytest.fixture
def graphviz():
    """The graphviz package, or the missing-tool rule (tests/missing_tools.py; Pyodide has none)."""
    return import_or_missing("graphviz")


def expression_l():
    """L = (a*b + c) * f with every Value labelled, after backward."""
    a, b, c, f = Value(2.0, "a"), Value(-3.0, "b"), Value(10.0, "c"), Value(-2.0, "f")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    out = d * f
    out.label = "L"
    out.backward()
    return out


NODE = re.compile(r'^  (\w+) \[label="((?:[^"\\]|\\.)*)"(, shape="record")?\];$')
EDGE = re.compile(r"^  (\w+) -> (\w+);$")


def parse(dot):
    """DOT text from to_dot → ({record id: label}, {op id: label}, [edges]); fails on any other line."""
    lines = dot.splitlines()
    assert lines[:2] == ["digraph {", '  graph [rankdir="LR"];']
    assert lines[-1] == "}"
    records, ops, edges = {}, {}, []
    for line in lines[2:-1]:
        if node := NODE.match(line):
            (records if node[3] else ops)[node[1]] = node[2]
        elif edge := EDGE.match(line):
            edges.append((edge[1], edge[2]))
        else:
            pytest.fail(f"unexpected DOT line {line!r}")
    return records, ops, edges


def test_expression_l_has_seven_records_three_ops_and_nine_edges():
    records, ops, edges = parse(to_dot(expression_l()))
    assert len(records) == 7
    assert sorted(ops.values()) == ["*", "*", "+"]
    assert len(edges) == 9


def test_records_show_label_data_and_grad():
    records, _, _ = parse(to_dot(expression_l()))
    assert set(records.values()) == {
        "{ a | data 2.0000 | grad 6.0000 }",
        "{ b | data -3.0000 | grad -4.0000 }",
        "{ c | data 10.0000 | grad -2.0000 }",
        "{ f | data -2.0000 | grad 4.0000 }",
        "{ e | data -6.0000 | grad -2.0000 }",
        "{ d | data 4.0000 | grad -2.0000 }",
        "{ L | data -8.0000 | grad 1.0000 }",
    }


def test_each_op_node_sits_between_its_operands_and_its_result():
    records, ops, edges = parse(to_dot(expression_l()))
    name = {node_id: label.split(" | ")[0].strip("{ ") for node_id, label in records.items()}
    wiring = set()
    for op_id, op in ops.items():
        operands = tuple(sorted(name[tail] for tail, head in edges if head == op_id))
        (result,) = [name[head] for tail, head in edges if tail == op_id]
        wiring.add((operands, op, result))
    assert wiring == {(("a", "b"), "*", "e"), (("c", "e"), "+", "d"), (("d", "f"), "*", "L")}


def test_dot_text_is_exactly_as_specified():
    a = Value(2.0, "a")
    b = Value(-3.0, "b")
    assert to_dot(a * b + 1) == (
        "digraph {\n"
        '  graph [rankdir="LR"];\n'
        '  v0 [label="{ a | data 2.0000 | grad 0.0000 }", shape="record"];\n'
        '  v1 [label="{ b | data -3.0000 | grad 0.0000 }", shape="record"];\n'
        '  v2 [label="{ data -6.0000 | grad 0.0000 }", shape="record"];\n'
        '  op2 [label="*"];\n'
        '  v3 [label="{ data -5.0000 | grad 0.0000 }", shape="record"];\n'
        '  op3 [label="+ 1"];\n'
        "  v0 -> op2;\n"
        "  v1 -> op2;\n"
        "  op2 -> v2;\n"
        "  v2 -> op3;\n"
        "  op3 -> v3;\n"
        "}\n"
    )


def test_dot_text_does_not_depend_on_object_identity():
    first = expression_l()
    second = expression_l()  # built while the first is alive: every Value has another id and hash
    assert to_dot(first) == to_dot(second)


def test_constant_operand_is_written_into_the_op_node():
    a = Value(3.0, "a")
    _, ops, edges = parse(to_dot(a * 2))
    assert list(ops.values()) == ["* 2"]
    assert edges == [("v0", "op1"), ("op1", "v1")]


def test_value_used_twice_gets_two_arrows():
    a = Value(3.0, "a")
    records, ops, edges = parse(to_dot(a + a))
    assert list(ops.values()) == ["+"]
    assert len(records) == 2
    assert edges == [("v0", "op1"), ("v0", "op1"), ("op1", "v1")]


def test_fused_node_shows_its_activation_name():
    from scratchgrad.fused import activated_sum

    w, bias = [Value(1.0), Value(2.0)], Value(0.5)
    _, ops, edges = parse(to_dot(activated_sum(w, [3.0, 4.0], bias, "relu")))
    assert list(ops.values()) == ["relu(Σw·x+b)"]
    assert len(edges) == 4


def test_top_to_bottom_records_drop_the_braces():
    a = Value(1.0, "a")
    assert '  v0 [label="a | data 1.0000 | grad 0.0000", shape="record"];' in to_dot(a, rankdir="TB")


@pytest.mark.parametrize("label", ['say "hi"', "a<b>", "x|y", "{set}", "back\\slash", 'all "<|{}>"\\'])
def test_record_label_is_escaped(label):
    (attributes,) = [attrs for _, attrs in drawing(Value(1.0, label)).nodes]
    characters = re.findall(r"\\.|.", attributes["label"])  # an escaped pair counts as one
    assert "".join(c[-1] for c in characters) == "{ " + label + " | data 1.0000 | grad 0.0000 }"
    bare_specials = [c for c in characters if c in '{}|<>"']
    assert bare_specials == ["{", "|", "|", "}"]  # only the record's own braces and separators


def svg_texts(svg):
    root = ET.fromstring(svg)
    return [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]


def test_graphviz_shows_escaped_labels_literally(graphviz):
    a = Value(1.0, 'q"<x>|{y}\\')
    op_with_specials = Value(2.0, "out", (a,), (1.0,), 'f"<|>"')
    svg = graphviz.Source(to_dot(op_with_specials)).pipe(format="svg", encoding="utf-8")
    texts = svg_texts(svg)
    assert 'q"<x>|{y}\\' in texts
    assert 'f"<|>"' in texts


def test_draw_dot_renders_svg_with_dot(graphviz):
    picture = draw_dot(expression_l())
    assert isinstance(picture, graphviz.Digraph)
    svg = picture.pipe(format="svg", encoding="utf-8")
    assert "<svg" in svg
    texts = svg_texts(svg)
    assert {"L", "data -8.0000", "grad 1.0000", "*", "+"} <= set(texts)


def test_draw_dot_draws_the_same_graph_as_to_dot(graphviz):
    root = expression_l()
    assert draw_dot(root).pipe(format="svg") == graphviz.Source(to_dot(root)).pipe(format="svg")


def test_draw_dot_keeps_angle_bracket_labels_as_text(graphviz):
    tagged = Value(1.0, "x", (Value(0.0),), (1.0,), "<b>")
    assert "<b>" in svg_texts(draw_dot(tagged).pipe(format="svg", encoding="utf-8"))


def test_draw_dot_without_graphviz_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match=re.escape("pip install scratchgrad[graph]")):
        draw_dot(Value(1.0))


def chain(length):
    x = Value(1.0)
    for _ in range(length - 1):
        x = x * 1.0001
    return x


def test_graph_at_max_nodes_is_drawn():
    assert to_dot(chain(500)).count('shape="record"') == 500


@pytest.mark.parametrize("draw", [to_dot, draw_dot, print_tree])
def test_graph_over_max_nodes_is_refused(draw):
    with pytest.raises(ValueError, match="the graph has 501 Values, more than max_nodes=500"):
        draw(chain(501))


def test_max_nodes_can_be_raised_and_the_walk_does_not_recurse():
    depth = sys.getrecursionlimit() + 200
    assert to_dot(chain(depth), max_nodes=depth).count(" -> ") == 2 * (depth - 1)


def test_unknown_rankdir_is_refused():
    with pytest.raises(ValueError, match="rankdir must be one of LR, RL, TB, BT, got 'up'"):
        to_dot(Value(1.0), rankdir="up")


@pytest.mark.parametrize("draw", [to_dot, print_tree])
def test_drawing_something_else_than_a_value_is_refused(draw):
    with pytest.raises(TypeError, match=re.escape("draws a Value (an object with data and one of _children")):
        draw(2.0)


def tree(root, **options):
    out = io.StringIO()
    assert print_tree(root, file=out, **options) is None
    return out.getvalue()


def test_print_tree_of_ab_plus_c():
    a, b, c = Value(2.0, "a"), Value(-3.0, "b"), Value(10.0, "c")
    d = a * b + c
    d.label = "d"
    d.backward()
    assert tree(d) == (
        "d: + data=4.0000 grad=1.0000\n"
        "├── * data=-6.0000 grad=1.0000\n"
        "│   ├── a: input data=2.0000 grad=-3.0000\n"
        "│   └── b: input data=-3.0000 grad=2.0000\n"
        "└── c: input data=10.0000 grad=1.0000\n"
    )


def test_print_tree_writes_to_stdout_by_default(capsys):
    print_tree(Value(5.0, "x"))
    assert capsys.readouterr().out == "x: input data=5.0000 grad=0.0000\n"


def test_print_tree_prints_a_shared_value_once():
    a = Value(3.0, "a")
    assert tree(a + a) == (
        "+ data=6.0000 grad=0.0000\n├── a: input data=3.0000 grad=0.0000  (#1)\n└── a: see #1 above\n"
    )


def test_print_tree_of_repeated_doubling_grows_linearly():
    x = Value(1.0)
    for _ in range(20):
        x = x + x  # unshared, the tree would have 2**21 - 1 lines
    lines = tree(x).splitlines()
    assert len(lines) == 41
    assert lines[-1] == "└── see #1 above"
    assert sum("see #" in line for line in lines) == 20


def test_print_tree_does_not_recurse():
    depth = sys.getrecursionlimit() + 200
    lines = tree(chain(depth), max_nodes=depth).splitlines()
    assert len(lines) == depth
    assert lines[-1] == " " * 4 * (depth - 2) + "└── input data=1.0000 grad=0.0000"


def test_docstring_examples():
    assert doctest.testmod(graph).failed == 0


# -- any Value of the story, and a reader's own ------------------------------------------------


def stage_expression():
    """a * b + a with the first stage's Values (children in a set `_prev`, no grad)."""
    a, b = graph_only.Value(2.0, label="a"), graph_only.Value(-3.0, label="b")
    return a * b + a


def test_a_first_stage_value_is_drawn_from_its_prev_set_without_a_grad():
    """Before gradients are taught, neither the drawing nor the tree shows a grad."""
    records, ops, edges = parse(to_dot(stage_expression()))
    assert sorted(records.values()) == [
        "{ a | data 2.0000 }",
        "{ b | data -3.0000 }",
        "{ data -4.0000 }",
        "{ data -6.0000 }",
    ]
    tree = io.StringIO()
    print_tree(stage_expression(), file=tree)
    assert "grad" not in tree.getvalue()
    assert "a: input data=2.0000  (#1)" in tree.getvalue()
    assert sorted(ops.values()) == ["*", "+"]
    assert len(edges) == 6  # a and b into *, * to a*b, a*b and a into +, + to the result


def test_a_stage_value_draws_the_same_way_every_time():
    """Its children are a set, whose order changes from run to run: the drawing sorts them."""
    assert len({to_dot(stage_expression()) for _ in range(20)}) == 1


def test_a_later_stage_value_shows_its_gradients():
    a, b = closures.Value(2.0, label="a"), closures.Value(-3.0, label="b")
    out = a * b
    out.backward()
    records, _, _ = parse(to_dot(out))
    assert "{ a | data 2.0000 | grad -3.0000 }" in records.values()


class ReadersValue:
    """A Value a reader wrote: `children` and `op`, no label."""

    def __init__(self, data, children=(), op=""):
        self.data, self.grad, self.children, self.op = data, 0.0, children, op

    def __mul__(self, other):
        return ReadersValue(self.data * other.data, (self, other), "*")


def test_a_readers_own_value_class_is_drawn():
    x, y = ReadersValue(2.0), ReadersValue(3.0)
    records, ops, edges = parse(to_dot(x * y))
    assert sorted(records.values()) == [
        "{ data 2.0000 | grad 0.0000 }",
        "{ data 3.0000 | grad 0.0000 }",
        "{ data 6.0000 | grad 0.0000 }",
    ]
    assert list(ops.values()) == ["*"]
    assert len(edges) == 3


class MethodValue:
    """A Value a reader wrote whose children come from a method."""

    def __init__(self, data, inputs=(), op=""):
        self.data, self.grad, self._inputs, self.op = data, 0.0, inputs, op

    def children(self):
        return self._inputs


def test_children_may_come_from_a_method():
    _, ops, edges = parse(to_dot(MethodValue(2.0, (MethodValue(1.0),), "double")))
    assert (list(ops.values()), len(edges)) == (["double"], 2)


def test_is_value_names_what_drawing_needs():
    assert is_value(Value(1.0))
    assert is_value(graph_only.Value(1.0))
    assert is_value(ReadersValue(1.0))
    assert not is_value(2.0)
    assert not is_value(SimpleNamespace(data=1.0))


def test_a_child_that_is_not_a_value_is_named():
    with pytest.raises(TypeError, match=re.escape("got float 3.0")):
        to_dot(ReadersValue(1.0, children=(3.0,), op="+"))
