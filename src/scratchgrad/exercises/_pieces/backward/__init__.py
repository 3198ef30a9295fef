"""Automating backward, part 2: one call runs every rule, in the reverse of a topological order."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import (
    REUSED_NODE_GRAPHS,
    RandomGraph,
    chapter_expression,
    neuron,
    tanh_chain,
)
from scratchgrad.exercises.oracle import Builder, children, close, gradient_mismatch, graph_failure
from scratchgrad.exercises.order import order_problem
from scratchgrad.exercises.reader_stack import recursing
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _require_backward(engine: Engine, build: Builder) -> str:
    nodes = build(engine.Value)
    output_name, output = list(nodes.items())[-1]
    output.backward()
    if not close(output.grad, 1.0):
        raise Fail(
            f"d{output_name}/d{output_name} should be 1.0; your {output_name}.grad is "
            f"{written(output.grad)} — backward() starts with self.grad = 1"
        )
    problem = gradient_mismatch(build, nodes)
    if problem is None:
        return ", ".join(
            f"{name}.grad = {written(node.grad)}" for name, node in nodes.items() if not children(node)
        )
    try:  # is it the walk? The same graph, built again with recorders in place of the rules, says.
        _require_each_rule_once_in_order(engine, build, output_name)
    except Fail as walk:
        problem = f"{problem}: {walk}"
    raise graph_failure(problem, nodes, build, adds=False)  # rules may still set their share with =


def _require_each_rule_once_in_order(engine: Engine, build: Builder, what: str) -> str:
    """Replace every rule of the reader's graph with a recorder: backward() must call each once,
    after every node that uses it, with the output's gradient already 1 — whatever the rules say."""
    nodes = build(engine.Value)
    names = {id(node): name for name, node in nodes.items()}
    output_name, output = list(nodes.items())[-1]
    calls: list[str] = []
    seed: list[object] = []
    recursed: list[bool] = []

    def recorder(node: object) -> object:
        def _backward() -> None:
            calls.append(names[id(node)])
            recursed.append(recursing())
            if node is output:
                seed.append(getattr(node, "grad", None))

        return _backward

    for node in nodes.values():
        node._backward = recorder(node)
    output.backward()
    inner = [name for name, node in nodes.items() if children(node)]
    for name in inner:
        if calls.count(name) != 1:
            times = "never" if not calls.count(name) else f"{calls.count(name)} times"
            if any(recursed):  # the evidence: a function of the reader's was inside itself at a rule
                how = " — walk an order, don't recurse"
            elif not calls.count(name):
                how = ": backward() must reach every node"
            else:
                how = ""
            raise Fail(
                f"for {what}, your backward() called the rule of {name} {times} (the rules in the order "
                f"called: {', '.join(calls)}); each rule runs exactly once{how}"
                f"{_blame_order(engine, output, names)}"
            )
    if seed and not close(seed[0], 1.0):
        raise Fail(
            f"for {what}, your backward() ran {output_name}'s own rule while {output_name}.grad was "
            f"{written(seed[0])}: set self.grad = 1.0 before the loop, not after"
        )
    position = {name: calls.index(name) for name in inner}
    for name in inner:
        for child in children(nodes[name]):
            child_name = names.get(id(child))
            if child_name in position and position[child_name] < position[name]:
                raise Fail(
                    f"for {what}, your backward() ran the rule of {child_name} before the rule of {name}, "
                    f"which uses {child_name}: {child_name}'s gradient was not complete yet (the rules in "
                    f"the order called: {', '.join(calls)}) — walk the order output first"
                    f"{_blame_order(engine, output, names)}"
                )
    return f"each rule once, output first: {', '.join(calls)}"


def _blame_order(engine: Engine, output: object, names: dict[int, str]) -> str:
    """When the reader's topological_order is what went wrong, say so (it is an earlier piece)."""
    try:
        order = list(engine.topological_order(output))
    except Exception:
        return ""
    problem = order_problem(order, output, names)
    return f". The cause is earlier: your topological_order {problem}" if problem else ""


@EXERCISE.check("L = (a·b + c)·f, by L.backward()")
def _chapter(engine: Engine) -> str:
    return _require_backward(engine, chapter_expression)


@EXERCISE.check("the neuron, by o.backward()")
def _neuron(engine: Engine) -> str:
    return _require_backward(engine, neuron)


@EXERCISE.check("y = tanh(tanh(tanh(x·w))): each rule after the one above")
def _chain(engine: Engine) -> str:
    return _require_backward(engine, tanh_chain)


@EXERCISE.check("reused nodes: every rule once, after all the nodes that use it")
def _reused(engine: Engine) -> str:
    walks = [_require_each_rule_once_in_order(engine, *graph) for graph in REUSED_NODE_GRAPHS]
    return walks[-1]  # every graph's walk is checked; the last is shown


@EXERCISE.check("five random graphs with +, · and tanh: every rule once, after all that use it")
def _random_graphs(engine: Engine) -> str:
    # Only the walk is checked here: until "The += bug", rules may still set their share with =, and
    # then a node used twice has a wrong gradient whatever backward() does.
    for _ in range(5):
        graph = RandomGraph.draw(engine.rng, steps=engine.rng.randint(4, 9), ops=("+", "*", "tanh"))
        _require_each_rule_once_in_order(engine, graph, f"y in the graph {graph}")
    return "every rule once, each after the rules of all the nodes that use it"
