"""Watching ``backward()`` work: the nodes it visits, in order, what each visit adds, and which line.

`record_backward` runs a graph's own ``backward()`` once, from zero gradients, and writes down
each visit: the node, its gradient when visited (the *upstream* gradient), and for each child the
gradient before and after, with the source line that changed it. The page replays the record one
visit at a time ("Step through backward"). The story has two designs of backward, and both are
watched as they run, not imitated:

* **closures** (micrograd, the stages of `scratchgrad.stages`, a reader's own class): every Value
  has a ``_backward`` function. For the run each one is wrapped on its instance, so the wrapper
  sees the visit and the gradients it changed; the line that changed each is read from the
  closure's source (nothing is traced);
* **stored local derivatives** (the package's `Value`): ``Value.backward(watch=...)`` calls the
  watcher with each node it walks, before the node passes its gradient on; the chain rule's line
  is `scratchgrad.engine._walk`'s.

Afterwards every gradient and every ``_backward`` is put back: recording changes nothing the
reader can see.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from scratchgrad.graph import GraphNode

__all__ = ["CodeLine", "Recording", "Update", "Visit", "record_backward"]


@dataclass(frozen=True)
class CodeLine:
    """A line of source: its file (a module's path, or a block's name such as ``<chain-rule block 4>``),
    its number and its text."""

    file: str
    line: int
    text: str


@dataclass(frozen=True)
class Update:
    """One child's gradient changed by a visit: from `before` to `after`, by the line `line`."""

    child: int
    before: float
    after: float
    line: CodeLine | None


@dataclass(frozen=True)
class Visit:
    """``backward()`` at one node: its gradient then (`upstream`), what it passed to its children,
    the lines that ran, and where the node's local derivatives were written (`origin`)."""

    node: int
    upstream: float
    updates: list[Update]
    lines: list[CodeLine]
    origin: CodeLine | None = None


@dataclass
class Recording:
    """What one ``backward()`` did: every gradient when the first visit began (after the seed),
    the visits in order, every gradient at the end, and the error that stopped it, if one did."""

    seeded: list[float] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    grads: list[float] = field(default_factory=list)
    error: str | None = None


def record_backward(nodes: list[GraphNode]) -> Recording:
    """Run ``backward()`` on the last of `nodes` (the output), from zero gradients, and record it.

    `nodes` is the graph as `scratchgrad.graph.graph_nodes` lists it. A Value without gradients
    or without a backward the recorder knows gives a Recording whose `error` says so.
    """
    values = [node.value for node in nodes]
    root = values[-1]
    if not all(hasattr(value, "grad") for value in values):
        return Recording(error="these Values keep no gradient yet: there is no backward pass to watch")
    if not callable(getattr(root, "backward", None)):
        return Recording(error=f"{type(root).__name__} has no backward() method yet: nothing to watch")
    kept = [value.grad for value in values]
    recording = Recording()
    try:
        for value in values:
            value.grad = 0.0
        if any(callable(getattr(value, "_backward", None)) for value in values):
            _record_closures(nodes, recording)
        elif _offers_watch(root.backward):
            _record_watched(nodes, recording)
        else:
            recording.error = (
                f"{type(root).__name__}.backward() neither calls _backward closures nor takes a watch= "
                "callback: the recorder cannot follow it"
            )
        recording.grads = [value.grad for value in values]
    finally:
        for value, grad in zip(values, kept, strict=True):
            value.grad = grad
    return recording


def _run_backward(root: Any, recording: Recording) -> None:
    try:
        root.backward()
    except Exception as error:  # the reader's backward may fail: say how; a Stop still stops
        recording.error = f"backward() raised {type(error).__name__}: {error}"


class _Watch:
    """The visit being recorded: the grads of its children when it began, and what changed them."""

    def __init__(self, nodes: list[GraphNode], index: int) -> None:
        self.nodes = nodes
        self.index = index
        self.upstream = float(nodes[index].value.grad)
        self.children = sorted(set(nodes[index].children))
        self.grads = {child: nodes[child].value.grad for child in self.children}
        self.updates: list[Update] = []
        self.lines: list[CodeLine] = []

    def changes(self, line_for: Callable[[int], CodeLine | None]) -> None:
        """Write down every child whose gradient changed since the visit began, to the line
        `line_for` gives it."""
        for child in self.children:
            now, before = self.nodes[child].value.grad, self.grads[child]
            if now != before and not (now != now and before != before):  # NaN is not equal to itself
                self.updates.append(Update(child, float(before), float(now), line_for(child)))
                self.grads[child] = now

    def visit(self, origin: CodeLine | None = None) -> Visit:
        return Visit(self.index, self.upstream, self.updates, self.lines, origin)


def _record_closures(nodes: list[GraphNode], recording: Recording) -> None:
    """Wrap each node's ``_backward`` on the instance for the run: the wrapper sees the visit, calls
    the closure and compares the children's gradients after it with before; the line that changed
    a child's gradient is read from the closure's source (`_GradWrites`). No tracing: any engine
    that calls its nodes' ``_backward`` is watched, and put back afterwards."""
    values = [node.value for node in nodes]
    own = [value.__dict__.get("_backward") if hasattr(value, "__dict__") else None for value in values]
    originals = [getattr(value, "_backward", None) for value in values]

    def watched(index: int, closure: Callable[[], Any]) -> Callable[[], Any]:
        writes = _GradWrites(closure)

        def run_and_record() -> Any:
            if not recording.visits and not recording.seeded:
                recording.seeded = [float(value.grad) for value in values]
            watch = _Watch(nodes, index)
            try:
                return closure()
            finally:
                watch.changes(lambda child: writes.line_for(values[child]))
                watch.lines = writes.lines
                recording.visits.append(watch.visit(writes.origin))

        return run_and_record

    wrapped = [index for index, closure in enumerate(originals) if callable(closure)]
    try:
        for index in wrapped:
            values[index]._backward = watched(index, originals[index])
        _run_backward(values[-1], recording)
    finally:
        for index in wrapped:
            if own[index] is not None or not hasattr(values[index], "__dict__"):
                values[index]._backward = originals[index]
            else:
                del values[index]._backward  # the class's own _backward method shows through again


