"""Copying and pickling a graph of Values, at any depth.

`Value.__reduce_ex__` calls `reduce_value` (used by `pickle`, every protocol, and by
`copy.deepcopy`) and `Value.__copy__` is `shallow_copy`. They live here so that
`scratchgrad.engine` holds the mathematics only; this module imports nothing of it back:
what it needs of a Value's class it reads from the Value (`type(value)`), and the order of
the graph below it is handed in.

By default `pickle` would store each Value inside the record of the Value made from it:
one nested call per level of the graph, a `RecursionError` a few hundred levels down.
So the first Value met lists every Value below it, inputs first, ahead of its own
record; each of those is stored when its children already are, and the nesting stays
one level deep at any depth.

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
