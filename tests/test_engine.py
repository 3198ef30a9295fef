"""The Value engine: seed facts, operator coverage, errors, deep graphs."""

import copy
import gc
import math
import pickle
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scratchgrad import Value, engine
from scratchgrad.datasets import four_points
from scratchgrad.engine import _order_for_backward, backward_in_topological_order, topological_order
from scratchgrad.gradcheck import check_gradients
from scratchgrad.losses import mse
from scratchgrad.nn import MLP
from strategies import away_from_zero, gradient_examples, positives, reals


def test_repr_shows_data_and_grad_to_four_places():
    v = Value(4.0)
    v.grad = 1.0
    assert repr(v) == "Value(data=4.0000, grad=1.0000)"


def test_gradient_accumulates_over_reused_value():
    a = Value(3.0)
    b = a + a
    b.backward()
    assert a.grad == 2.0


def test_partial_derivatives_of_ab_plus_c():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    d = a * b + c
    d.backward()
    assert (d.data, a.grad, b.grad, c.grad) == (4.0, -3.0, 2.0, 1.0)


def test_seed_tanh_neuron_gradients():
    x1, x2, w1, w2 = Value(2.0), Value(0.0), Value(-3.0), Value(1.0)
    b = Value(6.8813735870195432)
    o = (x1 * w1 + x2 * w2 + b).tanh()
    o.backward()
    assert o.data == pytest.approx(math.sqrt(0.5), abs=1e-12)
    assert x1.grad == pytest.approx(-1.5)
    assert w1.grad == pytest.approx(1.0)
    assert x2.grad == pytest.approx(0.5)
    assert w2.grad == 0.0


def test_tanh_from_exp_matches_tanh_gradients():
    def neuron(tanh):
        x1, x2, w1, w2 = Value(2.0), Value(0.0), Value(-3.0), Value(1.0)
        n = x1 * w1 + x2 * w2 + Value(6.8813735870195432)
        tanh(n).backward()
        return [v.grad for v in (x1, x2, w1, w2)]

    def tanh_from_exp(n):
        e = (2 * n).exp()
        return (e - 1) / (e + 1)

    assert neuron(tanh_from_exp) == pytest.approx(neuron(Value.tanh), abs=1e-12)


def test_second_backward_without_zeroing_doubles_gradients():
    a = Value(3.0)
    b = a * 2
    b.backward()
    b.backward()
    assert a.grad == 4.0


# -- repeated backward passes: PyTorch's rules -----------------------------------


def test_second_backward_through_an_interior_node_gives_leaves_exactly_twice():
    x = Value(1.5)
    y = x * 2
    z = y * 3
    z.backward()
    assert (x.grad, y.grad, z.grad) == (6.0, 3.0, 1.0)
    z.backward()
    assert x.grad == 12.0  # micrograd's design gives 18: y's 3 from the first pass is pushed again
    assert (y.grad, z.grad) == (3.0, 1.0)  # in between: this pass's gradient; the root: its seed


def test_each_pass_gives_interior_nodes_only_their_own_shares():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    ab = a * b
    d = ab + c + ab  # ab is used twice: two shares per pass
    for passes in (1, 2, 3):
        d.backward()
        assert ab.grad == 2.0
        assert (a.grad, b.grad, c.grad) == (2 * b.data * passes, 2 * a.data * passes, 1.0 * passes)


def test_zero_grad_then_backward_repeats_the_first_pass_exactly():
    model = MLP(3, [4, 4, 1], rng=0)
    xs, ys = four_points()
    loss = mse([model(x) for x in xs], ys)
    loss.backward()
    first = [p.grad for p in model.parameters()]
    model.zero_grad()
    loss.backward()
    assert [p.grad for p in model.parameters()] == first


def test_backward_on_an_intermediate_node_then_on_the_root():
    x = Value(1.5)
    y = x * 2
    z = y * 3
    y.backward()
    assert (x.grad, y.grad) == (2.0, 1.0)
    z.backward()
    assert (x.grad, y.grad, z.grad) == (2.0 + 6.0, 3.0, 1.0)  # PyTorch: the same 8 in x.grad


