"""Drawing a computation graph: DOT text, a Graphviz picture, or a text tree.

As micrograd draws it: a record for every Value (label, ``data``, and ``grad`` once it has one)
and a small op node between the Values an operation read and its result, so an arrow reads "goes
into"; a plain number in an expression gets no box but is written into the op's name (``a * 2``
reads ``* 2``, ``a - 1`` reads ``+ -1``), and a Value used twice gets two arrows. Any Value of the
story can be drawn, the package's, a stage's or a reader's own (`is_value` says what counts). `to_dot` needs
only Python, so it runs in the browser too; `draw_dot` hands the same nodes to Graphviz.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from scratchgrad.engine import topological_order

if TYPE_CHECKING:
    import graphviz

__all__ = [
    "DRAW_LIMIT",
    "FIELD_DIGITS",
    "GRAD_FIELD",
    "Drawing",
    "GraphNode",
    "count_values",
    "draw_dot",
    "drawing",
    "graph_nodes",
    "is_value",
    "print_tree",
    "summary_dot",
    "to_dot",
]

MAX_NODES = 500
"""Default limit on the Values in one drawing: a browser cannot show more usefully."""

FIELD_DIGITS = 4
"""The decimals of a drawn Value's data and grad fields (``data 0.5000``)."""

GRAD_FIELD = "grad "
"""What a drawn Value's grad field starts with, before its number; the page's graph tools find that
field by it and rewrite its number (web/graph/svg-nodes.js, given both through the bundle)."""

DRAW_LIMIT = 200
"""The most Values a page draws (`scratchgrad.page.blocks.show_graph`): above it a box summarises the graph
(`summary_dot`), since a wider drawing is too small to read in a column, and slow to lay out."""

RANKDIRS = ("LR", "RL", "TB", "BT")
CHILDREN_ATTRIBUTES = ("_children", "_prev", "children")
"""Where a Value keeps the Values it was computed from: the engine's tuple, the story's first
stages' set (micrograd's name), or a reader's own choice."""


@dataclass(frozen=True)
class Drawing:
    """The nodes and edges of a drawing, before they become DOT text or a picture.

    Attributes:
        rankdir: the direction the arrows point: ``"LR"`` (left to right), ``"TB"``, ...
        nodes: ``(node id, attributes)`` pairs; attribute values are DOT-escaped.
        edges: ``(tail id, head id)`` pairs, one per arrow.
    """

    rankdir: str
    nodes: list[tuple[str, dict[str, str]]]
    edges: list[tuple[str, str]]


def drawing(root: Any, rankdir: str = "LR", max_nodes: int = MAX_NODES) -> Drawing:
    """The nodes and edges that draw `root` and everything it was computed from.

    Node ids follow the topological order, so the same expression always gives
    the same drawing: ``v3`` is the fourth Value in that order, ``op3`` the
    operation that made it.
    """
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {', '.join(RANKDIRS)}, got {rankdir!r}")
    order = _values_to_draw(root, max_nodes, "drawing")
    # Under LR/RL a record stacks its fields unless they are wrapped in { }: wrap them
    # there, so label | data | grad reads left to right in every direction.
    sideways = rankdir in ("LR", "RL")
    index = {node: i for i, node in enumerate(order)}
    nodes: list[tuple[str, dict[str, str]]] = []
    edges: list[tuple[str, str]] = []
    for i, node in enumerate(order):
        nodes.append((f"v{i}", {"label": _record_label(node, sideways), "shape": "record"}))
        if node._children:
            nodes.append((f"op{i}", {"label": _escape_text(node.op)}))
            edges.extend((f"v{index[child]}", f"op{i}") for child in node._children)
            edges.append((f"op{i}", f"v{i}"))
    return Drawing(rankdir, nodes, edges)


@dataclass(frozen=True)
class GraphNode:
    """One Value of a drawing, as the page's tools see it: the Value itself and how to name it.

    Attributes:
        value: the Value (of any kind: see `is_value`).
        id: its node id in the drawing, ``v3`` (and ``op3`` for the operation that made it).
        name: its label if no other Value of the graph has that label, else its id: what the page
            shows and tests look for (``data-sg-node``).
        op: the operation that made it (``""`` for an input).
        children: the positions (in the drawing's order) of the Values it was made from.
    """

    value: Any
    id: str
    name: str
    op: str
    children: tuple[int, ...]


def graph_nodes(root: Any, max_nodes: int = MAX_NODES) -> list[GraphNode]:
    """The Values of `root`'s graph in the drawing's order (`root` last): the i-th is node ``v{i}``."""
    order = _values_to_draw(root, max_nodes, "graph_nodes")
    index = {node: i for i, node in enumerate(order)}
    labels = [node.label for node in order]
    return [
        GraphNode(
            value=node._value,
            id=f"v{i}",
            name=node.label if node.label and labels.count(node.label) == 1 else f"v{i}",
            op=node.op,
            children=tuple(index[child] for child in node._children),
        )
        for i, node in enumerate(order)
    ]


