"""Automating backward, part 1: an order that lists every node after the nodes it was made from."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import children, every_node

EXERCISE = Exercise.load(__name__)


def _labelled(engine: Engine, **data: float) -> dict:
    return {name: engine.Value(value, label=name) for name, value in data.items()}


def _require_order(engine: Engine, root: object, what: str) -> list:
    order = engine.topological_order(root)
    try:
        order = list(order)
    except TypeError:
        raise Fail(
            f"topological_order({what}) should return a list of Values; yours returned {order!r}"
        ) from None
    label = {id(node): getattr(node, "label", "") or "?" for node in every_node(root)}
    counts: dict[int, int] = {}
    for node in order:
        counts[id(node)] = counts.get(id(node), 0) + 1
    for node_id, count in counts.items():
        if count > 1:
            raise Fail(
                f"your order for {what} lists {label.get(node_id, '?')} {count} times; every node "
                "belongs in it once"
            )
    missing = [name for node_id, name in label.items() if node_id not in counts]
    if missing:
        raise Fail(f"your order for {what} leaves out {', '.join(sorted(missing))}")
    position = {id(node): i for i, node in enumerate(order)}
    for node in order:
        for child in children(node):
            if position[id(child)] > position[id(node)]:
                raise Fail(
                    f"your order lists {label[id(node)]} before {label[id(child)]}, which "
                    f"{label[id(node)]} was made from: every node must come after its children"
                )
    return order


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


@EXERCISE.check("the output comes last, an input alone is its own order")
def _ends(engine: Engine) -> str:
    v = _labelled(engine, p=1.0, q=2.0)
    out = v["p"] * v["q"] + v["p"]
    out.label = "out"
    order = _require_order(engine, out, "out")
    if order[-1] is not out:
        raise Fail(f"the output should come last; yours ends with {getattr(order[-1], 'label', '?')}")
    alone = _require_order(engine, v["q"], "an input q")
    if len(alone) != 1:
        raise Fail(f"an input's order is just [q]; yours has {len(alone)} entries")
    return "out is last; an input's order is [q]"