class _GradWrites:
    """Where a ``_backward`` closure writes gradients, read from its source: each line
    ``name.grad += ...`` (or ``name.grad = ...``) with the Value ``name`` is bound to in the
    closure (its nonlocals: ``self``, ``other``, micrograd's ``out``), or None for a name of its own
    (a loop's ``child``). Source that cannot be read (a builtin, a lambda inside an expression)
    gives no lines, only `origin`, where the closure starts."""

    def __init__(self, closure: Callable[[], Any]) -> None:
        code = getattr(closure, "__code__", None)
        self.origin = _code_line(code.co_filename, code.co_firstlineno) if code else None
        self.writes: list[tuple[Any, CodeLine]] = []
        self.lines: list[CodeLine] = []
        try:
            source, first = inspect.getsourcelines(closure)
            tree = ast.parse(textwrap.dedent("".join(source)))
            bound = inspect.getclosurevars(closure).nonlocals
        except (OSError, TypeError, SyntaxError, ValueError):
            return
        for statement in ast.walk(tree):
            targets = (
                statement.targets
                if isinstance(statement, ast.Assign)
                else [statement.target]
                if isinstance(statement, ast.AugAssign | ast.AnnAssign)
                else []
            )
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == "grad"
                    and isinstance(target.value, ast.Name)
                ):
                    line = _code_line(code.co_filename, first + statement.lineno - 1) if code else None
                    if line is not None:
                        self.writes.append((bound.get(target.value.id), line))
        self.writes.sort(key=lambda write: write[1].line)
        self.lines = list(dict.fromkeys(line for _, line in self.writes))

    def line_for(self, value: Any) -> CodeLine | None:
        """The first line that writes `value`'s gradient: by its name in the closure, else by a
        name of the closure's own, else None."""
        named = [line for bound, line in self.writes if bound is value]
        unnamed = [line for bound, line in self.writes if bound is None]
        return (named or unnamed or [None])[0]


def _offers_watch(backward: Callable[..., Any]) -> bool:
    """Whether `backward` takes a ``watch`` callback, as ``scratchgrad.engine.Value.backward`` does."""
    try:
        return "watch" in inspect.signature(backward).parameters
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return False


def _record_watched(nodes: list[GraphNode], recording: Recording) -> None:
    values = [node.value for node in nodes]
    root = values[-1]
    position = {id(value): index for index, value in enumerate(values)}
    chain_rule: list[CodeLine] = []
    watch: _Watch | None = None

    def visit(node: Any) -> None:
        nonlocal watch
        if watch is None:
            recording.seeded = [float(value.grad) for value in values]
            # The walk that calls the watcher hands the shares on: engine._walk, or the buggy walk
            # of a break-it switch standing in for it. Its line that does is the one to show.
            chain_rule.append(_chain_rule_line(sys._getframe(1).f_code))
        else:
            recording.visits.append(_finished(watch, type(root)))
        watch = _Watch(nodes, position[id(node)])
        watch.lines = chain_rule

    try:
        root.backward(watch=visit)
    except Exception as error:  # the reader's backward may fail: say how; a Stop still stops
        recording.error = f"backward() raised {type(error).__name__}: {error}"
    if watch is not None:
        recording.visits.append(_finished(watch, type(root)))


def _finished(watch: _Watch, cls: type) -> Visit:
    watch.changes(lambda child: watch.lines[0])
    return watch.visit(_op_origin(cls, watch.nodes[watch.index].op))


def _chain_rule_line(walk: CodeType) -> CodeLine:
    """The line of the walk `walk` (`scratchgrad.engine._walk`'s code, or a break-it switch's) that
    hands a share to a child's gradient: ``child.grad += ...``, or ``child.grad = ...`` in a bug."""
    lines, first = inspect.getsourcelines(walk)
    number = next((first + offset for offset, text in enumerate(lines) if "child.grad" in text), first)
    return _code_line(walk.co_filename, number)


_OP_METHODS = {"+": "__add__", "*": "__mul__", "exp": "exp", "log": "log", "tanh": "tanh"}
_OP_METHODS |= {"sigmoid": "sigmoid", "relu": "relu"}


def _op_origin(cls: type, op: str) -> CodeLine | None:
    """Where the package's Value stores the local derivatives of `op`: the method that makes it."""
    if op.startswith("+ "):
        op = "+"
    elif op.startswith("* "):
        op = "*"
    name = _OP_METHODS.get(op) or (
        "__pow__" if op.startswith("**") else "__rpow__" if op.endswith("**") else ""
    )
    code = getattr(getattr(cls, name, None), "__code__", None)
    return _code_line(code.co_filename, code.co_firstlineno) if code else None


def _code_line(file: str, line: int) -> CodeLine:
    return CodeLine(file, line, linecache.getline(file, line).rstrip())
