"""More operations, by composition: -, / and the reflected operators need no new backward rule."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import close, graph_failure, require_gradients
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

A, B = 3.0, 4.0
CASES = (
    # text, operation, value, da, db (db None: b is a plain number here)
    ("-a", lambda a, b: -a, -A, -1.0, None, ""),
    ("a - b", lambda a, b: a - b, A - B, 1.0, -1.0, ""),
    ("a / b", lambda a, b: a / b, A / B, 1 / B, -A / B**2, ""),
    ("2 + a", lambda a, b: 2 + a, 2 + A, 1.0, None, ""),
    ("2 * a", lambda a, b: 2 * a, 2 * A, 2.0, None, ""),
    ("2 - a", lambda a, b: 2 - a, 2 - A, -1.0, None, " — other - self, not self - other"),
    ("2 / a", lambda a, b: 2 / a, 2 / A, -2 / A**2, None, " — other / self, not self / other"),
)

SWAPPED = {"2 - a": lambda a: a - 2, "2 / a": lambda a: a / 2}  # self - other, self / other


def _require(engine: Engine, text, operation, value, da, db, hint, at: tuple = (A, B)) -> None:
    def build(V: type) -> dict:  # noqa: N803
        nodes = {"a": V(at[0]), "b": V(at[1])}
        return nodes | {"out": operation(nodes["a"], nodes["b"])}

    nodes = build(engine.Value)
    a, b, out = nodes.values()
    where = f"with a = {at[0]:g}, b = {at[1]:g}"
    if not isinstance(out, engine.Value):
        missing = " — a method of yours returned None: does each one `return` its result?"
        raise Fail(
            f"{text} {where} should give a Value (so that backward() can reach a); yours gave "
            f"{type(out).__name__} {out!r}{missing if out is None else ''}"
        )
    data = getattr(out, "data", out)
    if not close(data, value):
        swapped = text in SWAPPED and close(data, SWAPPED[text](at[0]))  # the evidence for the hint
        told = hint if swapped else ""
        raise Fail(f"{text} {where} should be {written(value)}; yours gave {written(data)}{told}")
    out.backward()
    if not close(a.grad, da):
        problem = f"d({text})/da {where} should be {written(da)}; your backward gave {written(a.grad)}"
        raise graph_failure(problem, nodes, build)
    if db is not None and not close(b.grad, db):
        problem = f"d({text})/db {where} should be {written(db)}; your backward gave {written(b.grad)}"
        raise graph_failure(problem, nodes, build)


@EXERCISE.check("-a, a - b, a / b")
def _composed(engine: Engine) -> str:
    for case in CASES[:3]:
        _require(engine, *case)
    return "-3.0, -1.0, 0.75 and their gradients"


@EXERCISE.check("2 + a, 2 * a, 2 - a, 2 / a")
def _reflected(engine: Engine) -> str:
    for case in CASES[3:]:
        _require(engine, *case)
    return "5.0, 6.0, -1.0, 0.666667 and their gradients"


@EXERCISE.check("sum([a, b, c]) starts from 0 + a")
def _sum(engine: Engine) -> str:
    values = [engine.Value(x) for x in (1.0, 2.0, 3.5)]
    total = sum(values)
    if not isinstance(total, engine.Value):
        raise Fail(
            f"sum([a, b, c]) should give a Value; yours gave {type(total).__name__} {total!r} — sum starts "
            "with 0 + a, so __radd__ must return a Value: return self + other"
        )
    if not close(getattr(total, "data", total), 6.5):
        raise Fail(f"sum of 1, 2, 3.5 should be 6.5; yours gave {written(getattr(total, 'data', total))}")
    total.backward()
    grads = [v.grad for v in values]
    if not all(close(g, 1.0) for g in grads):
        raise Fail(f"every term of a sum should get gradient 1.0; yours got {[written(g) for g in grads]}")
    return "6.5, every term's gradient 1.0"


def _reused(V: type) -> dict:  # noqa: N803
    """y = (a − b)/a + 2/b − b: a and b each used more than once, through -, / and numbers."""
    n = {"a": V(1.5), "b": V(-0.5)}
    n["d"] = n["a"] - n["b"]
    n["q"] = n["d"] / n["a"]
    n["r"] = 2 / n["b"]
    n["s"] = n["q"] + n["r"]
    n["y"] = n["s"] - n["b"]
    return n


@EXERCISE.check("(a − b)/a + 2/b − b: a and b used more than once")
def _reused_check(engine: Engine) -> str:
    return require_gradients(_reused, engine.Value, lambda nodes: nodes["y"].backward(), "y")


@EXERCISE.check("every operation at random a and b")
def _random_points(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(4):
        a = round(rng.choice((-1, 1)) * rng.uniform(0.3, 4), 3)
        b = round(rng.choice((-1, 1)) * rng.uniform(0.3, 4), 3)
        cases = (
            ("-a", lambda a, b: -a, -a, -1.0, None, ""),
            ("a - b", lambda a, b: a - b, a - b, 1.0, -1.0, ""),
            ("a / b", lambda a, b: a / b, a / b, 1 / b, -a / b**2, ""),
            ("2 - a", lambda a, b: 2 - a, 2 - a, -1.0, None, " — other - self, not self - other"),
            ("2 / a", lambda a, b: 2 / a, 2 / a, -2 / a**2, None, " — other / self, not self / other"),
        )
        for case in cases:
            _require(engine, *case, at=(a, b))
    return "right at four random pairs"
