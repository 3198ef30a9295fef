"""What the page shows beside a drawn graph: the backward pass step by step, and every node checked.

`study` records the graph's own ``backward()`` (`scratchgrad.drawn_graph.record`), checks each node's
gradient against central differences (`scratchgrad.drawn_graph.check`), and writes both out in words and
numbers, as JSON for the page (``web/graph/``): ``show_graph`` sends it beside the DOT text
(`scratchgrad.page.blocks.STUDY_MIME_TYPE`). The wording lives here, once, for the build and the browser:

    b.grad += a.data × e.grad = 2.0 × −2.0 = −4.0

JSON fields: ``count`` (Values in the graph), ``limit``, ``note`` (why there is nothing to step
through, or None); ``nodes`` (``id``, ``name``, ``op``); ``seeded`` (every grad when the walk
starts); ``steps``, one per visit, in order: ``node``, ``text`` (lines of words), ``grads``
(``[node, grad after]`` pairs), ``lines`` (``file``, ``line``, ``text`` of the code that changed a
gradient) and ``origin`` (where the op's backward, or its local derivatives, are written);
``error`` (what stopped backward);
``check``: per node ``status``, ``expected``, ``got``, ``text`` ("expected 1.83, got 1.417"),
``reason``, and ``culprits`` in words.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
from dataclasses import asdict
from typing import Any

from scratchgrad.drawn_graph.check import GraphCheck, check_graph, local_derivatives
from scratchgrad.drawn_graph.record import CodeLine, Visit, record_backward
from scratchgrad.graph import DRAW_LIMIT, GraphNode, count_values, graph_nodes, summary_dot, to_dot
from scratchgrad.writing.numbers import TRUE_MINUS, written

_written = functools.partial(written, minus=TRUE_MINUS)  # the page's numbers: a true minus

__all__ = ["dot_and_study", "study", "to_json"]


def study(root: Any, limit: int = DRAW_LIMIT) -> dict[str, Any]:
    """The step-by-step backward and the per-node check of `root`'s graph, as JSON-ready data."""
    count = count_values(root)
    if count > limit:
        return {"count": count, "limit": limit, "note": _too_large(count, limit)}
    nodes = graph_nodes(root, max_nodes=limit)
    recording = record_backward(nodes)
    result: dict[str, Any] = {
        "count": count,
        "limit": limit,
        "note": None,
        "nodes": [{"id": node.id, "name": node.name, "op": node.op} for node in nodes],
    }
    if not recording.grads:  # nothing ran: no gradients, or a backward the recorder cannot follow
        result["note"] = f"No step-through for this graph: {recording.error}."
        return result
    checked = check_graph(nodes, recording)
    result["seeded"] = recording.seeded
    result["steps"] = [_step(nodes, visit) for visit in recording.visits]
    result["error"] = recording.error
    result["check"] = _check(nodes, checked)
    return result


def dot_and_study(root: Any, **options: Any) -> tuple[str, str]:
    """What a page shows of `root`'s graph: the DOT text to draw (`scratchgrad.graph.to_dot` with
    `options`, or one summary box above `DRAW_LIMIT` Values) and the study as JSON (`to_json`).
    What the graph's backward prints while it is recorded is not shown."""
    dot = summary_dot(root) if count_values(root) > DRAW_LIMIT else to_dot(root, **options)
    with contextlib.redirect_stdout(io.StringIO()):
        return dot, to_json(root)


def to_json(root: Any) -> str:
    """`study` as JSON text; a gradient that is not a finite number (NaN, ∞) is written as text."""
    return json.dumps(_finite(study(root)), allow_nan=False)


def _finite(data: Any) -> Any:
    if isinstance(data, float) and not math.isfinite(data):
        return _written(data)
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_finite(value) for value in data]
    return data


def _too_large(count: int, limit: int) -> str:
    return (
        f"This graph has {count} Values, more than the {limit} a page draws and steps through: "
        "draw a smaller part of it (one neuron's output, say)."
    )


def _step(nodes: list[GraphNode], visit: Visit) -> dict[str, Any]:
    node = nodes[visit.node]
    if not node.children:
        text = [
            f"{node.name} is an input: nothing to pass on. "
            f"{node.name}.grad = {_written(visit.upstream)} is final."
        ]
    else:
        text = _chain_rule_lines(nodes, visit)
    return {
        "node": visit.node,
        "text": text,
        "grads": [[update.child, update.after] for update in visit.updates],
        "lines": [_line(line) for line in _lines_to_show(node, visit)],
        "origin": _line(visit.origin) if visit.origin and node.children else None,
    }


