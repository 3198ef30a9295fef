"""Break-it switches: the bugs the story teaches, switched into the engine for one run of a block.

A chapter that teaches a bug lets the reader rerun a block with it turned on (a block's
``break=`` option) and see the wrong numbers beside the right ones. `switched_on` puts each `Bug`
in for the run and the real code back afterwards, whatever happens: on the package's `Value`
through the engine's one hook (`scratchgrad.engine.backward_stood_in_for`); on the story's stages
through their module's names, which blocks import and the stage's code looks up as it runs (its
``Value``, swapped for the buggy twin `scratchgrad.stages.overwrite_bug`; the order its
``backward`` walks); on a reader's own engine by writing the bug into their code or through a name
their code looks up (`switched_on_yours`). No class is patched. `BUGS` lists them, each with what
it does in the reader's terms.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from scratchgrad.engine import Value, backward_stood_in_for, topological_order
from scratchgrad.graph import graph_nodes
from scratchgrad.stages import closures, overwrite_bug

__all__ = ["BUGS", "Bug", "switched_on", "switched_on_yours"]


def _backward_with_overwrite(self: Value, watch: Callable[[Value], object] | None = None) -> None:
    order = topological_order(self)
    for node in order:
        if node._children:
            node.grad = 0.0
    self.grad = 1.0
    for node in reversed(order):
        if watch is not None:
            watch(node)
        for child, local in zip(node._children, node._local_grads, strict=True):
            child.grad = local * node.grad  # the bug: = where += belongs


def _backward_recursive(self: Value, watch: Callable[[Value], object] | None = None) -> None:
    order: list[Value] = []
    visited: set[Value] = set()

    def visit(node: Value) -> None:  # one Python call per level: deep graphs hit the recursion limit
        if node not in visited:
            visited.add(node)
            for child in node._children:
                visit(child)
            order.append(node)

    visit(self)
    _push_gradients(self, reversed(order), watch)


def _backward_in_wrong_order(self: Value, watch: Callable[[Value], object] | None = None) -> None:
    _push_gradients(self, _reached_first(self), watch)


def _order_walked_from_the_output(root: Any) -> list[Any]:
    """The wrong-order bug where a backward walks a topological order reversed (the closure stage's,
    a reader's): an "order" whose reverse is `_reached_first`'s walk from the output."""
    return _reached_first(root)[::-1]


def _reached_first(root: Any) -> list[Any]:
    """The bug: every node in the order a depth-first walk from `root` first reaches it (a stack of
    the nodes still to visit), which puts a node before the nodes that use it only by luck.

    Children come in the drawing's order (`scratchgrad.graph.graph_nodes`): a stage's set of
    children is sorted by label and data, so the walk, and its wrong numbers, are the same on
    every run.
    """
    nodes = graph_nodes(root, max_nodes=sys.maxsize)
    order, reached, to_visit = [], set(), [len(nodes) - 1]
    while to_visit:
        index = to_visit.pop()
        if index not in reached:
            reached.add(index)
            order.append(nodes[index].value)
            to_visit.extend(nodes[index].children)
    return order


def _push_gradients(root: Value, walk: Any, watch: Callable[[Value], object] | None = None) -> None:
    walk = list(walk)
    for node in walk:
        if node._children:
            node.grad = 0.0
    root.grad += 1.0  # 0 + 1 for an output; a leaf called on its own accumulates, as the engine's
    for node in walk:
        if watch is not None:
            watch(node)
        for child, local in zip(node._children, node._local_grads, strict=True):
            child.grad += local * node.grad


class _GradientsNeverZeroed:
    """The no-zero-grad bug as a backward: gradients pile up from step to step as if ``zero_grad()``
    did nothing, through the engine's hook rather than by replacing ``zero_grad`` (whose code the
    Training page shows).

    Before each pass, every leaf (a parameter, an input) that held a gradient after this run's
    previous passes and has since been set to 0 gets that gradient back; then the engine's own
    ``backward()`` adds this pass's shares, exactly as it would have to a gradient nobody zeroed.
    One per run of a block (`switched_on`), so nothing carries over from one run to the next.
    """

    def __init__(self) -> None:
        self.left: dict[Value, float] = {}  # each leaf's gradient after the latest pass

    def __call__(self, root: Value, watch: Callable[[Value], object] | None = None) -> None:
        for leaf, grad in self.left.items():
            if leaf.grad == 0.0:  # set back to 0 since (by zero_grad): the bug forgets to
                leaf.grad = grad
        with backward_stood_in_for(None):
            root.backward(watch)
        leaves = [node for node in topological_order(root) if not node._children]
        self.left = {leaf: leaf.grad for leaf in (*self.left, *leaves)}


@dataclass(frozen=True)
class Bug:
    """A bug a switch turns on: its `label` (what the switch says); `replaces`, (owner, name, buggy)
    triples: names of the story's stage modules it stands in for; the `backward` the package's
    Values run instead (through the engine's one hook, `scratchgrad.engine.backward_stood_in_for`),
    or a class of them, one made for each run, for a bug that remembers earlier passes; and how it
    reaches a reader's own engine
    (`scratchgrad.page.reader_engine`), if it can: `rewrites`, (regular expression, replacement)
    pairs that write it into the reader's code, or `yours_replaces`, (name, buggy) pairs that stand
    in, for the run, for names of the reader's engine their code looks up as it runs (so Values
    made above the block have the bug too)."""

    label: str
    replaces: tuple[tuple[Any, str, Any], ...] = ()
    backward: Callable[..., None] | type | None = None
    rewrites: tuple[tuple[str, str], ...] = ()
    yours_replaces: tuple[tuple[str, Any], ...] = ()

    def rewrite(self, source: str) -> str:
        """`source` (a reader's code) with the bug written in."""
        for pattern, replacement in self.rewrites:
            source = re.sub(pattern, replacement, source)
        return source


BUGS = {
    # Each share assigned (=) where it must be added (+=). The closure stage adds inside each op's
    # closure, so its Value becomes the stage the story gives that bug; a reader's code is rewritten.
    "overwrite": Bug(
        "Use = instead of += in backward()",
        ((closures, "Value", overwrite_bug.Value),),
        backward=_backward_with_overwrite,
        rewrites=((r"\.grad\s*\+=", ".grad ="),),
    ),
    # Gradients pile up from step to step, as if zero_grad() of models and optimizers did nothing.
    "no-zero-grad": Bug("Forget zero_grad() between training steps", backward=_GradientsNeverZeroed),
    # The sort recurses, one Python call per level (the closure stage's backward already does).
    "recursive": Bug("Sort the graph recursively in backward()", backward=_backward_recursive),
    # Each node visited as soon as a depth-first walk from the output reaches it, before every node
    # that uses it has sent its share: on "Why the order matters" (L = d·e, d = e + c, e = a·b) the
    # walk visits L, then e with L's share alone, then d, so a and b get −12 and 8, not 6 and −4.
    # The closure stage's backward and a reader's (the exercise "backward": reversed(topological_order
    # (self))) look their order up by name each time they run: the bug stands in for that name.
    "wrong-order": Bug(
        "Walk from the output, not in topological order",
        ((closures, "topological_order_recursive", _order_walked_from_the_output),),
        backward=_backward_in_wrong_order,
        yours_replaces=(("topological_order", _order_walked_from_the_output),),
    ),
}


@contextlib.contextmanager
def switched_on(name: str) -> Iterator[Bug]:
    """While active, the package behaves with bug `name` (a key of `BUGS`)."""
    if name not in BUGS:
        raise ValueError(f"unknown bug {name!r}: the switches are {', '.join(BUGS)}")
    bug = BUGS[name]
    kept = [(owner, attribute, owner.__dict__[attribute]) for owner, attribute, _ in bug.replaces]
    walk = bug.backward() if isinstance(bug.backward, type) else bug.backward
    try:
        for owner, attribute, buggy in bug.replaces:
            setattr(owner, attribute, buggy)
        with backward_stood_in_for(walk) if walk else contextlib.nullcontext():
            yield bug
    finally:
        for owner, attribute, real in kept:
            setattr(owner, attribute, real)


@contextlib.contextmanager
def switched_on_yours(name: str, engines: list[dict[str, Any]]) -> Iterator[None]:
    """While active, the reader's `engines` (the namespace of each stage's stand-in: the names their
    code looks up as it runs) have bug `name`, if it can reach them (`Bug.yours_replaces`); put back
    afterwards, whatever happens."""
    kept = [
        (engine, attribute, engine.get(attribute, _MISSING))
        for engine in engines
        for attribute, _ in BUGS[name].yours_replaces
    ]
    try:
        for engine in engines:
            for attribute, buggy in BUGS[name].yours_replaces:
                engine[attribute] = buggy
        yield
    finally:
        for engine, attribute, real in reversed(kept):
            if real is _MISSING:
                del engine[attribute]
            else:
                engine[attribute] = real


_MISSING = object()
