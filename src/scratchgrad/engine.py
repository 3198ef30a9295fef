"""The scalar autograd engine: a `Value` that remembers how it was made.

Every operation on a `Value` returns a new `Value` keeping its `data` (computed on the way
forward), its `_children` (the Values it was made from) and its `_local_grads` (for each child,
the derivative of this node with respect to it, at the forward values); `backward()` walks the
graph from the output back to the inputs and applies the chain rule once per edge, ``child.grad
+= local * node.grad``. The chapters teach that walk as `backward_in_topological_order`;
`Value.backward` gives the same gradients faster. Why local derivatives are numbers rather than
micrograd's closures, why the walk is iterative, and how a pass skips what no gradient reaches:
ARCHITECTURE.md, "The engine's design".
"""

from __future__ import annotations

import math
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import chain
from numbers import Real
from typing import SupportsIndex

from scratchgrad import freeing, pickling

__all__ = [
    "Value",
    "backward_in_topological_order",
    "backward_stand_in",
    "backward_stood_in_for",
    "sigmoid",
    "topological_order",
]

Number = int | float


class Value:
    """A scalar that records the operations applied to it.

    Example:
        >>> a, b = Value(2.0, label="a"), Value(-3.0, label="b")
        >>> d = a * b + 10
        >>> d.backward()
        >>> a.grad, b.grad
        (-3.0, 2.0)
    """

    __slots__ = ("data", "grad", "label", "_children", "_local_grads", "_op")

    def __init__(
        self,
        data: Number,
        label: str = "",
        _children: tuple[Value, ...] = (),
        _local_grads: tuple[float, ...] = (),
        _op: str = "",
    ) -> None:
        if type(data) is not float:
            data = _as_float(data)
        if type(label) is not str:
            _refuse_label(label)
        if len(_children) != len(_local_grads):
            _refuse_local_grads(_children, _local_grads)
        if _local_grads:
            # The sum is inf or NaN when any term is (or when the terms overflow: a false alarm).
            try:
                total = sum(_local_grads)
            except TypeError:
                _refuse_local_grads_that_are_not_numbers(_local_grads)
            if total - total != 0.0:
                _local_grads = NonFiniteLocalGrads(_local_grads)
                _op = _marked_non_finite(_op)
        self.data = data
        self.grad = 0.0
        self.label = label
        self._children = _children
        self._local_grads = _local_grads
        self._op = _op

    def __repr__(self) -> str:
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

    @property
    def children(self) -> tuple[Value, ...]:
        """The Values this one was computed from (empty for an input)."""
        return self._children

    @property
    def op(self) -> str:
        """The operation that produced this Value (``""`` for an input)."""
        return self._op

    @property
    def _prev(self) -> tuple[Value, ...]:
        """`children` under micrograd's name, read-only, so drawing code written for micrograd runs."""
        return self._children

    # -- operations: forward value, then the local derivative of each child --

    # --8<-- [start:value_add]
    def __add__(self, other: Value | Number) -> Value:
        """a + b.  d/da = 1, d/db = 1."""
        if isinstance(other, Value):
            return Value(self.data + other.data, "", (self, other), (1.0, 1.0), "+")
        c = _operand(other, "+")
        return Value(self.data + c, "", (self,), (1.0,), _label(f"+ {c:g}"))

    # --8<-- [end:value_add]

    # --8<-- [start:value_mul]
    def __mul__(self, other: Value | Number) -> Value:
        """a * b.  d/da = b, d/db = a."""
        if isinstance(other, Value):
            return Value(self.data * other.data, "", (self, other), (other.data, self.data), "*")
        c = _operand(other, "*")
        return Value(self.data * c, "", (self,), (c,), _label(f"* {c:g}"))

    # --8<-- [end:value_mul]

    # --8<-- [start:value_pow]
    def __pow__(self, exponent: Value | Number) -> Value:
        """a ** k.  d/da = k * a**(k-1); for a Value exponent also d/dk = a**k * ln a."""
        if isinstance(exponent, Value):
            return _power_of_values(self, exponent)
        k = _operand(exponent, "**")
        x = self.data
        if x == 0 and k < 0:
            raise ZeroDivisionError(f"0 ** {k:g}: zero cannot be raised to a negative power")
        if x < 0 and not k.is_integer():
            raise ValueError(f"{x:g} ** {k:g}: a negative base needs a whole-number exponent")
        return Value(_power(x, k), "", (self,), (_power_derivative(x, k),), _label(f"**{k:g}"))

    # --8<-- [end:value_pow]

    # --8<-- [start:value_exp]
    def exp(self) -> Value:
        """exp a.  d/da = exp a (an exp is its own derivative)."""
        e = _exp(self.data)
        return Value(e, "", (self,), (e,), "exp")

    # --8<-- [end:value_exp]

    # --8<-- [start:value_log]
    def log(self) -> Value:
        """ln a, for a > 0.  d/da = 1/a."""
        x = self.data
        if x <= 0:
            raise ValueError(f"log({x:g}): the logarithm needs a positive number")
        return Value(math.log(x), "", (self,), (1.0 / x,), "log")

    # --8<-- [end:value_log]

    # --8<-- [start:value_tanh]
    def tanh(self) -> Value:
        """tanh a.  d/da = 1 - tanh(a)**2."""
        t = math.tanh(self.data)
        return Value(t, "", (self,), (1.0 - t * t,), "tanh")

    # --8<-- [end:value_tanh]

    # --8<-- [start:value_sigmoid]
    def sigmoid(self) -> Value:
        """σ(a) = 1 / (1 + exp(-a)).  d/da = σ(a) * (1 - σ(a))."""
        s = sigmoid(self.data)
        return Value(s, "", (self,), (s * (1.0 - s),), "sigmoid")

    # --8<-- [end:value_sigmoid]

    # --8<-- [start:value_relu]
    def relu(self) -> Value:
        """max(0, a).  d/da = 1 where a > 0, else 0; NaN stays NaN, with d/da = 1 (as in PyTorch)."""
        x = self.data
        if x > 0 or x != x:  # x != x only for NaN: a diverged run must not look like a quiet ReLU
            return Value(x, "", (self,), (1.0,), "relu")
        return Value(0.0 if x < 0 else x, "", (self,), (0.0,), "relu")  # keeps the sign of -0.0

    # --8<-- [end:value_relu]

    # -- built from the operations above ------------------------------------

    # --8<-- [start:composed]
    def __neg__(self) -> Value:  # -self
        return self * -1.0

    def __sub__(self, other: Value | Number) -> Value:  # self - other
        return self + (-other if isinstance(other, Value) else -_operand(other, "-"))

    def __truediv__(self, other: Value | Number) -> Value:  # self / other
        if isinstance(other, Value):
            if other.data == 0:
                raise ZeroDivisionError(f"{self.data:g} / 0: division by a Value that is zero")
            return self * other**-1
        if _operand(other, "/") == 0:
            raise ZeroDivisionError(f"{self.data:g} / 0: division by zero")
        return self * (1.0 / other)

    def __radd__(self, other: Number) -> Value:  # other + self
        return self + other

    def __rmul__(self, other: Number) -> Value:  # other * self
        return self * other

    def __rsub__(self, other: Number) -> Value:  # other - self
        return (-self) + _operand(other, "-")

    def __rtruediv__(self, other: Number) -> Value:  # other / self
        c = _operand(other, "/")
        if self.data == 0:
            raise ZeroDivisionError(f"{c:g} / 0: division by a Value that is zero")
        return self**-1 * c

    # --8<-- [end:composed]

    # --8<-- [start:value_rpow]
    def __rpow__(self, base: Number) -> Value:
        """r ** a for a plain number r > 0.  d/da = r**a * ln r."""
        r = _operand(base, "**")
        if r <= 0:
            raise ValueError(f"{r:g} ** Value({self.data:g}): a Value exponent needs a positive base")
        out = _power(r, self.data)
        return Value(out, "", (self,), (out * math.log(r),), _label(f"{r:g}**"))

    # --8<-- [end:value_rpow]

    # -- backpropagation -----------------------------------------------------

    def backward(self, watch: Callable[[Value], object] | None = None) -> None:
        """Add d(self)/d(leaf) to the ``.grad`` of every leaf this Value depends on.

        A leaf (an input or a parameter, a Value with no children) accumulates: each call adds
        this pass's shares to what it held, so ``zero_grad()`` before a call repeats a result.
        Every Value in between gets its gradient afresh, 0 plus exactly this pass's shares (one
        only a ReLU that is off leads to, and that no pass gave a gradient, keeps what was written
        into it by hand), and ``self.grad`` becomes 1, the seed; these are PyTorch's rules, and the
        gradients are those of `backward_in_topological_order`, the walk the chapters teach.
        `watch`, if given, is called with each node as the walk reaches it, before it passes its
        gradient on: the one way to watch a pass ("Step through backward" does).
        """
        # Faster than the taught walk, same result: the sort does not explore below a node whose
        # local derivatives are all 0 (a ReLU that is off), since only zeros pass through it.
        # What lies only below such nodes is looked at while a marked Value is alive (`_MarkedOp`):
        # a gradient an earlier pass left there is set back to 0, and a non-finite local
        # derivative (0 times inf is NaN), like an inf/NaN gradient reaching such a node, sends the
        # pass over the whole graph (`_walk`). Each Value in between it reaches gets its mark.
        stand_in = _BACKWARD_STAND_IN.get()
        if stand_in is not None:  # a break-it switch of the tutorial (`backward_stood_in_for`)
            try:
                stand_in(self, watch)
            finally:
                _mark_in_between(topological_order(self), _MarkedOps())  # it may have written any
            return
        order, closed = _order_for_backward(self, prune=True)
        if closed and _MARKED and _reset_below(closed, order):
            order, closed = _order_for_backward(self)
        marked = _MarkedOps()
        for node in order:
            if node._children:
                node.grad = 0.0
                node._op = marked[node._op]
        self.grad += 1.0  # 0 + 1 for an output; a leaf called on its own accumulates, as in PyTorch
        stopped = _walk(reversed(order), watch, stop_at_closed=bool(closed))
        if stopped is not None:  # the rest of the graph, each Value in between from 0 as it is reached
            walked, reset = set(order[order.index(stopped) + 1 :]), set(order)
            rest = [node for node in reversed(_order_for_backward(self)[0]) if node not in walked]
            _mark_in_between([node for node in rest if node not in reset], marked, reset=True)
            _walk(rest, watch)

    # -- copying and pickling (`scratchgrad.pickling`): at any depth, as is backward ----

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[object, ...]:
        return pickling.reduce_value(self, topological_order)

    __copy__ = pickling.shallow_copy