def _lines_to_show(node: GraphNode, visit: Visit) -> list[CodeLine]:
    """The lines that changed a gradient; for a visit that changed none, the lines that ran (an op's
    backward that forgot its children), and none for an input (nothing of its own ran)."""
    changed = list(dict.fromkeys(update.line for update in visit.updates if update.line))
    return changed or (visit.lines if node.children else [])


def _chain_rule_lines(nodes: list[GraphNode], visit: Visit) -> list[str]:
    node = nodes[visit.node]
    slopes = local_derivatives(nodes, visit.node)
    changed: dict[int, float] = {}
    for update in visit.updates:
        changed[update.child] = changed.get(update.child, 0.0) + update.after - update.before
    lines = []
    expected: dict[int, float] = {}
    for position, child in enumerate(node.children):
        name = nodes[child].name
        symbol = _local_symbol(nodes, visit.node, position)
        if slopes is not None:
            local = slopes[position]
        elif visit.upstream:
            local = changed.get(child, 0.0) / visit.upstream
        else:
            local = math.nan
        share = local * visit.upstream
        expected[child] = expected.get(child, 0.0) + share
        lines.append(
            f"{name}.grad += {symbol} × {node.name}.grad = "
            f"{_written(local)} × {_written(visit.upstream)} = {_written(share)}"
        )
    for child, share in expected.items():
        got = changed.get(child, 0.0)
        if slopes is not None and not math.isclose(got, share, rel_tol=1e-4, abs_tol=1e-5):
            lines.append(
                f"✗ but {nodes[child].name}.grad changed by {_written(got)}, not {_written(share)}: "
                f"the backward of {node.name}'s op {node.op!r} is off."
            )
    return lines


def _local_symbol(nodes: list[GraphNode], index: int, position: int) -> str:
    """d node / d child in symbols, e.g. ``a.data`` for a product, ``(1 − t.data²)`` for a tanh."""
    node = nodes[index]
    names = [nodes[child].name for child in node.children]
    op, out, me = node.op, node.name, names[position]
    if op in ("+", "*") and len(names) == 1:  # a Value used twice, kept once in a set: a + a, a * a
        return "2" if op == "+" else f"2 × {me}.data"
    if op == "*" and len(names) == 2:
        return f"{names[1 - position]}.data"
    if op == "+" or op.startswith("+ ") or (op == "-" and position == 0):
        return "1"
    if op == "-":
        return "−1"
    constant = _number_in(op[2:]) if op.startswith(("* ", "**")) else None
    if op.startswith("* ") and constant is not None:
        return _written(constant)
    if op.startswith("**") and constant is not None:
        return f"{_written(constant)} × {me}.data^{_written(constant - 1)}"
    if op == "**" and len(names) == 2:  # a Value to the power of a Value, or a reader's plain "**" label
        base, exponent = names
        return (
            f"{exponent}.data × {base}.data^({exponent}.data − 1)"
            if position == 0
            else f"{out}.data × ln {base}.data"
        )
    if op.endswith("**") and _number_in(op[:-2]) is not None:
        return f"{out}.data × ln {op[:-2]}"
    symbols = {
        "exp": f"{out}.data",
        "tanh": f"(1 − {out}.data²)",
        "sigmoid": f"{out}.data × (1 − {out}.data)",
        "log": f"1 / {me}.data",
        "relu": f"({me}.data > 0)",
    }
    if op in symbols:
        return symbols[op]
    if op == "/" and len(names) == 2:
        return f"1 / {names[1]}.data" if position == 0 else f"−{names[0]}.data / {names[1]}.data²"
    return f"∂{out}/∂{me}"


def _number_in(text: str) -> float | None:
    """The number a node's op label carries after its operator (``"**-1"`` → -1), or None: a
    reader's own engine may label its nodes ``"**"`` alone, or in words."""
    try:
        return float(text)
    except ValueError:
        return None


def _check(nodes: list[GraphNode], checked: GraphCheck) -> dict[str, Any]:
    return {
        "nodes": [
            {
                "status": c.status,
                "expected": c.expected,
                "got": c.got,
                "text": f"expected {_written(c.expected)}, got {_written(c.got)}"
                if c.expected is not None
                else "",
                "reason": c.reason,
            }
            for c in checked.nodes
        ],
        "culprits": [
            f"{nodes[c.node].name} ({nodes[c.node].op}) passed {_written(c.got)} "
            f"to {nodes[c.child].name}.grad, "
            f"where the chain rule gives {_written(c.expected)}: "
            f"look at the backward of {nodes[c.node].op!r}."
            for c in checked.culprits
        ],
    }


def _line(line: CodeLine) -> dict[str, Any]:
    file = line.file
    marker = "/scratchgrad/"
    if marker in file.replace("\\", "/"):
        file = "scratchgrad/" + file.replace("\\", "/").rsplit(marker, 1)[1]
    return asdict(line) | {"file": file}
