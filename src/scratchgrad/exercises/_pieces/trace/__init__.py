"""Trace the graph: every node a root was computed from, and every arrow, as the lecture's `trace`."""

from collections import Counter
from types import SimpleNamespace as Node

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.shares import line_in

EXERCISE = Exercise.load(__name__)


def _leaf(label: str, data: float) -> Node:
    return Node(data=data, label=label, _prev=(), _op="")


def _made(label: str, op: str, left: Node, right: Node) -> Node:
    data = left.data + right.data if op == "+" else left.data * right.data
    return Node(data=data, label=label, _prev=(left, right), _op=op)


def _reached(root: Node) -> tuple[list[Node], Counter]:
    """The nodes below `root` (root first, each once), and how many arrows join each (child, node)."""
    nodes, arrows, stack = {}, Counter(), [root]
    while stack:
        node = stack.pop()
        if id(node) in nodes:
            continue
        nodes[id(node)] = node
        for child in node._prev:
            arrows[id(child), id(node)] += 1
            stack.append(child)
    return list(nodes.values()), arrows


def _names(nodes) -> str:
    return "[" + ", ".join(node.label for node in nodes) + "]"


def _traced(engine: Engine, root: Node) -> tuple[list, list]:
    """What the reader's trace returns for `root`, as two lists; Fail when it is not `nodes, edges`."""
    try:
        result = engine.trace(root)
    except TypeError as error:
        if "unhashable" not in str(error):
            raise
        raise Fail(
            f"trace({root.label}) raised TypeError: {error}{line_in(engine.trace, '.add(')} — these records "
            "cannot go in a set or be a dict's keys: keep the id(node) of each node you have visited in a "
            "set, and the nodes themselves in a list"
        ) from None
    try:
        nodes, edges = result
        return list(nodes), list(edges)
    except (TypeError, ValueError):
        raise Fail(
            f"trace({root.label}) should return two things, `return nodes, edges`; yours returned "
            f"{type(result).__name__} {result!r:.80}"
        ) from None


def _check_nodes(engine: Engine, root: Node, nodes: list, expected: list[Node]) -> None:
    known = {id(node): node for node in expected}
    for item in nodes:
        if id(item) not in known:
            hint = " (an id? list the nodes themselves)" if isinstance(item, int) else ""
            raise Fail(
                f"the nodes of trace({root.label}) hold {item!r:.60}{hint}, "
                f"which is not a node below {root.label}"
            )
    for node_id, count in Counter(map(id, nodes)).items():
        if count > 1:
            raise Fail(
                f"{known[node_id].label} is listed {count} times in nodes{line_in(engine.trace, 'nodes.')}: "
                "a node goes in once, however many arrows leave it — remember the nodes you have visited"
            )
    missing = [node for node in expected if id(node) not in set(map(id, nodes))]
    if not missing:
        return
    found = f"trace({root.label}) lists {_names(nodes)} and misses {_names(missing)}"
    if id(root) not in set(map(id, nodes)):
        raise Fail(f"{found}: the root, {root.label}, is a node of its graph too")
    if {id(node) for node in nodes} == {id(root), *map(id, root._prev)}:
        raise Fail(
            f"{found}: those are {root.label} and its own children — follow the children of the children "
            "too, down to the inputs (call your function again on each child)"
        )
    raise Fail(f"{found}: every node reached through _prev, at any depth, belongs in nodes")


def _check_edges(engine: Engine, root: Node, edges: list, arrows: Counter, labels: dict[int, str]) -> None:
    pairs = []
    for edge in edges:
        try:
            child, node = edge
        except (TypeError, ValueError):
            raise Fail(
                f"each edge should be a pair (child, node); trace({root.label}) gave {edge!r:.60}"
            ) from None
        pairs.append((id(child), id(node)))

    def shown(pair: tuple[int, int]) -> str:
        return f"({labels.get(pair[0], '?')}, {labels.get(pair[1], '?')})"

    unknown = [pair for pair in pairs if pair not in arrows]
    if unknown and all((node, child) in arrows for child, node in unknown):
        raise Fail(
            f"{shown(unknown[0])} in trace({root.label}): your pairs run (node, child)"
            f"{line_in(engine.trace, 'edges.')}; an edge is (child, node), the way the arrow runs, from an "
            "ingredient into what is made from it"
        )
    if unknown:
        raise Fail(f"{shown(unknown[0])} in trace({root.label}) is not an arrow of the graph")
    for pair, count in Counter(pairs).items():
        if count > arrows[pair]:
            uses = "once" if arrows[pair] == 1 else f"{arrows[pair]} times"
            raise Fail(
                f"{shown(pair)} is in the edges of trace({root.label}) {count} times, but "
                f"{labels[pair[1]]} uses {labels[pair[0]]} {uses}: one pair per arrow at most"
            )
    missing = [pair for pair in arrows if pair not in set(pairs)]
    if missing:
        raise Fail(
            f"the edges of trace({root.label}) miss {', '.join(map(shown, missing))}: every child of every "
            "node gives an arrow into it"
        )


def _trace_right(engine: Engine, root: Node) -> str:
    expected, arrows = _reached(root)
    nodes, edges = _traced(engine, root)
    _check_nodes(engine, root, nodes, expected)
    _check_edges(engine, root, edges, arrows, {id(node): node.label for node in expected})
    if not arrows:
        return f"trace({root.label}): {root.label} alone, and no arrows"
    return f"trace({root.label}): {len(nodes)} nodes, each once, and all {sum(arrows.values())} arrows"


@EXERCISE.check("d = a·b + c, the chapter's graph")
def _chapter_graph(engine: Engine) -> str:
    a, b, c = _leaf("a", 2.0), _leaf("b", -3.0), _leaf("c", 10.0)
    e = _made("e", "*", a, b)
    return _trace_right(engine, _made("d", "+", e, c))


@EXERCISE.check("y = x·x + x: a value used three times")
def _used_twice(engine: Engine) -> str:
    x = _leaf("x", 3.0)
    return _trace_right(engine, _made("y", "+", _made("x·x", "*", x, x), x))


@EXERCISE.check("a single input, with no children")
def _single_leaf(engine: Engine) -> str:
    return _trace_right(engine, _leaf("w", 0.5))


@EXERCISE.check("random graphs, some values used by several nodes")
def _random_graphs(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(3):
        pool = [_leaf(name, round(rng.uniform(-3, 3), 1)) for name in "abcd"[: rng.randint(2, 4)]]
        for label in "efghijk"[: rng.randint(4, 7)]:
            pool.append(_made(label, rng.choice("+*"), rng.choice(pool), rng.choice(pool[-3:])))
        _trace_right(engine, pool[-1])
    return "three random graphs: every node once, every arrow"