# Freeing a deep graph must not nest one call per level where the stack is small (Pyodide).
if freeing.STACK_IS_SMALL:
    Value.__del__ = freeing.release_iteratively


# --8<-- [start:topological_order]
def topological_order(root: Value) -> list[Value]:
    """Every Value `root` depends on, each listed after all of its children.

    Depth-first search: go down into the first child not seen yet; when a
    node has no unseen children left, it is finished and joins the order.
    Two stacks replace the recursive call: the path of nodes being explored
    and, beside each, an iterator over its children not yet looked at. So the
    depth of a graph is limited by memory, not by the recursion limit.
    """
    order: list[Value] = []
    visited = {root}
    path = [root]
    unexplored = [iter(root._children)]
    while path:
        for child in unexplored[-1]:
            if child not in visited:
                visited.add(child)
                path.append(child)
                unexplored.append(iter(child._children))
                break
        else:
            unexplored.pop()
            order.append(path.pop())
    return order


# --8<-- [end:topological_order]


# --8<-- [start:value_backward]
def backward_in_topological_order(root: Value) -> None:
    """``root.backward()`` as the chapters teach it: sort the whole graph, then walk every edge.

    Every Value in between (one with children) starts the pass at 0; the root
    gets its seed, 1; then, each node before the Values it was made from, the
    chain rule pushes its gradient to each child, ``child.grad += local *
    node.grad``. A leaf's gradient accumulates from pass to pass.
    `Value.backward` gives the same gradients without looking where none flows.
    """
    order = topological_order(root)
    for node in order:
        if node._children:
            node.grad = 0.0
    root.grad += 1.0  # 0 + 1 for an output; a leaf called on its own accumulates, as in PyTorch
    for node in reversed(order):
        for child, local in zip(node._children, node._local_grads, strict=False):  # paired by __init__
            child.grad += local * node.grad