def test_backward_on_a_leaf_accumulates_its_seed():
    x = Value(4.0)
    x.backward()
    x.backward()
    assert x.grad == 2.0  # as torch.tensor(4.0, requires_grad=True).backward() twice


# -- NaN, infinities and signed zeros --------------------------------------------


def test_relu_of_nan_is_nan_and_passes_the_gradient_on_as_pytorch_does():
    a = Value(math.nan)
    r = a.relu()
    r.backward()
    assert math.isnan(r.data)
    assert a.grad == 1.0


@pytest.mark.parametrize(
    ("x", "out", "slope"), [(math.inf, math.inf, 1.0), (-math.inf, 0.0, 0.0), (0.0, 0.0, 0.0)]
)
def test_relu_at_infinities_and_zero(x, out, slope):
    a = Value(x)
    r = a.relu()
    r.backward()
    assert (r.data, a.grad) == (out, slope)


def test_relu_of_negative_zero_keeps_its_sign():
    assert math.copysign(1.0, Value(-0.0).relu().data) == -1.0  # max(-0.0, 0) in IEEE 754 and PyTorch


@pytest.mark.parametrize(
    "op", [Value.tanh, Value.sigmoid, Value.exp, Value.log, lambda a: a * 2 + 1, lambda a: a**2]
)
def test_nan_in_gives_nan_out(op):
    assert math.isnan(op(Value(math.nan)).data)


# -- micrograd's spellings ---------------------------------------------------------


def test_micrograds_constructor_call_is_refused_with_the_right_call():
    a, b = Value(1.0), Value(2.0)
    with pytest.raises(TypeError, match="label") as refused:
        Value(3.0, (a, b), "+")
    message = str(refused.value)
    assert "label=(" in message
    assert 'Value(3.0, label="c")' in message
    assert "write a + b" in message


@pytest.mark.parametrize("label", [None, 3, ["a"]])
def test_a_label_that_is_not_a_string_is_refused_at_construction(label):
    with pytest.raises(TypeError, match=re_escape(f"label={label!r}")):
        Value(1.0, label)


def test_prev_is_a_read_only_view_of_children():
    a, b = Value(1.0), Value(2.0)
    c = a * b
    assert c._prev == c.children == (a, b)
    assert a._prev == ()
    with pytest.raises(AttributeError):
        c._prev = ()


def test_micrograds_drawing_walk_runs_on_the_engine():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    d = (a * b + 10).relu()
    nodes, edges = trace(d)
    assert len(nodes) == 5
    assert len(edges) == 4
    assert {(child._op, parent._op) for child, parent in edges} == {
        ("*", "+ 10"),
        ("", "*"),
        ("+ 10", "relu"),
    }


def trace(root):
    """micrograd's `trace` from its demo notebook, unchanged."""
    nodes, edges = set(), set()

    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)

    build(root)
    return nodes, edges


# -- copying and pickling ------------------------------------------------------------

CHAIN_LENGTH = 10_000


def chain(length=CHAIN_LENGTH):
    """x0 * 1.0001 * 1.0001 ..., `length` times, after one backward pass: (x0, the output)."""
    first = x = Value(1.0, label="x0")
    for _ in range(length):
        x = x * 1.0001
    x.backward()
    return first, x


def first_input(node):
    while node.children:
        node = node.children[0]
    return node


def assert_same_graph(copy_, original):
    ours, theirs = topological_order(copy_), topological_order(original)
    assert len(ours) == len(theirs)
    assert not {id(v) for v in ours} & {id(v) for v in theirs}
    for mine, their in zip(ours, theirs, strict=True):
        assert (mine.data, mine.grad, mine.label, mine.op, mine._local_grads) == (
            their.data,
            their.grad,
            their.label,
            their.op,
            their._local_grads,
        )


