"""What makes a list of nodes a topological order, said in the reader's terms: one rule for two
exercises, since topological-order checks the reader's order with it and backward uses it to tell
whether a wrong backward pass comes from the reader's earlier `topological_order`.
"""

from __future__ import annotations

from typing import ClassVar

from scratchgrad.exercises.oracle import children, every_node

__all__ = ["CountedChildren", "order_problem"]


class CountedChildren(tuple):
    """A node's children that count how often they are walked (``for child in node._prev``): the
    checks set them as a node's ``_prev`` to see whether the reader's walk reads each node's children
    once. `scratchgrad.exercises.remote` sends them to the reader process as such, where they count
    that process's walks, and the checks read `walks` there through the node."""

    walks: ClassVar[list[int]] = [0]

    def __iter__(self):
        self.walks[0] += 1
        return super().__iter__()


def order_problem(order: list, root: object, names: dict[int, str]) -> str | None:
    """What is wrong with `order` as a topological order of the graph of `root`, or None.

    `names` gives each node's name by ``id``. The answer reads after "your topological_order":
    "lists x 2 times …", "leaves out …", "lists t1 before x, which t1 was made from …".
    """

    def name(node: object) -> str:
        return names.get(id(node), "?")

    counts: dict[int, int] = {}
    for node in order:
        counts[id(node)] = counts.get(id(node), 0) + 1
    shown = "[" + ", ".join(name(node) for node in order) + "]"
    for node in order:
        if counts[id(node)] > 1:
            times = counts[id(node)]
            return f"returns {shown}: it lists {name(node)} {times} times; every node belongs in it once"
    missing = sorted(name(node) for node in every_node(root) if id(node) not in counts)
    if missing:
        return f"returns {shown}: it leaves out {', '.join(missing)}"
    position = {id(node): i for i, node in enumerate(order)}
    for node in order:
        for child in children(node):
            if position.get(id(child), -1) > position[id(node)]:
                return (
                    f"returns {shown}: it lists {name(node)} before {name(child)}, which {name(node)} was "
                    "made from — every node must come after its children"
                )
    return None