# --8<-- [end:value_backward]


def _order_for_backward(root: Value, prune: bool = False) -> tuple[list[Value], list[Value]]:
    """`topological_order(root)`, the same list, found with one stack; and the nodes it closed.

    With `prune`, the children of a node whose local derivatives are all zero are not explored
    (unless another node leads to them): the list then holds only what a gradient can reach,
    and the second list names those *closed* nodes. Without it, that list is empty.

    Two to four times faster on a long chain than the two stacks above, and lighter:
    no iterator per level. Each node is *opened* the first time it is popped: it goes
    back on the stack under a `_FINISHED` marker, with its unopened children on top,
    the first child last so that it comes off first, as in the recursive search. When
    the marker comes off again, everything above it is done, so the node below it is
    finished and joins the order. A child pushed twice before it was opened comes off
    the second time already finished, and is skipped.
    """
    order: list[Value] = []
    closed: list[Value] = []
    opened: set[Value] = set()
    stack: list[Value | None] = [root]
    # The list methods, looked up once: this loop runs once per node and once per edge.
    pop, push, finish, open_ = stack.pop, stack.append, order.append, opened.add
    while stack:
        node = pop()
        if node is _FINISHED:
            finish(pop())
        elif node not in opened:
            open_(node)
            push(node)
            push(_FINISHED)
            local_grads = node._local_grads
            if prune and local_grads and not local_grads[0] and not any(local_grads):
                closed.append(node)  # nothing passes through it: nothing below needs sorting for its sake
                continue
            for child in reversed(node._children):
                if child not in opened:
                    push(child)
    return order, closed


