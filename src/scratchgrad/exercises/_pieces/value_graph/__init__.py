"""The Value object: a number that records its children and the operation that made it."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import children
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _held(node: object, a: object, b: object) -> str:
    held = children(node)
    return "[" + ", ".join("a" if x is a else "b" if x is b else repr(x) for x in held) + "]"


def _check_operation(engine: Engine, symbol: str) -> str:
    a, b = engine.Value(2.0, label="a"), engine.Value(-3.0, label="b")
    out = a + b if symbol == "+" else a * b
    expected = 2.0 + -3.0 if symbol == "+" else 2.0 * -3.0
    what = f"a {symbol} b"
    if not isinstance(out, engine.Value):
        raise Fail(f"{what} should return a new Value; yours returned {type(out).__name__} {out!r}")
    if out is a or out is b:
        raise Fail(f"{what} returned one of its inputs; it should return a new Value")
    if a.data != 2.0 or b.data != -3.0:
        raise Fail(f"{what} changed its inputs (a.data is now {written(a.data)}); make a new Value instead")
    if getattr(out, "data", None) != expected:
        raise Fail(
            f"({what}).data should be {written(expected)} with a = 2.0, b = -3.0; yours is "
            f"{written(getattr(out, 'data', out))}"
        )
    held = children(out)
    if {id(x) for x in held} != {id(a), id(b)} or len(held) > 2:
        raise Fail(f"({what})._prev should hold a and b; yours holds {_held(out, a, b)}")
    if getattr(out, "_op", None) != symbol:
        raise Fail(f"({what})._op should be {symbol!r}; yours is {getattr(out, '_op', None)!r}")
    return f"data {written(expected)}, children a and b, _op {symbol!r}"


@EXERCISE.check("an input keeps its number and label")
def _input(engine: Engine) -> str:
    a = engine.Value(2.0, label="a")
    if getattr(a, "data", None) != 2.0 or getattr(a, "label", None) != "a":
        raise Fail(
            f"Value(2.0, label='a') should have data 2.0 and label 'a'; yours has "
            f"{written(getattr(a, 'data', None))} and {getattr(a, 'label', None)!r}"
        )
    op = getattr(a, "_op", None)
    if children(a) or op != "":
        raise Fail(f"an input has no children and _op ''; yours has _prev {children(a)!r}, _op {op!r}")
    return "data 2.0, label 'a', no children, _op ''"


@EXERCISE.check("Value(data, label, _children, _op), in that order")
def _argument_order(engine: Engine) -> str:
    V = engine.Value  # noqa: N806
    a, b = V(2.0, label="a"), V(-3.0, label="b")
    made = V(-1.0, "s", (a, b), "+")
    held = children(made)
    if getattr(made, "label", None) == "s" and {id(x) for x in held} == {id(a), id(b)} and made._op == "+":
        return "Value(-1.0, 's', (a, b), '+') keeps label 's', children a and b, _op '+'"
    if getattr(made, "label", None) == "+" or getattr(made, "_op", None) == "s":
        raise Fail(
            "Value(-1.0, 's', (a, b), '+') took '+' as its label: your __init__ has micrograd's order, "
            "Value(data, _children, _op, label). This course calls Value(data, label, _children, _op) — "
            'its later pieces write Value(t, "", (self,), "tanh") — so put label second'
        )
    label, op = getattr(made, "label", None), getattr(made, "_op", None)
    raise Fail(
        f"Value(-1.0, 's', (a, b), '+') should have label 's', children a and b and _op '+'; yours has "
        f"label {label!r}, _prev {_held(made, a, b)}, _op {op!r}"
    )


@EXERCISE.check("a + b records its children and '+'")
def _add(engine: Engine) -> str:
    return _check_operation(engine, "+")


@EXERCISE.check("a * b records its children and '*'")
def _mul(engine: Engine) -> str:
    return _check_operation(engine, "*")


@EXERCISE.check("the chapter's graph L = (a·b + c)·f")
def _chapter_graph(engine: Engine) -> str:
    V = engine.Value  # noqa: N806
    a, b, c, f = V(2.0, label="a"), V(-3.0, label="b"), V(10.0, label="c"), V(-2.0, label="f")
    L = (a * b + c) * f  # noqa: N806
    if getattr(L, "data", None) != -8.0:
        raise Fail(f"L.data should be -8.0; yours is {written(getattr(L, 'data', L))}")
    leaves, stack, seen = set(), [L], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        below = children(node)
        if not below:
            leaves.add(getattr(node, "label", "?"))
        stack.extend(below)
    if leaves != {"a", "b", "c", "f"}:
        raise Fail(
            f"following _prev from L should reach the inputs a, b, c, f; yours reaches {sorted(leaves)}"
        )
    return "L = -8.0, and following _prev from L reaches a, b, c and f"
