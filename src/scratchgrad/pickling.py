"""Copying and pickling a graph of Values, at any depth.

By default `pickle` stores each Value inside the record of the Value made from it, one nested
call per level: a `RecursionError` a few hundred levels down. So `reduce_value` (behind
`Value.__reduce_ex__`, used by `pickle` and `copy.deepcopy`) lists every Value below the first one
met, inputs first, ahead of its own record, and the nesting stays one level deep; `shallow_copy`
is `Value.__copy__`. The module imports nothing of `scratchgrad.engine` back: it reads the class
from the Value and is handed the graph's order.

Example:
    >>> import pickle
    >>> from scratchgrad.engine import Value
    >>> x = Value(2.0)
    >>> for _ in range(5000):
    ...     x = x * 1.0
    >>> pickle.loads(pickle.dumps(x)).data
    2.0
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol


class Value(Protocol):
    """What copying and pickling read of a Value (this module imports nothing of the engine)."""

    data: float
    grad: float
    label: str
    _children: tuple[Value, ...]
    _local_grads: tuple[float, ...]
    _op: str


__all__ = ["reduce_value", "shallow_copy"]

# The ids of the Values listed ahead of a record, which are stored without listing
# what is below them again; one set per thread, as two threads may pickle at once.
_pickling = threading.local()


def reduce_value(value: Value, topological_order: Callable[[Value], list[Value]]) -> tuple[Any, ...]:
    """How `pickle` and `copy.deepcopy` rebuild `value` and the graph below it (its ``__reduce_ex__``),
    given the engine's `topological_order`."""
    pending = _pickling.__dict__.setdefault("pending", set())
    record = _record(value)
    if not value._children or id(value) in pending:  # its children are stored already
        pending.discard(id(value))
        return _restored_value, (type(value), (), record)
    below = topological_order(value)
    below.pop()  # value itself, which comes last
    _pickling.pending = {id(v) for v in below}
    return _restored_value, (type(value), (*below, _EndOfGraph()), record)


def shallow_copy(value: Value) -> Value:
    """A new Value with the same data, grad, label and children (its ``__copy__``, for ``copy.copy``)."""
    return _restored_value(type(value), (), _record(value))


def _record(value: Value) -> tuple[Any, ...]:
    """Everything a Value holds, in the order `_restored_value` reads it."""
    return value.data, value.grad, value.label, value._children, value._local_grads, value._op


def _restored_value(cls: type[Value], below: tuple[object, ...], record: tuple[Any, ...]) -> Value:
    """The `cls` of a pickled `record`; `below`, its graph, has been restored already."""
    data, grad, label, children, local_grads, op = record
    value = cls(data, label, children, local_grads, op)
    value.grad = grad
    return value


class _EndOfGraph:
    """Stored after the Values below a record: forgets their ids (those stored before were skipped)."""

    def __reduce__(self) -> tuple[Any, ...]:
        _pickling.__dict__.pop("pending", None)
        return tuple, ()
