"""The reader's backward rule that passed the first wrong gradient, and the line of theirs that wrote it.

A node's gradient is often wrong only because a rule above it passed a wrong share down, so the first
wrong node says little on its own. `first_wrong_rule` calls each op node's rule alone,
``node._backward()``, from the output back to the inputs, with the node's gradient set to the right
one (the package's engine says what it is) and its children's gradients set to a known earlier share;
it compares what each child received with local derivative × ``node.grad``. The first rule that
passes a wrong share is where the bug is: the `Blame` names the child it gave the wrong gradient, the
rule's op, and the reader's line that wrote it (the line of the closure that sets that child's
``grad``, found through the closure's variable holding the child), in the reader's terms: "your code
for 'accumulate', line 31". A rule the book's code wrote is never blamed, nor is a later piece: the
line is read from the code that made the rule.
"""

from __future__ import annotations

import contextlib
import linecache
from dataclasses import dataclass

import scratchgrad
from scratchgrad._checks import is_number
from scratchgrad.exercises.sandbox import BOOK_FILE_PREFIX, READER_FILE_PREFIX
from scratchgrad.gradcheck import relative_error
from scratchgrad.writing.numbers import written

__all__ = ["Blame", "first_wrong_rule", "lines_that_set", "rule_line"]

EARLIER = 0.25
"""The share a child holds before a rule runs, when rules must add theirs (after "The += bug")."""
LATER = -0.75
"""Another share held before: a rule that leaves the same gradient after both sets it with ``=``."""


@dataclass(frozen=True)
class Blame:
    """Op node `node` (made by `op`) gave `child` the share `got` from ``node.grad`` = `upstream`,
    where `local` × `upstream` = `expected`; `where` is the reader's line, `sets` says it used ``=``."""

    node: str
    child: str
    op: str
    upstream: float
    local: float
    expected: float
    got: float
    where: str
    sets: bool = False

    def __str__(self) -> str:
        rule = f"your rule for {self.op}{self.where}"
        if self.sets:
            return (
                f"The first wrong gradient is {self.child}'s: {rule} sets {self.child}.grad with `=`, so "
                f"the share {self.child} already held from another use is lost: add yours with +="
            )
        return (
            f"The first wrong gradient is {self.child}'s: {rule} passed {written(self.got)} to "
            f"{self.child}.grad from {self.node}.grad = {written(self.upstream)}, where the chain rule gives "
            f"d{self.node}/d{self.child} × {self.node}.grad = {written(self.local)} × "
            f"{written(self.upstream)} = {written(self.expected)}"
        )


def first_wrong_rule(build: object, nodes: dict[str, object], adds: bool = True) -> Blame | None:
    """The first rule of the reader's graph `nodes` (built by `build`) that passes a wrong share, or None.

    Each rule runs alone with its children's grads at 0: a wrong share is blamed. `adds`: the rules
    must add to a child's gradient (``+=``) by now, so a rule that gives a child already reached by
    an earlier rule (or reached twice by this one) its share runs again from `EARLIER`, and one that
    loses what the child held is blamed for its ``=``: a node used once may still be set. Every
    gradient is put back afterwards. None when every rule is right alone (then the walk is wrong),
    or when the wrong rule is the book's.
    """
    truth = build(scratchgrad.Value)
    list(truth.values())[-1].backward()
    if not all(_close_data(getattr(nodes[name], "data", None), node.data) for name, node in truth.items()):
        return None  # a wrong forward pass: the rules are measured against the right data only
    name_of = {id(node): name for name, node in truth.items()}
    kept = {name: getattr(node, "grad", None) for name, node in nodes.items()}
    reached: set[str] = set()
    try:
        for name in reversed(list(truth)):
            blame = _rule_at(name, truth, name_of, nodes, reached if adds else None)
            if blame is not None:
                return blame
    finally:
        for name, grad in kept.items():
            with contextlib.suppress(AttributeError):  # a reader's class may refuse: no check reads it after
                nodes[name].grad = grad
    return None


