"""Break-it switches: each bug gives the wrong numbers its chapter names, and is switched off after."""

import pytest

from scratchgrad import Value, blocks, bugs
from scratchgrad.nn import Neuron


def test_overwrite_gives_one_share_where_a_value_used_twice_has_two():
    a = Value(3.0, label="a")
    b = a + a
    with bugs.switched_on("overwrite"):
        b.backward()
    assert a.grad == 1.0
    b.backward()  # switched off again: the engine adds both shares
    assert a.grad == 1.0 + 2.0


def test_recursive_backward_fails_on_a_deep_chain_the_engine_handles():
    xs = [Value(float(i)) for i in range(3000)]
    loss = sum(x * x for x in xs)
    with pytest.raises(RecursionError), bugs.switched_on("recursive"):
        loss.backward()
    loss.backward()
    assert xs[3].grad == 6.0


def test_the_wrong_order_passes_gradients_before_they_are_complete():
    a = Value(2.0, label="a")
    out = (a * a) * 3.0
    with bugs.switched_on("wrong-order"):
        out.backward()
    assert a.grad == 0.0  # right: 12


def test_without_zero_grad_gradients_pile_up():
    neuron = Neuron(2, rng=0)
    with bugs.switched_on("no-zero-grad"):
        for _ in range(2):
            neuron.zero_grad()
            neuron([1.0, 2.0]).backward()
    piled = [p.grad for p in neuron.parameters()]
    neuron.zero_grad()
    neuron([1.0, 2.0]).backward()
    assert piled == pytest.approx([2 * p.grad for p in neuron.parameters()])


def test_an_unknown_bug_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown bug 'typo': the switches are overwrite, no-zero-grad"):
        bugs.switched_on("typo").__enter__()


def test_a_block_run_with_a_bug_leaves_the_page_namespace_alone():
    namespace = blocks.new_namespace()
    code = "from scratchgrad import Value\na = Value(3.0)\nb = a + a\nb.backward()\nprint(a.grad)\n"
    outcome = blocks.run_block(code, "<p block 1>", namespace, capture=True, bug="overwrite")
    assert outcome.printed == "1.0\n"
    assert "a" not in namespace
    assert blocks.run_block(code, "<p block 1>", namespace, capture=True).printed == "2.0\n"