def test_deepcopy_of_a_10000_node_chain_copies_every_node():
    first, x = chain()
    copied = copy.deepcopy(x)
    assert_same_graph(copied, x)
    copied.backward()  # the copy is a graph of its own: only its input accumulates
    assert first_input(copied).grad == 2 * first.grad
    assert first.grad == pytest.approx(1.0001**CHAIN_LENGTH)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_of_a_10000_node_chain_works_in_every_protocol(protocol):
    _, x = chain()
    assert_same_graph(pickle.loads(pickle.dumps(x, protocol=protocol)), x)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_models_parameters_pickle_and_copy_with_the_model(protocol):
    model = MLP(3, [4, 4, 1], rng=0)
    for restored in (pickle.loads(pickle.dumps(model, protocol=protocol)), copy.deepcopy(model)):
        assert [p.data for p in restored.parameters()] == [p.data for p in model.parameters()]
        assert restored([1.0, 2.0, 3.0]).data == model([1.0, 2.0, 3.0]).data


def test_values_shared_by_a_graph_and_a_list_stay_shared_after_pickling():
    a, b = Value(2.0), Value(3.0)
    c = a * b + a
    for objects in ([a, c], [c, a]):
        restored = pickle.loads(pickle.dumps(objects))
        restored_a, restored_c = restored if objects[0] is a else restored[::-1]
        product, reused = restored_c.children
        assert product.children[0] is restored_a
        assert reused is restored_a


def test_copy_copy_shares_the_children():
    a, b = Value(2.0), Value(3.0)
    c = a * b
    shallow = copy.copy(c)
    assert shallow is not c
    assert shallow.children[0] is a
    assert (shallow.data, shallow.op) == (c.data, c.op)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        (lambda v: 2 - v, -1.0),
        (lambda v: v - 2, 1.0),
        (lambda v: 1 / v, 0.5 * 0 + 1 / 3),
        (lambda v: v / 2, 1.5),
        (lambda v: 2**v, 8.0),
        (lambda v: v**2, 9.0),
        (lambda v: -v, -3.0),
        (lambda v: 2 * v, 6.0),
        (lambda v: 2 + v, 5.0),
    ],
)
def test_plain_numbers_work_on_either_side(expression, expected):
    assert expression(Value(3.0)).data == pytest.approx(expected)


def test_value_power_value_differentiates_both():
    a, b = Value(2.0), Value(3.0)
    c = a**b
    c.backward()
    assert c.data == 8.0
    assert a.grad == pytest.approx(12.0)  # b * a**(b-1)
    assert b.grad == pytest.approx(8.0 * math.log(2.0))  # a**b * ln a


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Value("abc"), TypeError, "str 'abc'"),
        (lambda: Value(None), TypeError, "NoneType None"),
        (lambda: Value([1]), TypeError, "list [1]"),
        (lambda: Value(-1.0).log(), ValueError, "log(-1)"),
        (lambda: Value(0.0).log(), ValueError, "log(0)"),
        (lambda: Value(0.0) ** -1, ZeroDivisionError, "0 ** -1"),
        (lambda: Value(-2.0) ** Value(0.5), ValueError, "-2 ** Value(0.5)"),
        (lambda: (-2) ** Value(0.5), ValueError, "-2 ** Value(0.5)"),
        (lambda: Value(-8.0) ** 0.5, ValueError, "-8 ** 0.5"),
        (lambda: Value(1.0) / 0, ZeroDivisionError, "1 / 0"),
        (lambda: Value(1.0) / Value(0.0), ZeroDivisionError, "1 / 0"),
        (lambda: 1 / Value(0.0), ZeroDivisionError, "1 / 0"),
        (lambda: Value(1.0) + "x", TypeError, "for +: Value and str 'x'"),
        (lambda: Value(1.0) * [2], TypeError, "for *: Value and list [2]"),
        (lambda: Value(1.0, "", (Value(2.0),), ("x",), "f"), TypeError, "local derivatives, got str 'x'"),
    ],
)
def test_bad_input_raises_error_naming_the_problem(make, error, words):
    with pytest.raises(error, match=re_escape(words)):
        make()


def re_escape(text):
    import re

    return re.escape(text)


