"""Freeing a deep graph where the stack is small: what keeps Pyodide alive.

Dropping a graph's output frees its children, which free theirs, one C call inside the other as
deep as the graph: harmless on a native stack (CPython's "trashcan" defers the deepest levels),
but inside Pyodide a chain of a few thousand Values overflows the WebAssembly stack with a fatal
``RangeError`` that ends the interpreter. There `scratchgrad.engine` makes `release_iteratively`
the ``__del__`` of `Value`: each node hands its children to a queue that only the outermost
release drains, so the nesting stays one level deep; elsewhere `Value` has no ``__del__``, as a
finaliser costs every node a Python call (`benchmarks/README.md`).
"""

from __future__ import annotations

import sys
from typing import Protocol


class _Node(Protocol):
    """What freeing needs of a Value: its children (this module imports nothing of the engine)."""

    _children: tuple[_Node, ...]


__all__ = ["STACK_IS_SMALL", "release_iteratively"]

STACK_IS_SMALL = sys.platform in ("emscripten", "wasi")
"""True inside WebAssembly (Pyodide), where freeing a deep graph must not nest."""

_queue: list[tuple[_Node, ...]] = []
_draining = False


def release_iteratively(node: _Node) -> None:
    """Free `node`'s children from a queue instead of inside `node`'s own release (its ``__del__``)."""
    global _draining
    try:
        children = node._children
    except AttributeError:  # __init__ rejected its data before recording any children
        return
    if not children:
        return
    node._children = ()
    _queue.append(children)
    del children  # the queue must hold the only reference, or the tuple dies at return, one level deeper
    if _draining:
        return
    _draining = True
    try:
        while _queue:
            _queue.pop()
    finally:
        _draining = False
