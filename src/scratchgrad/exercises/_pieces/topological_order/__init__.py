"""Automating backward, part 1: an order that lists every node after the nodes it was made from."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import REUSED_NODE_GRAPHS, RandomGraph
from scratchgrad.exercises.oracle import Builder, every_node
from scratchgrad.exercises.order import CountedChildren, order_problem

EXERCISE = Exercise.load(__name__)


def _labelled(engine: Engine, **data: float) -> dict:
    return {name: engine.Value(value, label=name) for name, value in data.items()}


def _require_order(engine: Engine, root: object, what: str, names: dict[int, str] | None = None) -> list:
    if names is None:
        names = {id(node): getattr(node, "label", "") or "?" for node in every_node(root)}
    before = [(node, list(getattr(node, "_prev", ()) or ())) for node in every_node(root)]
    order = engine.topological_order(root)
    try:
        order = list(order)
    except TypeError:
        raise Fail(
            f"topological_order({what}) should return a list of Values; yours returned {order!r}"
        ) from None
    if any(list(getattr(node, "_prev", ()) or ()) != prev for node, prev in before):
        raise Fail(f"topological_order({what}) changed the graph's _prev: it should only read the graph")
    problem = order_problem(order, root, names)
    if problem:
        raise Fail(f"for {what}, your topological_order {problem}")
    return order


def _require_built(engine: Engine, build: Builder, what: str) -> str:
    nodes = build(engine.Value)
    names = {id(node): name for name, node in nodes.items()}
    order = _require_order(engine, list(nodes.values())[-1], what, names)
    return " → ".join(names[id(node)] for node in order)


@EXERCISE.check("L = (a·b + c)·f: each node after its children")
def _chapter_graph(engine: Engine) -> str:
    v = _labelled(engine, a=2.0, b=-3.0, c=10.0, f=-2.0)
    e = v["a"] * v["b"]
    e.label = "e"
    d = e + v["c"]
    d.label = "d"
    L = d * v["f"]  # noqa: N806
    L.label = "L"
    order = _require_order(engine, L, "L")
    return " → ".join(node.label for node in order)


@EXERCISE.check("y = x·x + x: x is listed once")
def _reused(engine: Engine) -> str:
    x = engine.Value(3.0, label="x")
    squared = x * x
    squared.label = "x·x"
    y = squared + x
    y.label = "y"
    order = _require_order(engine, y, "y")
    return " → ".join(node.label for node in order)


@EXERCISE.check("diamonds, a + a, and nodes reached by paths of different lengths")
def _harder_graphs(engine: Engine) -> str:
    return [_require_built(engine, *graph) for graph in REUSED_NODE_GRAPHS][-1]  # every one; the last shown


@EXERCISE.check("the output comes last, an input alone is its own order")
def _ends(engine: Engine) -> str:
    v = _labelled(engine, p=1.0, q=2.0)
    product = v["p"] * v["q"]
    product.label = "p·q"
    out = product + v["p"]
    out.label = "out"
    order = _require_order(engine, out, "out")
    if order[-1] is not out:
        raise Fail(f"the output should come last; yours ends with {getattr(order[-1], 'label', '?')}")
    alone = _require_order(engine, v["q"], "an input q")
    if len(alone) != 1:
        raise Fail(f"an input's order is just [q]; yours has {len(alone)} entries")
    return "out is last; an input's order is [q]"


@EXERCISE.check("five random graphs, nodes used twice and reached by paths of different lengths")
def _random_graphs(engine: Engine) -> str:
    sizes = []
    for _ in range(5):
        graph = RandomGraph.draw(engine.rng, steps=engine.rng.randint(4, 9))
        _require_built(engine, graph, f"y in the graph {graph}")
        sizes.append(len(graph.inputs) + len(graph.steps))
    return f"every order right, on graphs of {', '.join(map(str, sizes))} nodes"


@EXERCISE.check("12 diamonds in a row: each node's children read a few times, not once per path")
def _each_node_once(engine: Engine) -> str:
    # a(k+1) = 2·a(k) + 3·a(k): a(0) is reached by 2¹² paths. A walk that marks a node only after
    # reading its children reads them again for every path (4,096 times for a(0)); a marked walk once.
    V = engine.Value  # noqa: N806
    nodes = [V(1.0, label="a0")]
    for k in range(12):
        nodes.append(nodes[-1] * V(2.0) + nodes[-1] * V(3.0))  # value-graph's Value takes no plain 2
        nodes[-1].label = f"a{k + 1}"
    every = list(every_node(nodes[-1]))
    try:
        for node in every:
            node._prev = CountedChildren(getattr(node, "_prev", ()) or ())
    except AttributeError:  # a Value that will not take a counted _prev: nothing to count
        return "not counted: your Value's _prev cannot be replaced"
    before = _walks(every[0])
    engine.topological_order(nodes[-1])
    walks = _walks(every[0]) - before  # by the reader's walk alone; then the order is checked
    order = _require_order(engine, nodes[-1], "a12")
    if walks > 4 * len(every):
        raise Fail(
            f"for a12 = 2·a11 + 3·a11 (and so on down to a0, {len(every)} nodes), your topological_order "
            f"read the nodes' children {walks} times: once for every path to a node, 4,096 for a0. Mark a "
            "node as visited when you first reach it, before its children, and skip it after"
        )
    return f"{len(order)} nodes, their children read {walks} times"


def _walks(node: object) -> int:
    """How often the children of every node are walked so far, read where the reader's Values are
    (through `node`'s counted children), or 0 when the reader's Value kept no `CountedChildren`."""
    walks = getattr(getattr(node, "_prev", None), "walks", None)
    return walks[0] if isinstance(walks, list) and walks and isinstance(walks[0], int) else 0