def count_values(root: Any) -> int:
    """How many Values `root`'s graph holds (`root` and everything it was computed from)."""
    return len(topological_order(_Nodes("count_values").of(root)))


def summary_dot(root: Any, limit: int = DRAW_LIMIT) -> str:
    """A drawing of one box that says what a graph too large to draw holds: its Values, per operation.

    Example:
        >>> from scratchgrad import Value
        >>> total = sum((Value(float(i)) * 2 for i in range(3)), Value(0.0))
        >>> print(summary_dot(total, limit=5).replace("\\\\l", "\\n"), end="")
        digraph {
          summary [shape="note", label="10 Values: more than the 5 a page draws readably.
        4 inputs; operations: * 2 ×3, + ×3
        "];
        }
    """
    order = topological_order(_Nodes("summary_dot").of(root))
    ops: dict[str, int] = {}
    for node in order:
        if node._children:
            ops[node.op] = ops.get(node.op, 0) + 1
    inputs = len(order) - sum(ops.values())
    most_first = sorted(ops.items(), key=lambda item: (-item[1], item[0]))
    listed = ", ".join(f"{op} ×{count}" for op, count in most_first)
    text = (
        f"{len(order)} Values: more than the {limit} a page draws readably.\\l"
        f"{inputs} inputs; operations: {_escape_text(listed)}\\l"
    )
    return f'digraph {{\n  summary [shape="note", label="{text}"];\n}}\n'