def _reset_below(closed: list[Value], order: list[Value]) -> bool:
    """Set to 0 the gradient of every marked Value in between that only `closed` nodes lead to
    (an earlier pass gave it one); and say whether one of them has a local derivative that is not
    finite (made a `NonFiniteLocalGrads`).

    Those Values get no share of this pass (only zeros pass through a closed node), so the
    taught walk leaves them at 0: so must `backward()`, whatever an earlier pass gave them. A
    zero share times an infinite local derivative is NaN, though, which the walk must pass on.
    `backward()` looks only while a marked Value is alive (`_MARKED`): else there is nothing to find.
    """
    seen = set(order)
    below = set(chain.from_iterable(node._children for node in closed)) - seen
    non_finite = False
    while below:  # one level at a time, with set operations: the edges are many, the Values in between fewer
        seen |= below
        in_between = [node for node in below if node._children]
        for node in in_between:
            if type(node._op) is _MarkedOp:
                node.grad = 0.0
            if type(node._local_grads) is NonFiniteLocalGrads:
                non_finite = True
        below = set(chain.from_iterable(node._children for node in in_between)) - seen
    return non_finite


def _walk(
    nodes: Iterable[Value], watch: Callable[[Value], object] | None, stop_at_closed: bool = False
) -> Value | None:
    """The chain rule, node by node in `nodes` (each before the Values it was made from): add
    each share ``local * node.grad`` to its child's gradient. Returns the closed node at which
    it stopped, if `stop_at_closed` and one received an infinite or NaN gradient after all."""
    for node in nodes:
        grad, local_grads = node.grad, node._local_grads
        if not local_grads or ((grad == 0.0 or not local_grads[0]) and _shares_are_zero(grad, local_grads)):
            if watch is not None:
                watch(node)
            continue  # a leaf, or every share is 0 (no gradient reached it, say): nothing to add
        if stop_at_closed and not local_grads[0] and not any(local_grads):
            return node  # its shares are NaN: the part of the graph its sort left out needs them
        if watch is not None:
            watch(node)
        for child, local in zip(node._children, local_grads, strict=False):  # paired by __init__
            child.grad += local * grad
    return None


