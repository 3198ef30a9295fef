"""Break-it switches: each bug gives the wrong numbers its chapter names, and is switched off after."""

import contextlib
import importlib
import pkgutil

import pytest

import scratchgrad
from scratchgrad import Value
from scratchgrad.losses import mse
from scratchgrad.nn import MLP, Module, Neuron
from scratchgrad.optim import SGD, Adam, Optimizer
from scratchgrad.page import blocks, break_it
from scratchgrad.stages import closures, overwrite_bug
from scratchgrad.train import fit


def test_overwrite_gives_one_share_where_a_value_used_twice_has_two():
    a = Value(3.0, label="a")
    b = a + a
    with break_it.switched_on("overwrite"):
        b.backward()
    assert a.grad == 1.0
    b.backward()  # switched off again: the engine adds both shares
    assert a.grad == 1.0 + 2.0


def test_recursive_backward_fails_on_a_deep_chain_the_engine_handles():
    xs = [Value(float(i)) for i in range(3000)]
    loss = sum(x * x for x in xs)
    with pytest.raises(RecursionError), break_it.switched_on("recursive"):
        loss.backward()
    loss.backward()
    assert xs[3].grad == 6.0


def diamond(value_class):
    """The graph of "Why the order matters": L = d·e with d = e + c and e = a·b."""
    a, b, c = value_class(2.0, label="a"), value_class(-3.0, label="b"), value_class(10.0, label="c")
    e = a * b
    e.label = "e"
    d = e + c
    d.label = "d"
    out = d * e
    out.label = "L"
    return a, b, c, e, out


@pytest.mark.parametrize("value_class", [Value, closures.Value], ids=["package", "closure stage"])
def test_the_wrong_order_passes_e_on_before_d_has_sent_its_share(value_class):
    a, b, c, e, out = diamond(value_class)
    with break_it.switched_on("wrong-order"):
        out.backward()
    # the chapter's numbers: a and b are handed e's gradient from L alone (4), not the whole −2
    assert (a.grad, b.grad, c.grad, e.grad) == (-12.0, 8.0, -6.0, -2.0)
    a, b, c, e, out = diamond(value_class)
    out.backward()  # switched off again
    assert (a.grad, b.grad, c.grad, e.grad) == (6.0, -4.0, -6.0, -2.0)


def test_the_wrong_order_is_the_same_whatever_order_a_stage_keeps_children_in():
    walks = set()
    for _ in range(20):  # a set of Values iterates in the order of their addresses: make new ones
        a, b, _, _, out = diamond(closures.Value)
        with break_it.switched_on("wrong-order"):
            out.backward()
        walks.add((a.grad, b.grad))
    assert walks == {(-12.0, 8.0)}


def test_the_closure_stage_is_recursive_with_or_without_the_switch():
    xs = [closures.Value(float(i)) for i in range(3000)]
    loss = sum(x * x for x in xs)
    for switch in (break_it.switched_on("recursive"), contextlib.nullcontext()):
        with pytest.raises(RecursionError), switch:
            loss.backward()


def test_without_zero_grad_gradients_pile_up():
    neuron = Neuron(2, rng=0)
    with break_it.switched_on("no-zero-grad"):
        for _ in range(2):
            neuron.zero_grad()
            neuron([1.0, 2.0]).backward()
    piled = [p.grad for p in neuron.parameters()]
    neuron.zero_grad()
    neuron([1.0, 2.0]).backward()
    assert piled == pytest.approx([2 * p.grad for p in neuron.parameters()])


def _training_steps(zero_grad: bool, steps: int = 4) -> tuple[list[float], list[list[float]]]:
    """`steps` steps of the Training page's loop (model, SGD, mse on its four points), with or
    without its two ``zero_grad()`` calls: each step's loss, and every parameter's gradient after it."""
    model = MLP(3, [4, 4, 1], rng=0)
    optimizer = SGD(model.parameters(), lr=0.2)
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    losses, grads = [], []
    for _ in range(steps):
        if zero_grad:
            model.zero_grad()
            optimizer.zero_grad()
        loss = mse([model(x) for x in xs], ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.data)
        grads.append([p.grad for p in model.parameters()])
    return losses, grads


def test_the_no_zero_grad_switch_trains_exactly_as_a_loop_without_zero_grad():
    with break_it.switched_on("no-zero-grad"):
        switched = _training_steps(zero_grad=True)
    assert switched == _training_steps(zero_grad=False)  # every loss and gradient, to the last bit
    assert switched != _training_steps(zero_grad=True)


def test_the_no_zero_grad_switch_gives_fit_the_losses_of_a_loop_without_zero_grad():
    model, xs, ys = MLP(3, [4, 4, 1], rng=0), [[2.0, 3.0, -1.0], [0.5, 1.0, 1.0]], [1.0, -1.0]
    with break_it.switched_on("no-zero-grad"):
        history = fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.2), steps=5)
    model = MLP(3, [4, 4, 1], rng=0)
    optimizer, losses = SGD(model.parameters(), lr=0.2), []
    for _ in range(5):
        loss = mse([model(x) for x in xs], ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.data)
    assert history.loss == losses


def test_the_no_zero_grad_switch_forgets_only_the_zeroing_between_its_own_steps():
    neuron = Neuron(2, rng=0)
    for _ in range(2):
        with break_it.switched_on("no-zero-grad"):
            neuron.zero_grad()
            neuron([1.0, 2.0]).backward()
        once = [p.grad for p in neuron.parameters()]
    neuron.zero_grad()
    neuron([1.0, 2.0]).backward()
    assert once == [p.grad for p in neuron.parameters()]


def test_an_unknown_bug_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown bug 'typo': the switches are overwrite, no-zero-grad"):
        break_it.switched_on("typo").__enter__()


def test_a_block_run_with_a_bug_leaves_the_page_namespace_alone():
    namespace = blocks.new_namespace()
    code = "from scratchgrad import Value\na = Value(3.0)\nb = a + a\nb.backward()\nprint(a.grad)\n"
    outcome = blocks.run_block(code, "<p block 1>", namespace, capture=True, bug="overwrite")
    assert outcome.printed == "1.0\n"
    assert "a" not in namespace
    assert blocks.run_block(code, "<p block 1>", namespace, capture=True).printed == "2.0\n"


def _the_packages_classes() -> set[type]:
    """Every class of the package's top-level modules and of the story's stages the switches use."""
    names = [f"scratchgrad.{module.name}" for module in pkgutil.iter_modules(scratchgrad.__path__)]
    modules = [*map(importlib.import_module, names), closures, overwrite_bug]
    found = (cls for module in modules for cls in vars(module).values() if isinstance(cls, type))
    return {cls for cls in found if cls.__module__.startswith("scratchgrad.")}


@pytest.mark.parametrize("name", list(break_it.BUGS))
def test_a_switch_patches_no_class(name):
    classes = _the_packages_classes()
    assert {Value, Module, Neuron, MLP, Optimizer, SGD, Adam, closures.Value, overwrite_bug.Value} <= classes
    before = {cls: dict(cls.__dict__) for cls in classes}
    with break_it.switched_on(name):
        model = MLP(2, [2, 1], rng=0)
        model.zero_grad()
        SGD(model.parameters(), lr=0.1).zero_grad()
        model([1.0, 2.0]).backward()
        assert {cls: dict(cls.__dict__) for cls in classes} == before
