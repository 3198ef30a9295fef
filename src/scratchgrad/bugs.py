"""Break-it switches: the bugs the story teaches, switched into the package for one run.

A chapter that teaches a bug lets the reader rerun a block with that bug turned on and see the
wrong numbers beside the right ones (a runnable block's ``break=`` option; the page's switch).
`switched_on` swaps one method of the package for its buggy twin while the block runs, and puts
the real one back afterwards, whatever happens:

* ``overwrite``: ``Value.backward`` assigns each share (``=``) where it must add (``+=``);
* ``no-zero-grad``: ``zero_grad()`` of models and optimizers does nothing, so gradients pile up;
* ``recursive``: ``Value.backward`` sorts the graph recursively, one Python call per level;
* ``wrong-order``: ``Value.backward`` visits the inputs first, before their gradients are complete.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scratchgrad import nn, optim
from scratchgrad.engine import Value, topological_order

__all__ = ["BUGS", "Bug", "switched_on"]


def _backward_with_overwrite(self: Value) -> None:
    order = topological_order(self)
    for node in order:
        if node._children:
            node.grad = 0.0
    self.grad = 1.0
    for node in reversed(order):
        for child, local in zip(node._children, node._local_grads, strict=True):
            child.grad = local * node.grad  # the bug: = where += belongs


def _backward_recursive(self: Value) -> None:
    order: list[Value] = []
    visited: set[Value] = set()

    def visit(node: Value) -> None:  # one Python call per level: deep graphs hit the recursion limit
        if node not in visited:
            visited.add(node)
            for child in node._children:
                visit(child)
            order.append(node)

    visit(self)
    _push_gradients(self, reversed(order))


def _backward_in_wrong_order(self: Value) -> None:
    _push_gradients(self, topological_order(self))  # the bug: inputs first, not reversed


def _push_gradients(root: Value, walk: Any) -> None:
    walk = list(walk)
    for node in walk:
        if node._children:
            node.grad = 0.0
    root.grad = 1.0
    for node in walk:
        for child, local in zip(node._children, node._local_grads, strict=True):
            child.grad += local * node.grad


def _zero_grad_forgotten(self: object) -> None:
    """The bug: nothing is reset."""


@dataclass(frozen=True)
class Bug:
    """A bug a switch turns on: its `label` (what the switch says) and the methods it replaces."""

    label: str
    replaces: tuple[tuple[type, str, Any], ...]


BUGS = {
    "overwrite": Bug("Use = instead of += in backward()", ((Value, "backward", _backward_with_overwrite),)),
    "no-zero-grad": Bug(
        "Forget zero_grad() between training steps",
        (
            (nn.Module, "zero_grad", _zero_grad_forgotten),
            (optim.Optimizer, "zero_grad", _zero_grad_forgotten),
        ),
    ),
    "recursive": Bug("Sort the graph recursively in backward()", ((Value, "backward", _backward_recursive),)),
    "wrong-order": Bug(
        "Visit the nodes in the wrong order (inputs first)", ((Value, "backward", _backward_in_wrong_order),)
    ),
}


@contextlib.contextmanager
def switched_on(name: str) -> Iterator[Bug]:
    """While active, the package behaves with bug `name` (a key of `BUGS`)."""
    if name not in BUGS:
        raise ValueError(f"unknown bug {name!r}: the switches are {', '.join(BUGS)}")
    bug = BUGS[name]
    kept = [(owner, attribute, owner.__dict__[attribute]) for owner, attribute, _ in bug.replaces]
    try:
        for owner, attribute, buggy in bug.replaces:
            setattr(owner, attribute, buggy)
        yield bug
    finally:
        for owner, attribute, real in kept:
            setattr(owner, attribute, real)
