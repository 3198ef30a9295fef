"""Local gradients and the chain rule: each operation carries its own backward rule."""

import math

from scratchgrad.exercises.blame import rule_line
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import neuron
from scratchgrad.exercises.oracle import children, close, require_close, require_gradients, value_of
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)
N = 0.8813735870195432  # tanh(N) = 1/√2, so 1 − tanh(N)² = ½


def _rule(engine: Engine, a_data: float, b_data: float, symbol: str, out_grad: float) -> tuple:
    """a.grad and b.grad after out = a + b (or a * b) runs its rule once, and where each was written."""
    a, b = engine.Value(a_data), engine.Value(b_data)
    out = a + b if symbol == "+" else a * b
    out.grad = out_grad
    out._backward()
    return a.grad, b.grad, _line(out, a), _line(out, b)


def _line(out: object, child: object) -> str:
    """Where the reader's rule of `out` sets `child`'s grad: " (your code for …, line N: `…`)", or ""."""
    return rule_line(getattr(out, "_backward", None), child) or ""


@EXERCISE.check("a Value starts with grad 0 and a _backward")
def _fresh(engine: Engine) -> str:
    a = engine.Value(1.0)
    if getattr(a, "grad", None) != 0:
        raise Fail(f"Value(1.0).grad should be 0; yours is {written(getattr(a, 'grad', None))}")
    if not callable(getattr(a, "_backward", None)):
        raise Fail("Value(1.0)._backward should be a function that does nothing; yours has none")
    a._backward()
    return "grad 0.0, and a _backward that does nothing"


@EXERCISE.check("a + b passes out.grad to both")
def _add(engine: Engine) -> str:
    ga, gb, line_a, line_b = _rule(engine, 2.0, -3.0, "+", 1.5)
    require_close(ga, 1.5, "with out = a + b and out.grad = 1.5, a.grad after out._backward()", line_a)
    require_close(gb, 1.5, "with out = a + b and out.grad = 1.5, b.grad after out._backward()", line_b)
    return "d(a+b)/da = d(a+b)/db = 1, times out.grad"


@EXERCISE.check("a * b gives each the other, times out.grad")
def _mul(engine: Engine) -> str:
    ga, gb, line_a, line_b = _rule(engine, 2.0, -3.0, "*", 1.0)
    if not close(ga, -3.0):
        raise Fail(
            f"d(a·b)/da should be b = -3.0 (a = 2, b = -3); your _backward gave a.grad = {written(ga)}"
            + line_a
        )
    if not close(gb, 2.0):
        raise Fail(
            f"d(a·b)/db should be a = 2.0 (a = 2, b = -3); your _backward gave b.grad = {written(gb)}{line_b}"
        )
    ga, gb, line_a, line_b = _rule(engine, 2.0, -3.0, "*", 2.0)
    times = " — multiply the local derivative by out.grad"
    require_close(ga, -6.0, "with out.grad = 2, a.grad = b · out.grad", line_a + times)
    require_close(gb, 4.0, "with out.grad = 2, b.grad = a · out.grad", line_b + times)
    return "a.grad = b · out.grad, b.grad = a · out.grad"


@EXERCISE.check("tanh: (1 − tanh²) × out.grad")
def _tanh(engine: Engine) -> str:
    n = engine.Value(N)
    o = n.tanh()
    require_close(value_of(o), 0.7071067811865476, "tanh(0.8814)")
    if not any(child is n for child in children(o)):
        raise Fail(
            f"o = n.tanh() should hold n among its children (_prev); yours holds {children(o)!r}"
            " — without it, backward() never reaches n"
        )
    o.grad = 2.0
    o._backward()
    from_input = close(n.grad, 2.0 * (1 - N**2))
    hint = " — is it 1 − n² of the input? It should be 1 − tanh(n)², from the output" if from_input else ""
    what = "with o = tanh(n) at n = 0.8814 and o.grad = 2, n.grad = (1 − o²)·2"
    require_close(n.grad, 1.0, what, _line(o, n) + hint)
    return "tanh(0.8814) = 0.707107, and n.grad = (1 − 0.5)·2 = 1.0"


@EXERCISE.check("plain numbers: a + 1 and a * 2")
def _numbers(engine: Engine) -> str:
    a = engine.Value(3.0)
    total, product = a + 1, a * 2
    require_close(value_of(total), 4.0, "a + 1 with a = 3")
    require_close(value_of(product), 6.0, "a * 2 with a = 3")
    product.grad = 1.0
    product._backward()
    require_close(a.grad, 2.0, "d(a·2)/da (a.grad after its _backward)", _line(product, a))
    return "numbers become Values, and d(a·2)/da = 2"


@EXERCISE.check("the neuron, its rules called from o back to the inputs")
def _neuron(engine: Engine) -> str:
    def call_rules(nodes: dict) -> None:
        nodes["o"].grad = 1.0
        for node in reversed(list(nodes.values())):
            node._backward()

    return require_gradients(neuron, engine.Value, call_rules, "o = tanh(x1·w1 + x2·w2 + b)", adds=False)


@EXERCISE.check("+, * and tanh at five random points, with random out.grad")
def _random_points(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(5):
        x, y, g = (round(rng.uniform(-3, 3), 3) for _ in range(3))
        at = f"a = {written(x)}, b = {written(y)}, out.grad = {written(g)}"
        for symbol, want in (("+", (g, g)), ("*", (y * g, x * g))):
            ga, gb, line_a, line_b = _rule(engine, x, y, symbol, g)
            require_close(ga, want[0], f"with out = a {symbol} b, {at}: a.grad", line_a)
            require_close(gb, want[1], f"with out = a {symbol} b, {at}: b.grad", line_b)
        n = engine.Value(x)
        o = n.tanh()
        o.grad = g
        o._backward()
        require_close(
            n.grad,
            (1 - math.tanh(x) ** 2) * g,
            f"with o = tanh(n), n = {written(x)}, o.grad = {written(g)}: n.grad",
            _line(o, n),
        )
    return "a.grad and b.grad right for +, * and tanh at five random points"
