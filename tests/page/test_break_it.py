"""Break-it switches: each bug gives the wrong numbers its chapter names, and is switched off after."""

import contextlib

import pytest

from scratchgrad import Value
from scratchgrad.nn import Neuron
from scratchgrad.page import blocks, break_it
from scratchgrad.stages import closures


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


@pytest.mark.parametrize("name", ["overwrite", "recursive", "wrong-order"])
def test_a_switch_patches_no_value_class(name):
    classes = [Value, closures.Value]
    before = [dict(cls.__dict__) for cls in classes]
    with break_it.switched_on(name):
        assert [dict(cls.__dict__) for cls in classes] == before
