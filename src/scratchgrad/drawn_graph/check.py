"""Which node has the wrong gradient: every node of a graph checked against central differences.

For every node it nudges the node's ``data`` both ways, recomputes the nodes above it up to the
output with each op's forward rule, read from the op's name (``+``, ``*``, ``+ 3``, ``**2``,
``exp``, ``tanh``, a reader's ``-`` and ``/``, …; a rule is trusted only if it gives back the
node's own ``data``, else the node is reported ``"unchecked"``, never guessed), and measures the
slope ``(out(x + h) − out(x − h)) / 2h``, the gradient ``backward()`` should have given; the
gradients it did give come from `scratchgrad.drawn_graph.record`. A node is often wrong only
because one above it passed a wrong gradient down, so `GraphCheck.culprits` names the op where it
first went wrong: a visit that gave a child a share other than ``local derivative × upstream``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scratchgrad.drawn_graph.record import Recording
from scratchgrad.engine import Value
from scratchgrad.gradcheck import numerical_gradients, relative_error
from scratchgrad.graph import GraphNode

__all__ = [
    "TOLERANCE",
    "Culprit",
    "GraphCheck",
    "H",
    "NodeCheck",
    "check_graph",
    "close",
    "forward_rule",
    "local_derivatives",
]

H = 1e-6
"""The nudge of the central differences."""

Rule = Callable[[Sequence[float]], float]

_RULES: dict[str, Rule] = {
    "+": math.fsum,
    "*": math.prod,
    "-": lambda xs: xs[0] - xs[1] if len(xs) == 2 else -xs[0],
    "/": lambda xs: xs[0] / xs[1],
    "neg": lambda xs: -xs[0],
    "exp": lambda xs: math.exp(xs[0]),
    "log": lambda xs: math.log(xs[0]),
    "tanh": lambda xs: math.tanh(xs[0]),
    "sigmoid": lambda xs: 1.0 / (1.0 + math.exp(-xs[0])),
    "relu": lambda xs: max(0.0, xs[0]),
}
_NUMBER = r"(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)"
_WITH_NUMBER: list[tuple[re.Pattern[str], Callable[[float], Rule]]] = [
    (re.compile(rf"\+ ?{_NUMBER}"), lambda c: lambda xs: xs[0] + c),
    (re.compile(rf"\* ?{_NUMBER}"), lambda c: lambda xs: xs[0] * c),
    (re.compile(rf"\*\*{_NUMBER}"), lambda n: lambda xs: xs[0] ** n),
    (re.compile(rf"{_NUMBER}\*\*"), lambda c: lambda xs: c ** xs[0]),
]


def forward_rule(op: str) -> Rule | None:
    """The forward computation an op's name stands for (a function of the children's data), or None."""
    if op in _RULES:
        return _RULES[op]
    for pattern, make in _WITH_NUMBER:
        match = pattern.fullmatch(op)
        if match:
            return make(float(match.group(1)))
    return None


TOLERANCE = 1e-5
"""How far a node's gradient may be from its central difference (which is good to about 1e-8), as
`scratchgrad.gradcheck.relative_error` measures it: absolute near 0, relative for large gradients."""


def close(got: float, expected: float) -> bool:
    """True when a gradient agrees with its central difference: `relative_error` within `TOLERANCE`."""
    return relative_error(got, expected) <= TOLERANCE


@dataclass(frozen=True)
class NodeCheck:
    """One node's verdict: ``"ok"``, ``"wrong"`` or ``"unchecked"`` (with the `reason`)."""

    node: int
    status: str
    expected: float | None
    got: float
    reason: str = ""


@dataclass(frozen=True)
class Culprit:
    """A visit that passed the wrong share to a child: op node `node` gave `child` `got`, not `expected`."""

    node: int
    child: int
    expected: float
    got: float


@dataclass(frozen=True)
class GraphCheck:
    nodes: list[NodeCheck]
    culprits: list[Culprit]

    @property
    def wrong(self) -> list[int]:
        return [check.node for check in self.nodes if check.status == "wrong"]