def to_dot(root: Any, rankdir: str = "LR", max_nodes: int = MAX_NODES) -> str:
    """The graph of `root` as DOT text, Graphviz's language: pure Python, no Graphviz needed.

    Example:
        >>> from scratchgrad import Value
        >>> a = Value(2.0, label="a")
        >>> print(to_dot(a * 3), end="")
        digraph {
          graph [rankdir="LR"];
          v0 [label="{ a | data 2.0000 | grad 0.0000 }", shape="record"];
          v1 [label="{ data 6.0000 | grad 0.0000 }", shape="record"];
          op1 [label="* 3"];
          v0 -> op1;
          op1 -> v1;
        }
    """
    picture = drawing(root, rankdir, max_nodes)
    lines = ["digraph {", f'  graph [rankdir="{picture.rankdir}"];']
    for node_id, attributes in picture.nodes:
        listed = ", ".join(f'{name}="{value}"' for name, value in attributes.items())
        lines.append(f"  {node_id} [{listed}];")
    lines.extend(f"  {tail} -> {head};" for tail, head in picture.edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def draw_dot(
    root: Any, format: str = "svg", rankdir: str = "LR", max_nodes: int = MAX_NODES
) -> graphviz.Digraph:
    """The graph of `root` as a `graphviz.Digraph`, ready to render (`.pipe()`, `.render()`).

    Needs the optional `graphviz` package (``pip install scratchgrad[graph]``)
    and Graphviz's ``dot`` program to render. In a notebook the Digraph shows
    itself as a picture.
    """
    picture = drawing(root, rankdir, max_nodes)
    try:
        import graphviz
    except ImportError as error:
        raise ImportError(
            "draw_dot needs the graphviz package: pip install scratchgrad[graph] "
            "(to_dot gives the DOT text without it)"
        ) from error
    graph = graphviz.Digraph(format=format, graph_attr={"rankdir": picture.rankdir})
    for node_id, attributes in picture.nodes:
        # nohtml: a label in < > is plain text here, never Graphviz's HTML-like label.
        graph.node(node_id, **{name: graphviz.nohtml(value) for name, value in attributes.items()})
    for tail, head in picture.edges:
        graph.edge(tail, head)
    return graph


def print_tree(root: Any, file: TextIO | None = None, max_nodes: int = MAX_NODES) -> None:
    """Print the graph of `root` as a tree: the output first, each node's children below it.

    Each line shows a Value's label, the op that made it (or ``input``), its
    data and its grad (if it has one yet). A Value used in several places is printed in full the
    first time and tagged ``(#1)``; later uses print ``see #1 above``, so a
    shared sub-expression does not repeat (and cannot blow up the output).

    Example:
        >>> from scratchgrad import Value
        >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
        >>> print_tree(a * b + a)
        + data=-4.0000 grad=0.0000
        ├── * data=-6.0000 grad=0.0000
        │   ├── a: input data=2.0000 grad=0.0000  (#1)
        │   └── b: input data=-3.0000 grad=0.0000
        └── a: see #1 above
    """
    out = sys.stdout if file is None else file
    order = _values_to_draw(root, max_nodes, "print_tree")
    uses: dict[_Node, int] = {}
    for node in order:
        for child in node._children:
            uses[child] = uses.get(child, 0) + 1
    tags: dict[_Node, int] = {}
    # Each entry: (node, text before the connector, connector, text before its children).
    stack: list[tuple[_Node, str, str, str]] = [(order[-1], "", "", "")]
    while stack:
        node, prefix, connector, child_prefix = stack.pop()
        name = f"{node.label}: " if node.label else ""
        if node in tags:
            print(f"{prefix}{connector}{name}see #{tags[node]} above", file=out)
            continue
        line = f"{prefix}{connector}{name}{node.op or 'input'} data={node.data:.4f}"
        if node.grad is not None:
            line += f" grad={node.grad:.4f}"
        if uses.get(node, 0) > 1:
            tags[node] = len(tags) + 1
            line += f"  (#{tags[node]})"
        print(line, file=out)
        last = len(node._children) - 1
        for i, child in reversed(list(enumerate(node._children))):
            if i == last:
                stack.append((child, child_prefix, "└── ", child_prefix + "    "))
            else:
                stack.append((child, child_prefix, "├── ", child_prefix + "│   "))


def is_value(thing: object) -> bool:
    """True for what the drawing functions take: an object with ``data`` and its children in one
    of `CHILDREN_ATTRIBUTES` (any Value of the package, of its stages, or a reader's own)."""
    return hasattr(thing, "data") and any(hasattr(thing, name) for name in CHILDREN_ATTRIBUTES)


class _Node:
    """One Value of any kind, seen the way the drawing reads it.

    Every Value becomes one `_Node` (`_Nodes.of` remembers them), with its children as `_Node`s
    in ``_children``, as the engine's Value keeps them: so `topological_order`, the engine's own
    walk through a graph, walks any Value's graph. Children kept in a set (the stages' ``_prev``)
    are listed by label and data, so the same expression draws the same way on every run.
    """

    __slots__ = ("data", "grad", "label", "op", "_value", "_nodes", "_known_children")

    def __init__(self, value: object, nodes: _Nodes) -> None:
        self.data = value.data
        self.grad = getattr(value, "grad", None)  # None: a graph from before gradients (no grad shown)
        self.label = getattr(value, "label", "")
        self.op = getattr(value, "_op", getattr(value, "op", ""))
        self._value = value
        self._nodes = nodes
        self._known_children: tuple[_Node, ...] | None = None

    @property
    def _children(self) -> tuple[_Node, ...]:
        if self._known_children is None:
            kept = next(
                getattr(self._value, name) for name in CHILDREN_ATTRIBUTES if hasattr(self._value, name)
            )
            children = kept() if callable(kept) else kept  # a reader's class may have a children() method
            if isinstance(children, set | frozenset):
                children = sorted(children, key=_label_and_data)
            self._known_children = tuple(self._nodes.of(child) for child in children)
        return self._known_children


def _label_and_data(value: object) -> tuple[str, object]:
    return str(getattr(value, "label", "")), getattr(value, "data", 0.0)


class _Nodes:
    """The `_Node` of each Value met so far: a Value used twice is one node."""

    def __init__(self, caller: str) -> None:
        self._caller = caller
        self._made: dict[int, _Node] = {}

    def of(self, value: object) -> _Node:
        if id(value) not in self._made:
            if not is_value(value):
                raise TypeError(
                    f"{self._caller} draws a Value (an object with data and one of "
                    f"{', '.join(CHILDREN_ATTRIBUTES)}), got {type(value).__name__} {value!r}"
                )
            self._made[id(value)] = _Node(value, self)
        return self._made[id(value)]


def _values_to_draw(root: object, max_nodes: int, caller: str) -> list[_Node]:
    """`root`'s graph in topological order (`root` last), or an error if it is not a Value or too large."""
    order = topological_order(_Nodes(caller).of(root))
    if len(order) > max_nodes:
        raise ValueError(
            f"{caller}: the graph has {len(order)} Values, more than max_nodes={max_nodes}; "
            "a drawing that large cannot be read: draw a smaller expression or raise max_nodes"
        )
    return order


def _record_label(node: _Node, sideways: bool) -> str:
    fields = [f"data {node.data:.{FIELD_DIGITS}f}"]
    if node.grad is not None:
        fields.append(f"{GRAD_FIELD}{node.grad:.{FIELD_DIGITS}f}")
    if node.label:
        fields.insert(0, _escape_record_field(node.label))
    inside = " | ".join(fields)
    return f"{{ {inside} }}" if sideways else inside


# Inside a DOT string, \ and " need a backslash; inside a record's field, so do
# the characters that build records: { } | < >. A newline becomes DOT's \n.
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n"}
_TEXT_ESCAPES = str.maketrans(_STRING_ESCAPES)
_RECORD_ESCAPES = str.maketrans(_STRING_ESCAPES | {c: "\\" + c for c in "{}|<>"})


def _escape_text(text: str) -> str:
    return text.translate(_TEXT_ESCAPES)


def _escape_record_field(text: str) -> str:
    return text.translate(_RECORD_ESCAPES)