def test_extreme_inputs_stay_finite_where_the_truth_is():
    big = Value(1000.0)
    t = big.tanh()
    t.backward()
    assert (t.data, big.grad) == (1.0, 0.0)
    s = Value(-1000.0).sigmoid()
    assert s.data == 0.0
    assert Value(1000.0).sigmoid().data == 1.0
    assert Value(1000.0).exp().data == math.inf
    assert (Value(-10.0) ** 401).data == -math.inf


def test_relu_passes_gradient_only_when_positive():
    a, b = Value(2.0), Value(-2.0)
    (a.relu() + b.relu()).backward()
    assert (a.grad, b.grad) == (1.0, 0.0)


def test_a_zero_gradient_still_carries_nan_through_an_infinite_local_derivative():
    x = Value(0.0)
    root = x**0.5  # d/dx = inf at 0
    (root * 0.0).backward()  # root.grad is 0, and 0 * inf is NaN, as in PyTorch
    assert root.grad == 0.0
    assert math.isnan(x.grad)


def test_a_relu_that_is_off_still_passes_nan_from_an_infinite_gradient():
    a = Value(-1.0)
    (a.relu() * math.inf).backward()  # the relu's local derivative is 0, its gradient inf: 0 * inf
    assert math.isnan(a.grad)


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60), st.sampled_from("+*rz")), min_size=1, max_size=40
    ),
    st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, math.inf, -math.inf, math.nan]), min_size=4, max_size=4),
)
def test_backward_gives_the_taught_walks_gradients(steps, inputs):
    """The same gradients, bit for bit (NaN where NaN), as the taught sort and walk over every edge.

    Graphs with zero shares skipped (`* 0`, ReLUs that are off), reused nodes, and zeros,
    infinities and NaN among the inputs, so that 0 · inf must still reach the leaves as NaN.
    """
    _assert_backward_gives_the_taught_walks_gradients(steps, inputs)


def _assert_backward_gives_the_taught_walks_gradients(steps, inputs) -> None:
    def build() -> tuple[list[Value], Value]:
        leaves = [Value(x) for x in inputs]
        nodes = list(leaves)
        for i, j, op in steps:
            a, b = nodes[i % len(nodes)], nodes[j % len(nodes)]
            nodes.append(a + b if op == "+" else a * b if op == "*" else a.relu() if op == "r" else a * 0.0)
        return leaves, nodes[-1]

    (leaves, root), (reference_leaves, reference_root) = build(), build()
    root.backward()
    backward_in_topological_order(reference_root)
    assert [repr(v.grad) for v in leaves] == [repr(v.grad) for v in reference_leaves]  # -0.0 and nan too


def test_topological_order_lists_children_before_parents():
    a, b = Value(1.0), Value(2.0)
    c = a * b
    d = c + a
    order = topological_order(d)
    assert order[-1] is d
    position = {id(v): i for i, v in enumerate(order)}
    assert all(position[id(child)] < position[id(v)] for v in order for child in v.children)
    assert len(order) == 4


@given(
    st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 50), st.sampled_from("+*r")), min_size=1, max_size=40
    )
)
def test_backward_sorts_into_the_same_order_as_topological_order(steps):
    """`backward()`'s one-stack sort lists the graph exactly as the taught two-stack `topological_order`."""
    nodes = [Value(1.0), Value(2.0), Value(-1.0)]
    for i, j, op in steps:
        a, b = nodes[i % len(nodes)], nodes[j % len(nodes)]
        nodes.append(a + b if op == "+" else a * b if op == "*" else a.relu())
    assert _order_for_backward(nodes[-1]) == (topological_order(nodes[-1]), [])


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60), st.sampled_from("+*rz")), min_size=1, max_size=40
    ),
    st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 1.0, -1.0, 3.0]), min_size=4, max_size=4),
)
def test_backward_gives_the_taught_walks_gradients_on_finite_graphs_where_it_prunes(steps, inputs):
    """Finite inputs: the graphs where `backward()` skips what lies below a ReLU that is off."""
    _assert_backward_gives_the_taught_walks_gradients(steps, inputs)