def check_graph(nodes: list[GraphNode], recording: Recording) -> GraphCheck:
    """Every node's gradient from `recording` (a run of the graph's own backward) against its
    central difference, and the visits that went wrong first."""
    rules = _trusted_rules(nodes)
    data = [float(node.value.data) for node in nodes]
    checks = []
    for index in range(len(nodes)):
        got = recording.grads[index]
        blocker = _blocker(nodes, rules, index)
        if blocker is not None:
            reason = (
                f"the op {nodes[blocker].op!r} of {nodes[blocker].name} cannot be recomputed by the check"
            )
            checks.append(NodeCheck(index, "unchecked", None, got, reason))
            continue
        expected = (
            _output_with(nodes, rules, data, index, H) - _output_with(nodes, rules, data, index, -H)
        ) / (2 * H)
        checks.append(NodeCheck(index, "ok" if close(got, expected) else "wrong", expected, got))
    return GraphCheck(checks, _culprits(nodes, rules, recording))


def local_derivatives(nodes: list[GraphNode], index: int) -> list[float] | None:
    """d node / d child for each child of node `index`, by central differences of its forward rule."""
    rule = _trusted_rules(nodes)[index]
    if rule is None:
        return None
    inputs = [float(nodes[child].value.data) for child in nodes[index].children]
    return numerical_gradients(lambda *values: Value(rule([v.data for v in values])), inputs, h=H)


def _trusted_rules(nodes: list[GraphNode]) -> list[Rule | None]:
    """Each op node's forward rule if it gives back the node's data; None for inputs and the rest."""
    rules: list[Rule | None] = []
    for node in nodes:
        rule = forward_rule(node.op) if node.children else None
        inputs = [float(nodes[child].value.data) for child in node.children]
        if rule is not None and not _gives(rule, inputs, node.value.data):
            twice = _used_twice(rule)
            rule = (
                twice
                if len(inputs) == 1 and node.op in ("+", "*") and _gives(twice, inputs, node.value.data)
                else None
            )
        rules.append(rule)
    return rules


def _used_twice(rule: Rule) -> Rule:
    """`rule` with its one input given twice: ``a + a`` kept in a set (a stage's ``_prev``) has one child."""
    return lambda xs: rule([*xs, *xs])


def _gives(rule: Rule, inputs: list[float], data: float) -> bool:
    try:
        return math.isclose(rule(inputs), float(data), rel_tol=1e-9, abs_tol=1e-12)
    except (ArithmeticError, ValueError, IndexError):
        return False


def _above(nodes: list[GraphNode], index: int) -> list[int]:
    """The nodes computed from node `index`, directly or not, in the drawing's (topological) order."""
    reached = {index}
    for later in range(index + 1, len(nodes)):
        if any(child in reached for child in nodes[later].children):
            reached.add(later)
    return sorted(reached - {index})


def _blocker(nodes: list[GraphNode], rules: list[Rule | None], index: int) -> int | None:
    return next((later for later in _above(nodes, index) if rules[later] is None), None)


def _output_with(
    nodes: list[GraphNode], rules: list[Rule | None], data: list[float], index: int, nudge: float
) -> float:
    """The output's data once node `index`'s data is nudged and the nodes above it recomputed."""
    now = list(data)
    now[index] += nudge
    for later in _above(nodes, index):
        rule = rules[later]
        assert rule is not None  # _blocker said so
        now[later] = rule([now[child] for child in nodes[later].children])
    return now[-1]


def _culprits(nodes: list[GraphNode], rules: list[Rule | None], recording: Recording) -> list[Culprit]:
    culprits = []
    for visit in recording.visits:
        slopes = local_derivatives(nodes, visit.node) if rules[visit.node] else None
        if slopes is None:
            continue
        expected_share: dict[int, float] = {}
        for child, slope in zip(nodes[visit.node].children, slopes, strict=True):
            expected_share[child] = expected_share.get(child, 0.0) + slope * visit.upstream
        got_share = {child: 0.0 for child in expected_share}
        for update in visit.updates:
            got_share[update.child] = got_share.get(update.child, 0.0) + update.after - update.before
        for child, expected in expected_share.items():
            if not close(got_share[child], expected):
                culprits.append(Culprit(visit.node, child, expected, got_share[child]))
    return culprits
