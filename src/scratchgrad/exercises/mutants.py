"""Mutation testing of the exercises' checks: ``python -m scratchgrad.exercises.mutants`` makes
mutants of each exercise's reference solution, one small slip each of the kind a learner makes (an
operator or comparison swapped, a constant changed, ``+=`` written ``=``, a term dropped, a sign
flipped, an argument ignored, a ``return`` moved early), prints the score per exercise and exits 1
on a mutant that passes every check, a blind spot, unless ``mutants_equivalent.toml`` lists it,
with the reason, as doing the same as the solution.
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scratchgrad.exercises.registry import EXERCISES
from scratchgrad.exercises.runner import check

EQUIVALENT_FILE = Path(__file__).with_name("mutants_equivalent.toml")

_OPERATOR_SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.Pow: ast.Mult,
}
_COMPARE_SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}


@dataclass(frozen=True)
class Mutant:
    """One changed solution: `key` names the change (stable across runs), `source` is the code."""

    key: str
    source: str


def mutants(source: str) -> Iterator[Mutant]:
    """Every mutant of `source`, one change each, in the order of the code."""
    tree = ast.parse(source)
    for index, node in enumerate(ast.walk(tree)):
        for name, change in _changes(node):
            mutated = copy.deepcopy(tree)
            target = list(ast.walk(mutated))[index]
            if change(target) is not False:
                try:
                    text = ast.unparse(ast.fix_missing_locations(mutated))
                except Exception:  # a change that makes no Python: not a mutant
                    continue
                where = f"{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0)}"
                yield Mutant(f"line {where}: {name}", text)


def _changes(node: ast.AST) -> Iterator[tuple[str, object]]:
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATOR_SWAPS:
        swapped = _OPERATOR_SWAPS[type(node.op)]
        yield f"{_symbol(node.op)} -> {_symbol(swapped())}", lambda n, s=swapped: setattr(n, "op", s())
        yield f"drop the right of {_symbol(node.op)}", lambda n: _replace_with(n, n.left)
        yield f"drop the left of {_symbol(node.op)}", lambda n: _replace_with(n, n.right)
    if isinstance(node, ast.AugAssign):
        yield f"{_symbol(node.op)}= -> =", lambda n: _augassign_to_assign(n)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE_SWAPS:
        yield (
            f"{_symbol(node.ops[0])} -> {_symbol(_COMPARE_SWAPS[type(node.ops[0])]())}",
            lambda n: setattr(n, "ops", [_COMPARE_SWAPS[type(n.ops[0])]()]),
        )
    if (
        isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        and not isinstance(node.value, bool)
    ):
        value = node.value
        yield f"{value!r} -> {value + 1!r}", lambda n: setattr(n, "value", n.value + 1)
        if value != 0:
            yield f"{value!r} -> {-value!r}", lambda n: setattr(n, "value", -n.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield "drop a minus sign", lambda n: _replace_with(n, n.operand)
    if isinstance(node, ast.Call) and len(node.args) >= 2:
        yield (
            "swap the first two arguments",
            lambda n: n.args.__setitem__(slice(0, 2), [n.args[1], n.args[0]]),
        )
    if isinstance(node, ast.FunctionDef) and _returns_after_work(node):
        yield (
            f"{node.name}: return before its last line",
            lambda n: n.body.insert(len(n.body) - 2, copy.deepcopy(n.body[-1])),
        )


def _returns_after_work(function: ast.FunctionDef) -> bool:
    """Whether `function` ends in a return that comes after a statement other than its docstring."""
    body = function.body[1:] if ast.get_docstring(function) is not None else function.body
    return len(body) > 1 and isinstance(body[-1], ast.Return)


def _replace_with(node: ast.AST, replacement: ast.AST) -> None:
    """Make `node` become `replacement`, in place (its fields copied over)."""
    node.__class__ = replacement.__class__
    node.__dict__.clear()
    node.__dict__.update(copy.deepcopy(replacement).__dict__)


def _augassign_to_assign(node: ast.AugAssign) -> None:
    target, value = node.target, node.value
    node.__class__ = ast.Assign
    node.__dict__.clear()
    node.targets, node.value, node.type_comment = [target], value, None


def _symbol(op: ast.AST) -> str:
    return {
        ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**",
        ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    }.get(type(op), type(op).__name__)  # fmt: skip


def equivalents() -> dict[str, dict[str, str]]:
    """The reviewed equivalent mutants: exercise id -> {mutant key: why it does what the solution does}."""
    return tomllib.loads(EQUIVALENT_FILE.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scratchgrad.exercises.mutants", description=__doc__)
    parser.add_argument("exercises", nargs="*", help="exercise ids (default: every exercise)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the checks' random cases")
    args = parser.parse_args(argv)
    listed = equivalents()
    chosen = [e for e in EXERCISES if not args.exercises or e.id in args.exercises]
    unexplained = []
    for exercise in chosen:
        made = killed = equivalent = 0
        for mutant in mutants(exercise.solution):
            made += 1
            if not check(exercise.id, mutant.source, seed=args.seed).passed:
                killed += 1
            elif mutant.key in listed.get(exercise.id, {}):
                equivalent += 1
            else:
                unexplained.append(f"{exercise.id}, {mutant.key}:\n{mutant.source}")
        alive = made - killed - equivalent
        score = 100.0 * killed / max(1, made - equivalent)
        counts = f"{made:4} mutants {killed:4} killed {equivalent:3} equivalent {alive:3} alive"
        print(f"{exercise.id:24} {counts}  {score:5.1f} %")
    for survivor in unexplained:
        print(f"\nSURVIVED (no check failed, and it is not listed as equivalent): {survivor}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