MADE_BY = {
    "+": lambda a, b: a + b,
    "*": lambda a, b: a * b,
    "r": lambda a, _: a.relu(),
    "z": lambda a, _: a * 0.0,
    "t": lambda a, _: a.tanh(),
}
OPS = "".join(MADE_BY)


def _graph(inputs: list[float], steps: list[tuple[int, int, str]]) -> list[Value]:
    """Leaves then one node per step: +, *, relu, times 0 (a node that passes nothing on), tanh."""
    nodes = [Value(x) for x in inputs]
    for i, j, op in steps:
        a, b = nodes[i % len(nodes)], nodes[j % len(nodes)]
        nodes.append(MADE_BY[op](a, b))
    return nodes


@given(
    inputs=st.lists(
        st.sampled_from([0.0, 1.5, -2.0, 1.0, -1.0, 1e200, -1e300, math.inf, math.nan]),
        min_size=3,
        max_size=3,
    ),
    steps=st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60), st.sampled_from(OPS)), min_size=2, max_size=30
    ),
    outputs=st.lists(st.integers(3, 40), min_size=1, max_size=4),
)
def test_every_gradient_after_several_passes_is_what_the_taught_walk_gives(inputs, steps, outputs):
    """Passes from several outputs of one graph, one after the other (pruned or not, ReLUs on or off,
    infinities and NaN): after each, every Value, leaves and the Values in between alike, holds
    what the taught walk gives on a copy of the same graph that took the same passes."""
    nodes, taught = _graph(inputs, steps), _graph(inputs, steps)
    for output in outputs:
        nodes[output % len(nodes)].backward()
        backward_in_topological_order(taught[output % len(taught)])
        assert [repr(v.grad) for v in nodes] == [repr(v.grad) for v in taught]  # -0.0 and nan too


def test_a_value_in_between_is_reset_by_a_pass_that_reaches_it_only_through_a_relu_that_is_off():
    x = Value(1.0)
    h = x * 2
    (h * 3).backward()
    assert h.grad == 3.0
    (h - 5).relu().backward()  # the ReLU is off: this pass gives h nothing, so h.grad is 0 again
    assert (h.grad, x.grad) == (0.0, 6.0)


def test_backward_does_no_arithmetic_below_a_relu_that_is_off():
    w = Value(3.0)
    below = Value(2.0, "", (w,), (5.0,), "f")
    (below * 7.0).backward()  # an earlier pass gives it 7.0, and w 35.0
    below._local_grads = _NeverMultiplied((5.0,))  # only the ReLU that is off leads to it
    off = (below * -1.0).relu()
    x = Value(4.0)
    (off + x * 2.0).backward()
    assert (x.grad, w.grad, below.grad) == (2.0, 35.0, 0.0)


def test_a_gradient_written_by_hand_below_a_relu_that_is_off_stays_whatever_else_is_alive():
    def run() -> float:
        h = Value(1.0) * 2
        h.grad = 7.0  # by hand: no pass gave it
        (h - 5).relu().backward()
        return h.grad

    alone = run()
    elsewhere = Value(1.0) * 2
    elsewhere.backward()  # a Value a pass gave a gradient, alive beside the next run
    assert (alone, run()) == (7.0, 7.0)


def test_a_dropped_graph_leaves_no_mark_behind():
    x = Value(1.0)
    out = (x * 2).relu() * 3
    out.backward()
    assert out.op == "* 3"  # marked: the same text, in the slot it always had
    mark = weakref.ref(out._op)
    del out
    gc.collect()
    assert mark() is None


def test_two_passes_marks_of_one_op_text_are_kept_apart():
    first = Value(1.0) * 2
    first.backward()  # a mark of "* 2", dropped below
    x = Value(1.0)
    h = x * 2
    (h * 3).backward()  # another mark of "* 2": an equal string, another mark
    del first
    gc.collect()
    assert any(mark is h._op for mark in engine._MARKED.values())
    (h - 5).relu().backward()
    assert (h.grad, x.grad) == (0.0, 6.0)