_BACKWARD_STAND_IN: ContextVar[Callable[..., object] | None] = ContextVar(
    "scratchgrad_backward_stand_in", default=None
)


@contextmanager
def backward_stood_in_for(walk: Callable[..., object] | None) -> Iterator[None]:
    """While active, in this thread or task only, ``Value.backward(watch)`` runs ``walk(value, watch)``
    instead: the one hook through which the tutorial's break-it switches (`scratchgrad.page.break_it`)
    show a buggy backward on the package's Values (`walk` calls `watch` as it visits each node, and
    `backward_stand_in` names it while it stands in; None runs the real one, for a stand-in that
    wraps it). Leaving puts back what ran before."""
    token = _BACKWARD_STAND_IN.set(walk)
    try:
        yield
    finally:
        _BACKWARD_STAND_IN.reset(token)


def backward_stand_in() -> Callable[..., object] | None:
    """The walk standing in for ``Value.backward()`` here (`backward_stood_in_for`), or None."""
    return _BACKWARD_STAND_IN.get()


_FINISHED = None
"""On `_order_for_backward`'s stack: the node below this marker has nothing left to explore."""


class _MarkedOp(str):
    """The op text of a Value in between that a pass gave a gradient, or of a Value with an infinite
    or NaN local derivative: what a pass must find below a ReLU that is off. A string like any
    other (``"+"``, ``"relu"``) that also says so, in the slot the op already has, so a Value grows
    no bigger. While none is alive (`_MARKED`), a pass need not look there; a copy gets its own."""

    def __reduce__(self) -> tuple[Callable[[str], _MarkedOp], tuple[str]]:
        return _new_marked_op, (str(self),)


_MARKED: weakref.WeakValueDictionary[int, _MarkedOp] = weakref.WeakValueDictionary()
"""The marked op texts some Value holds, by id (two marks of one text are equal strings): empty
once every marked Value is gone (as after a training step, whose graph is dropped)."""


def _new_marked_op(op: str) -> _MarkedOp:
    marked = _MarkedOp(op)
    _MARKED[id(marked)] = marked
    return marked


class _MarkedOps(dict):
    """One pass's marked op texts, one per op: ``marked[node._op]`` is the op of `node`, marked."""

    def __missing__(self, op: str) -> _MarkedOp:
        marked = self[op] = _new_marked_op(op)
        return marked


_NON_FINITE: weakref.WeakValueDictionary[str, _MarkedOp] = weakref.WeakValueDictionary()
"""The marked op texts of Values with a non-finite local derivative, shared while one is alive."""


def _marked_non_finite(op: str) -> _MarkedOp:
    marked = _NON_FINITE.get(op)
    if marked is None:
        marked = _NON_FINITE[op] = _new_marked_op(op)
    return marked


def _mark_in_between(nodes: Iterable[Value], marked: _MarkedOps, reset: bool = False) -> None:
    """Mark the op of every Value in between among `nodes` as given a gradient by the pass of
    `marked` (and, with `reset`, set that gradient to 0 first)."""
    for node in nodes:
        if node._children:
            node._op = marked[node._op]
            if reset:
                node.grad = 0.0


class NonFiniteLocalGrads(tuple):
    """The local derivatives of a node that has an infinite or NaN one, marked as such by `Value()`.

    A plain tuple in every other way. `backward()` may skip what lies below a ReLU that is off
    only while no node down there is marked: a zero share times inf is NaN, not zero.
    """

    __slots__ = ()


