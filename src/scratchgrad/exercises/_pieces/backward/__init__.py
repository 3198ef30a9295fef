"""Automating backward, part 2: one call runs every rule, in the reverse of a topological order."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail, num
from scratchgrad.exercises.expressions import chapter_expression, neuron, tanh_chain
from scratchgrad.exercises.oracle import Builder, children, close, gradient_mismatch, graph_failure

EXERCISE = Exercise.load(__name__)


def _require_backward(engine: Engine, build: Builder) -> str:
    nodes = build(engine.Value)
    output_name, output = list(nodes.items())[-1]
    output.backward()
    if not close(output.grad, 1.0):
        raise Fail(
            f"d{output_name}/d{output_name} should be 1.0; your {output_name}.grad is "
            f"{num(output.grad)} — backward() starts with self.grad = 1"
        )
    problem = gradient_mismatch(build, nodes)
    if problem is None:
        return ", ".join(
            f"{name}.grad = {num(node.grad)}" for name, node in nodes.items() if not children(node)
        )
    if problem.endswith(" is 0.0"):
        problem += " — was its _backward called before its own gradient arrived? Walk the order output first"
    raise graph_failure(problem, nodes)


@EXERCISE.check("L = (a·b + c)·f, by L.backward()")
def _chapter(engine: Engine) -> str:
    return _require_backward(engine, chapter_expression)


@EXERCISE.check("the neuron, by o.backward()")
def _neuron(engine: Engine) -> str:
    return _require_backward(engine, neuron)


@EXERCISE.check("y = tanh(tanh(tanh(x·w))): each rule after the one above")
def _chain(engine: Engine) -> str:
    return _require_backward(engine, tanh_chain)