@pytest.mark.parametrize("copy_of", [copy.deepcopy, lambda graph: pickle.loads(pickle.dumps(graph))])
def test_a_copied_graph_keeps_its_earlier_passes_gradients_marked(copy_of):
    x = Value(1.0)
    h = x * 2
    (h * 3).backward()
    h, x, off = copy_of([h, x, (h - 5).relu()])
    gc.collect()
    off.backward()
    assert (h.grad, x.grad) == (0.0, 6.0)


class _NeverMultiplied(tuple):
    """Local derivatives that may be looked at but refuse to be multiplied by a gradient."""

    def __iter__(self):
        raise AssertionError("backward() walked a node that no gradient can reach")


def test_an_infinite_gradient_on_a_relu_that_is_off_still_reaches_its_inputs_as_nan():
    def build():
        a = Value(-1.0)
        b = a * 3.0
        return (
            a,
            b.relu() * 1e300 * 1e300,
        )  # finite local derivatives, but the relu's gradient overflows to inf

    (a, root), (reference_a, reference_root) = build(), build()
    root.backward()
    backward_in_topological_order(reference_root)
    assert math.isnan(a.grad)
    assert math.isnan(reference_a.grad)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Value(0.0) ** 0.5,  # d/dx = inf at 0
        lambda: Value(5e-324).log(),  # 1 / x overflows
        lambda: Value(2.0) * math.inf,
        lambda: Value(1.0, "", (Value(2.0),), (math.nan,), "f"),
        lambda: MLP(1, [1], rng=0)([math.inf]),
    ],
)
def test_a_node_with_an_infinite_local_derivative_is_marked_and_the_pass_below_it_is_the_taught_one(make):
    """Reached only through ReLUs that are off, such a node receives 0, and 0 · inf is NaN."""
    grads = []
    for walk in (Value.backward, backward_in_topological_order):
        node = make()
        assert type(node._local_grads) is engine.NonFiniteLocalGrads
        root = (node * -1.0).relu() * 0.0 + (node * 0.0).relu()  # every path to it passes nothing on
        walk(root)
        grads.append([repr(v.grad) for v in topological_order(root)])
    assert grads[0] == grads[1]


def test_finite_values_are_not_marked():
    x = Value(2.0)
    loss = mse([MLP(2, [4, 1], rng=0)([x, x * 3.0])], [1.0]) + (x**2).log() + x.exp() / (x + 1.0)
    assert not any(type(v._local_grads) is engine.NonFiniteLocalGrads for v in topological_order(loss))


def test_marked_local_derivatives_pickle_and_copy_as_they_are():
    node = Value(0.0) ** 0.5
    assert type(pickle.loads(pickle.dumps(node))._local_grads) is engine.NonFiniteLocalGrads
    assert type(copy.deepcopy(node)._local_grads) is engine.NonFiniteLocalGrads


def test_watch_sees_every_node_of_the_walk_once_in_the_order_it_is_walked():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * b
    d = c + a
    seen = []
    d.backward(watch=lambda node: seen.append((node, node.grad)))
    assert [node for node, _ in seen] == list(reversed(topological_order(d)))
    assert dict(seen) == {d: 1.0, c: 1.0, a: -3.0 + 1.0, b: 2.0}  # each as its visit finds it: all shares in


def test_a_node_whose_children_and_local_derivatives_do_not_pair_up_is_refused():
    a, b = Value(1.0), Value(2.0)
    with pytest.raises(ValueError, match="one local derivative per child: got 2 children and 1 local"):
        Value(3.0, "", (a, b), (1.0,), "+")


def test_million_node_chain_builds_backprops_and_frees():
    x = first = Value(1.0)
    for _ in range(1_000_000):
        x = x * 1.0001
    x.backward()
    assert first.grad == pytest.approx(1.0001**1_000_000, rel=1e-9)
    del x
    gc.collect()


# -- every op's gradient equals central differences over the op's domain ------