def _rule_at(name: str, truth: dict, name_of: dict, nodes: dict, reached: set[str] | None) -> Blame | None:
    """The blame for node `name`'s rule, or None; `reached` (None: = allowed) gains its children."""
    made = truth[name]
    node = nodes[name]
    rule = getattr(node, "_backward", None)
    if not made._children or not callable(rule):
        return None
    locals_: dict[str, float] = {}
    uses: dict[str, int] = {}
    # d made/d child for each named child: through the package's unnamed nodes too (its a - b is
    # a + (-1·b), where a reader's may be one rule); a plain number wrapped on the way has no check
    stack = list(zip(made._children, made._local_grads, strict=True))
    while stack:
        child, local = stack.pop()
        if id(child) in name_of:
            child_name = name_of[id(child)]
            locals_[child_name] = locals_.get(child_name, 0.0) + local
            uses[child_name] = uses.get(child_name, 0) + 1
        else:
            stack.extend(
                (inner, local * inner_local)
                for inner, inner_local in zip(child._children, child._local_grads, strict=True)
            )
    order = list(truth)
    locals_ = dict(sorted(locals_.items(), key=lambda item: -order.index(item[0])))  # as oracle walks them
    shares = _shares(node, rule, made.grad, nodes, locals_, 0.0)
    if shares is None:
        return None
    for child, local in locals_.items():
        expected = local * made.grad
        share, sets = shares[child], False
        if reached is not None and (child in reached or uses[child] > 1):
            held = _shares(node, rule, made.grad, nodes, locals_, EARLIER)
            again = _shares(node, rule, made.grad, nodes, locals_, LATER)
            if held is None or again is None:
                return None
            if _close(share, expected) or not _close(held[child], expected):
                share = held[child]  # what it added to a share already held
            # a rule that sets the grad leaves the same number whatever the child held before
            sets = _close(held[child] + EARLIER, again[child] + LATER)
        if _close(share, expected) and not sets:
            continue
        where = rule_line(rule, nodes[child])
        if where is None:  # the book's rule: the reader's Values fed it, so it is not at fault
            return None
        op = getattr(node, "_op", "") or made._op
        return Blame(name, child, str(op), made.grad, local, expected, share, where, sets)
    if reached is not None:
        reached.update(locals_)
    return None


def _shares(
    node: object, rule: object, upstream: float, nodes: dict, children: dict, start: float
) -> dict | None:
    """What `rule` adds to each of `children` when it runs once with ``node.grad`` = `upstream` and
    each child's grad at `start`; None when it raises or leaves no number."""
    try:
        for child in children:
            nodes[child].grad = start
        node.grad = upstream
        rule()
    except Exception:  # the reader's backward() raised, or will: that message is theirs, not this one's
        return None
    got = {child: getattr(nodes[child], "grad", None) for child in children}
    if not all(is_number(grad) for grad in got.values()):
        return None
    return {child: float(grad) - start for child, grad in got.items()}


def _close_data(got: object, expected: float) -> bool:
    return is_number(got) and _close(float(got), expected)


def _close(got: float, expected: float) -> bool:
    return relative_error(got, expected) <= 1e-6


def rule_line(rule: object, child: object) -> str | None:
    """ " (your code for 'x', line N: `…`)": where the reader's `rule` sets `child`'s grad; None when
    the book's code wrote the rule; "" when nothing says where (a rule that is not a Python function)."""
    found = _lines(rule, child)
    if found is None or not found:
        return found if found is None else ""
    piece, lines = found
    return f" (your code for {piece!r}, {lines})"


def lines_that_set(rule: object, child: object) -> str:
    """ "line N: `…`" for the line(s) of the reader's `rule` that set `child`'s grad, or ""."""
    found = _lines(rule, child)
    return found[1] if found else ""


