"""The witness the checks trust, the package's own engine node by node: a check builds one expression
twice from the same `Builder`, with the reader's ``Value`` and with `scratchgrad.Value`, lets the
package's ``backward()`` say what every gradient should be, reads the reader's nodes only through
``.data`` and ``.grad``, and compares them from the output back to the inputs, so the first node
that disagrees is where the bug is; when a gradient is wrong, `graph_failure` checks the reader's
graph as the page's "Check gradients" does (`scratchgrad.drawn_graph.check`) and hands the page
the graph to draw with the wrong nodes marked.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable

import scratchgrad
from scratchgrad._checks import is_number
from scratchgrad.drawn_graph import study
from scratchgrad.exercises.blame import first_wrong_rule
from scratchgrad.exercises.exercise import Fail
from scratchgrad.gradcheck import relative_error
from scratchgrad.writing.numbers import written

__all__ = [
    "Builder",
    "children",
    "close",
    "expected",
    "gradient_mismatch",
    "graph_failure",
    "require_close",
    "require_gradients",
    "value_of",
]

Builder = Callable[[type], dict[str, object]]
"""Given a Value class, build an expression and return its nodes by name, inputs first, output last."""


def close(a: object, b: float, tolerance: float = 1e-6) -> bool:
    """True when the reader's number `a` is `b` up to a relative (or, near 0, absolute) tolerance.

    The two rules are the library's: what counts as a number (`is_number`, so a bool, None or a
    Value is never close) and how far apart two gradients may be (`relative_error`).
    """
    return is_number(a) and relative_error(float(a), b) <= tolerance


def value_of(node: object) -> object:
    """The number the reader's code produced: ``node.data``, or `node` itself when it has no data."""
    return getattr(node, "data", node)


def require_close(got: object, want: float, what: str, hint: str = "", tolerance: float = 1e-6) -> None:
    """Fail with "<what> should be <want>; yours is <got><hint>" unless the reader's `got` is `want`.

    `got` is compared with `close`, so a missing number (None, a Value) fails too.
    """
    if not close(got, want, tolerance):
        raise Fail(f"{what} should be {written(want)}; yours is {written(got)}{hint}")


def expected(build: Builder) -> dict[str, tuple[float, float]]:
    """(data, grad) of every named node, from the package's engine and its ``backward()``."""
    nodes = build(scratchgrad.Value)
    output = list(nodes.values())[-1]
    output.backward()
    return {name: (node.data, node.grad) for name, node in nodes.items()}


def gradient_mismatch(
    build: Builder, reader_nodes: dict[str, object], output: str | None = None
) -> str | None:
    """The first wrong node of the reader's graph, walking back from the output, or None.

    `reader_nodes` are the nodes `build` made with the reader's Value, after the reader's backward
    pass ran. The message names the node, the expected gradient and the one found.
    """
    truth = expected(build)
    out = output or list(truth)[-1]
    for name in reversed(list(truth)):
        data, grad = truth[name]
        node = reader_nodes[name]
        got_data = getattr(node, "data", None)
        if not close(got_data, data):
            return f"{name}.data should be {written(data)}; yours is {written(got_data)}"
        got = getattr(node, "grad", None)
        if not close(got, grad):
            return f"d{out}/d{name} should be {written(grad)}; your {name}.grad is {written(got)}"
    return None


def require_gradients(
    build: Builder,
    value_class: type,
    backward: Callable[[dict[str, object]], None],
    what: str,
    adds: bool = True,
) -> str:
    """Build with the reader's class, run `backward` on its nodes, fail on the first wrong node and
    the reader's rule that passed it (`graph_failure`; `adds`: rules must add their shares by now)."""
    nodes = build(value_class)
    backward(nodes)
    problem = gradient_mismatch(build, nodes)
    if problem:
        raise graph_failure(f"{what}: {problem}", nodes, build, adds)
    names = ", ".join(f"{name}={written(getattr(node, 'grad', None))}" for name, node in nodes.items())
    return f"every gradient right ({names})"


def graph_failure(
    problem: str, nodes: dict[str, object], build: Builder | None = None, adds: bool = True
) -> Fail:
    """A Fail for `problem`, a wrong gradient in the reader's graph `nodes` (made by `build`, output
    last), with the graph checked node by node when the reader's Value has a ``backward()`` to rerun.

    When `build` is given, the message says which of the reader's rules passed the first wrong
    gradient, and on which line of theirs (`scratchgrad.exercises.blame`; `adds`: the rules must add
    their shares by now). Each node is labelled with its name in the builder, so the drawing and the
    message agree. The message adds every wrong node, expected against got, and, when no rule of the
    reader's is to blame, the op whose backward went wrong first.
    """
    blame = first_wrong_rule(build, nodes, adds) if build is not None else None
    if blame is not None:
        problem = f"{problem}. {blame}"
    for name, node in nodes.items():
        with contextlib.suppress(AttributeError):  # a reader's class may not take a label
            node.label = name
    dot, study_json = study.dot_and_study(list(nodes.values())[-1])
    studied = json.loads(study_json)
    if "check" not in studied:  # no backward() to rerun yet (the rules are called one by one)
        return Fail(problem + ("." if blame is not None else ""))
    verdicts = zip(studied["nodes"], studied["check"]["nodes"], strict=True)
    wrong = [f"{node['name']}: {check['text']}" for node, check in verdicts if check["status"] == "wrong"]
    checked = f". Node by node, against central differences: {'; '.join(wrong)}." if wrong else ""
    culprit = studied["check"]["culprits"][:1] if blame is None else []
    message = " ".join([problem + (checked or ("." if blame is not None else "")), *culprit])
    return Fail(message, graph={"dot": dot, "study": study_json})


def children(node: object) -> list[object]:
    """The Values `node` was made from, read from ``_prev`` (or ``_children``/``children``)."""
    for attribute in ("_prev", "_children", "children"):
        found = getattr(node, attribute, None)
        if found is not None:
            return list(found)
    return []


def every_node(root: object) -> Iterable[object]:
    """Every node reachable from `root` through `children`, each once (no recursion)."""
    seen, stack = {id(root)}, [root]
    while stack:
        node = stack.pop()
        yield node
        for child in children(node):
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