def _shares_are_zero(grad: float, local_grads: tuple[float, ...]) -> bool:
    """Whether every share ``local * grad`` of a node is ±0, so that the walk may skip the node.

    It is when the node's gradient is 0 and every local derivative is finite (0 · inf is NaN,
    which must reach the leaves), or when every local derivative is 0 and the gradient is
    finite. Adding ±0 leaves a gradient unchanged: one that started from +0 never becomes -0.
    """
    if grad == 0.0:
        total = sum(local_grads)  # finite only when every term is (an overflow to inf: do not skip)
        return total - total == 0.0
    return grad - grad == 0.0 and not any(local_grads)  # grad - grad is NaN for an infinite or NaN grad


def _power_of_values(base: Value, exponent: Value) -> Value:
    """a ** b with both Values.  d/da = b * a**(b-1), d/db = a**b * ln a (needs a > 0)."""
    a, b = base.data, exponent.data
    if a <= 0:
        raise ValueError(f"{a:g} ** Value({b:g}): a Value exponent needs a positive base")
    out = _power(a, b)
    return Value(out, "", (base, exponent), (_power_derivative(a, b), out * math.log(a)), "**")


# --8<-- [start:sigmoid]
def sigmoid(x: float) -> float:
    """1 / (1 + exp(-x)) of a plain number, written so that neither branch can overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# --8<-- [end:sigmoid]


# --8<-- [start:number_helpers]
def _label(text: str) -> str:
    """The op text of a node with a plain-number operand, e.g. "* 2" or "2**".

    Interned, so a million nodes made by ``x * 1.0001`` share one string
    instead of holding a million copies.
    """
    return sys.intern(text)


def _exp(x: float) -> float:
    """exp x, or +inf where the result is too large for a float (as in IEEE 754)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _power(x: float, n: float) -> float:
    """x**n, or ±inf where the result is too large for a float."""
    try:
        return x**n
    except OverflowError:
        odd = n.is_integer() and n % 2 == 1
        return -math.inf if x < 0 and odd else math.inf


def _power_derivative(x: float, k: float) -> float:
    """k * x**(k-1), with the limits at x = 0 where x**(k-1) has no float value."""
    if k == 0:
        return 0.0
    if x == 0 and k < 1:
        return math.inf
    return k * _power(x, k - 1)


# --8<-- [end:number_helpers]


def _refuse_label(label: object) -> None:
    """A TypeError for a label that is not a string, with the call that was meant."""
    if isinstance(label, str):
        return
    micrograd = ""
    if isinstance(label, (tuple, list, set)):
        micrograd = (
            " This is micrograd's Value(data, _children, _op): here the second argument is the label,"
            " and the operators build the graph (write a + b, not Value(3.0, (a, b), '+'))."
        )
    raise TypeError(
        f"Value() takes a string as its label, got label={label!r} ({type(label).__name__}); "
        f'name a Value with Value(3.0, label="c").{micrograd}'
    )


def _refuse_local_grads(children: tuple[Value, ...], local_grads: tuple[float, ...]) -> None:
    """A ValueError for a node whose children and local derivatives do not pair up one to one."""
    raise ValueError(
        f"Value() needs one local derivative per child: got {len(children)} children "
        f"and {len(local_grads)} local derivatives"
    )


def _refuse_local_grads_that_are_not_numbers(local_grads: tuple[object, ...]) -> None:
    """A TypeError naming the first local derivative that is not a real number."""
    odd = next((local for local in local_grads if not isinstance(local, Real)), local_grads)
    raise TypeError(
        f"Value() takes real numbers as local derivatives, got {type(odd).__name__} {odd!r} among them"
    )


def _as_float(data: object) -> float:
    """`data` as a float, or a TypeError that says what was given instead."""
    if isinstance(data, Real):
        return float(data)
    raise TypeError(f"Value() takes a real number, got {type(data).__name__} {data!r}")


# --8<-- [start:operand]
def _operand(other: object, op: str) -> float:
    """A plain-number operand of `op` as a float, or a TypeError naming the op."""
    if type(other) is float or type(other) is int or isinstance(other, Real):
        return float(other)
    raise TypeError(f"unsupported operand for {op}: Value and {type(other).__name__} {other!r}")


# --8<-- [end:operand]