def _lines(rule: object, child: object) -> tuple[str, str] | tuple[()] | None:
    """(the reader's piece, "line N: `…`") for the line of `rule` that sets `child`'s grad (every such
    line when the child is both ``self`` and ``other``); None for the book's rule; () when unknown.

    A rule that holds `child` in no variable and sets only other grads is shown whole ("lines M–N")
    as setting none of it; a rule that is the one every new Value starts with says its op's method
    never attached its own."""
    function = getattr(rule, "__func__", rule)  # a bound method's function
    code = getattr(function, "__code__", None)
    filename = getattr(code, "co_filename", "")
    if not filename.startswith(READER_FILE_PREFIX):
        return None if filename.startswith(BOOK_FILE_PREFIX) else ()
    piece = filename[len(READER_FILE_PREFIX) : -1]
    lines = linecache.getlines(filename)
    numbers = sorted({line for _, _, line in code.co_lines() if line is not None and line <= len(lines)})
    if _is_a_new_values(code, child):
        first = code.co_firstlineno
        quoted = f": `{lines[first - 1].strip()}`" if first <= len(lines) else ""
        return piece, f"line {first}{quoted}, the _backward every new Value starts with{_unattached(child)}"
    cells = dict(zip(code.co_freevars, function.__closure__ or (), strict=False))
    wanted = [f"{holder}.grad" for holder, cell in cells.items() if _holds(cell, child)]
    others = [  # the grads of other Values this rule sets
        f"{holder}.grad"
        for holder in cells
        if f"{holder}.grad" not in wanted
        and any(lines[n - 1].lstrip().startswith(f"{holder}.grad") for n in numbers)
    ]
    searched = numbers
    if not wanted:  # no variable of the rule holds the child: a line with .grad that sets no other's
        wanted = [".grad"]
        searched = [
            n for n in numbers if not any(lines[n - 1].lstrip().startswith(other) for other in others)
        ]
    found = [first for text in wanted if (first := next((n for n in searched if text in lines[n - 1]), None))]
    if not found and others:
        return (
            piece,
            f"lines {numbers[0]}–{numbers[-1]}: the rule sets only {_and(others)}.grad, none of this input's",
        )
    if not found:
        return piece, f"line {code.co_firstlineno}"
    return piece, ", and ".join(f"line {n}: `{lines[n - 1].strip()}`" for n in sorted(set(found)))


def _and(grads: list[str]) -> str:
    """ "self and out" for ["self.grad", "out.grad"]."""
    return " and ".join(grad.removesuffix(".grad") for grad in grads)


def _is_a_new_values(code: object, child: object) -> bool:
    """Whether `code` is the rule a new Value of `child`'s class starts with: a leaf's, doing nothing."""
    try:
        fresh = getattr(child.__class__(0.0), "_backward", None)  # (a proxy's class is the reader's)
    except Exception:  # a class that cannot make Value(0.0): nothing to compare with
        return False
    return getattr(getattr(fresh, "__func__", fresh), "__code__", None) is code


def _unattached(child: object) -> str:
    """ ": your __mul__ (line N) makes a _backward but never attaches it", for each method of the
    reader's Value that defines a nested ``_backward`` and sets no attribute of that name; or ""."""
    found = []
    for klass in child.__class__.__mro__:
        for name, method in vars(klass).items():
            code = getattr(method, "__code__", None)
            if code is None or not code.co_filename.startswith(READER_FILE_PREFIX):
                continue
            makes = any(getattr(const, "co_name", None) == "_backward" for const in code.co_consts)
            if makes and "_backward" not in code.co_names:
                found.append(f"{name} (line {code.co_firstlineno})")
    if not found:
        return ""
    return f": your {' and '.join(found)} makes a _backward but never attaches it, out._backward = _backward"


def _holds(cell: object, child: object) -> bool:
    try:
        return cell.cell_contents is child
    except ValueError:  # an empty cell
        return False