UNARY_OPS = {
    "-a": (lambda a: -a, reals()),
    "a + 2.5": (lambda a: a + 2.5, reals()),
    "2.5 + a": (lambda a: 2.5 + a, reals()),
    "a - 2.5": (lambda a: a - 2.5, reals()),
    "2.5 - a": (lambda a: 2.5 - a, reals()),
    "a * -1.5": (lambda a: a * -1.5, reals()),
    "-1.5 * a": (lambda a: -1.5 * a, reals()),
    "a / 4": (lambda a: a / 4, reals()),
    "3 / a": (lambda a: 3 / a, away_from_zero(margin=0.2)),
    "a ** 3": (lambda a: a**3, reals()),
    "a ** -2": (lambda a: a**-2, away_from_zero(margin=0.2)),
    "a ** 0.5": (lambda a: a**0.5, positives),
    "a ** 0": (lambda a: a**0, reals()),
    "2 ** a": (lambda a: 2**a, reals()),
    "0.3 ** a": (lambda a: 0.3**a, reals()),
    "exp": (Value.exp, reals(-10, 10)),
    "log": (Value.log, positives),
    "tanh": (Value.tanh, reals()),
    "sigmoid": (Value.sigmoid, reals(-10, 10)),
    "relu": (Value.relu, away_from_zero()),
    "a * a + a (reuse)": (lambda a: a * a + a, reals()),
}


@pytest.mark.parametrize("name", UNARY_OPS)
@gradient_examples
@given(data=st.data())
def test_unary_op_gradient_equals_central_difference(name, data):
    op, domain = UNARY_OPS[name]
    check_gradients(op, [data.draw(domain)])


BINARY_OPS = {
    "a + b": (lambda a, b: a + b, reals(), reals()),
    "a - b": (lambda a, b: a - b, reals(), reals()),
    "a * b": (lambda a, b: a * b, reals(), reals()),
    "a / b": (lambda a, b: a / b, reals(), away_from_zero(margin=0.2)),
    "a ** b": (lambda a, b: a**b, positives, reals(-3, 3)),
    "(a * b).tanh() + a.exp() / b": (lambda a, b: (a * b).tanh() + a.exp() / b, reals(-3, 3), positives),
}


@pytest.mark.parametrize("name", BINARY_OPS)
@gradient_examples
@given(data=st.data())
def test_binary_op_gradient_equals_central_difference(name, data):
    op, a_domain, b_domain = BINARY_OPS[name]
    check_gradients(op, [data.draw(a_domain), data.draw(b_domain)])


@gradient_examples
@given(x=away_from_zero(-3, 3, margin=0.2), n=st.integers(-4, 5))
def test_negative_base_with_whole_exponent_differentiates(x, n):
    check_gradients(lambda a: a**n, [x])


@gradient_examples
@given(x=positives, n=reals(-3, 3))
def test_any_real_exponent_of_a_positive_base_differentiates(x, n):
    check_gradients(lambda a: a**n, [x])


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Value(1.0) ** "2", "for **: Value and str '2'"),
        (lambda: "2" ** Value(1.0), "for **: Value and str '2'"),
        (lambda: Value(1.0) - None, "for -: Value and NoneType None"),
        (lambda: "x" - Value(1.0), "for -: Value and str 'x'"),
        (lambda: "x" / Value(2.0), "for /: Value and str 'x'"),
        (lambda: "x" / Value(0.0), "for /: Value and str 'x'"),
    ],
)
def test_more_bad_operands_raise_type_errors(make, words):
    with pytest.raises(TypeError, match=re_escape(words)):
        make()


def test_a_stood_in_backward_runs_only_inside_its_block_and_thread():
    import threading

    calls = []
    x = Value(2.0)
    with engine.backward_stood_in_for(lambda value, watch: calls.append(value)):
        (x * 3).backward()
        other = threading.Thread(target=lambda: (x * 5).backward())  # another thread: the real one
        other.start()
        other.join()
    assert len(calls) == 1
    assert x.grad == 5.0
    (x * 3).backward()
    assert (len(calls), x.grad) == (1, 8.0)
