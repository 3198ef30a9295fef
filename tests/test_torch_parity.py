"""PyTorch as a second opinion: the same graphs in float64 give the same gradients to 1e-9."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missing_tools import import_or_missing
from scratchgrad import Value
from scratchgrad.gradcheck import relative_error
from scratchgrad.losses import binary_cross_entropy, hinge, mse, softmax_cross_entropy
from scratchgrad.optim import SGD, Adam
from scratchgrad.playground import micrograd_demo
from strategies import backward_passes, gradient_examples, reals, vectors


def import_torch():
    """torch, or the missing-tool rule (tests/missing_tools.py): CI installs the `torch` extra, so
    there a missing torch fails; elsewhere, and always inside Pyodide, the parity tests skip."""
    return import_or_missing("torch")


try:
    import torch
except ModuleNotFoundError:  # each test that needs it fails or skips through `import_torch`
    torch = None


@pytest.fixture
def torch_is_installed():
    import_torch()


needs_torch = pytest.mark.usefixtures("torch_is_installed")


TOLERANCE = 1e-9


def tensor(x, grad=True):
    return torch.tensor(x, dtype=torch.float64, requires_grad=grad)


def assert_close(ours, theirs):
    """Every pair agrees to TOLERANCE (relative, or absolute below 1: `relative_error`)."""
    assert len(ours) == len(theirs)
    worst = max(relative_error(a, b) for a, b in zip(ours, theirs, strict=True))
    assert worst <= TOLERANCE, f"worst relative error {worst:.3g}\nours   {ours}\ntorch  {theirs}"


def torch_grads(tensors):
    return [0.0 if t.grad is None else t.grad.item() for t in tensors]


# -- random expression graphs ---------------------------------------------------

CONSTANTS = [-2.0, -1.0, -0.5, 0.5, 2.0, 3.0]

# name -> (the op, whether it applies to these operand values); `c` is a plain-number constant.
OPS = {
    "a + b": (lambda a, b, c: a + b, lambda a, b, c: True),
    "a - b": (lambda a, b, c: a - b, lambda a, b, c: True),
    "a * b": (lambda a, b, c: a * b, lambda a, b, c: True),
    "a / b": (lambda a, b, c: a / b, lambda a, b, c: abs(b) > 0.1),
    "a ** b": (lambda a, b, c: a**b, lambda a, b, c: a > 0.1 and abs(b) < 3),
    "-a": (lambda a, b, c: -a, lambda a, b, c: True),
    "a + c": (lambda a, b, c: a + c, lambda a, b, c: True),
    "c + a": (lambda a, b, c: c + a, lambda a, b, c: True),
    "c - a": (lambda a, b, c: c - a, lambda a, b, c: True),
    "c * a": (lambda a, b, c: c * a, lambda a, b, c: True),
    "a / c": (lambda a, b, c: a / c, lambda a, b, c: True),
    "c / a": (lambda a, b, c: c / a, lambda a, b, c: abs(a) > 0.1),
    "a ** c": (lambda a, b, c: a**c, lambda a, b, c: abs(a) > 0.1 and (a > 0 or float(c).is_integer())),
    "|c| ** a": (lambda a, b, c: abs(c) ** a, lambda a, b, c: abs(a) < 10),
    "exp": (lambda a, b, c: a.exp(), lambda a, b, c: a < 10),
    "log": (lambda a, b, c: a.log(), lambda a, b, c: a > 0.1),
    "tanh": (lambda a, b, c: a.tanh(), lambda a, b, c: True),
    "sigmoid": (lambda a, b, c: a.sigmoid(), lambda a, b, c: True),
    "relu": (lambda a, b, c: a.relu(), lambda a, b, c: abs(a) > 1e-6),
}

steps = st.tuples(
    st.sampled_from(sorted(OPS)), st.integers(0, 4), st.integers(0, 4), st.sampled_from(CONSTANTS)
)


def operands(nodes, i, j):
    """Two earlier nodes, counted back from the newest: recent ones are likelier, so graphs get deep."""
    return nodes[-1 - i % len(nodes)], nodes[-1 - j % len(nodes)]


def valid_program(program, inputs):
    """`program` with each step that is outside its op's domain (or would blow up) replaced by tanh."""
    nodes, kept = [Value(x) for x in inputs], []
    for name, i, j, c in program:
        a, b = operands(nodes, i, j)
        op, applies = OPS[name]
        out = op(a, b, c) if applies(a.data, b.data, c) else None
        if out is None or not abs(out.data) < 1e3:
            name, out = "tanh", a.tanh()
        kept.append((name, i, j, c))
        nodes.append(out)
    return kept


def run(program, inputs):
    """Apply the program to the inputs (Values or tensors); the output sums the last three nodes."""
    return run_keeping_nodes(program, inputs)[-1]


def run_keeping_nodes(program, inputs):
    """Every node the program makes from the inputs (Values or tensors), the inputs first, the output last."""
    nodes = list(inputs)
    for name, i, j, c in program:
        nodes.append(OPS[name][0](*operands(nodes, i, j), c))
    last = nodes[-3:]
    return [*nodes, last[0] + last[1] + last[2] if len(last) == 3 else last[-1]]


@needs_torch
@gradient_examples
@given(inputs=vectors(3, reals(-2, 2)), program=st.lists(steps, min_size=1, max_size=30))
def test_random_expression_graphs_match_pytorch(inputs, program):
    program = valid_program(program, inputs)
    ours = [Value(x) for x in inputs]
    theirs = [tensor(x) for x in inputs]
    our_out, their_out = run(program, ours), run(program, theirs)
    our_out.backward()
    their_out.backward()
    assert_close([our_out.data], [their_out.item()])
    assert_close([v.grad for v in ours], torch_grads(theirs))


@needs_torch
@gradient_examples
@given(
    inputs=vectors(3, reals(-2, 2)), program=st.lists(steps, min_size=1, max_size=20), passes=backward_passes
)
def test_repeated_backward_passes_on_random_graphs_match_pytorch(inputs, program, passes):
    program = valid_program(program, inputs)
    ours, theirs = [Value(x) for x in inputs], [tensor(x) for x in inputs]
    our_nodes, their_nodes = run_keeping_nodes(program, ours), run_keeping_nodes(program, theirs)
    for action in passes:
        if action == "zero_grad":
            for v, t in zip(ours, theirs, strict=True):
                v.grad, t.grad = 0.0, None
            continue
        k = -1 if action == "output" else -1 - action % len(our_nodes)
        our_nodes[k].backward()
        their_nodes[k].backward(retain_graph=True)
        assert our_nodes[k].grad == 1.0 or not our_nodes[k].children  # the seed of this pass
        assert_close([v.grad for v in ours], torch_grads(theirs))


@needs_torch
def test_seed_tanh_neuron_matches_pytorch():
    numbers = [2.0, 0.0, -3.0, 1.0, 6.8813735870195432]
    x1, x2, w1, w2, b = ours = [Value(x) for x in numbers]
    (x1 * w1 + x2 * w2 + b).tanh().backward()
    tx1, tx2, tw1, tw2, tb = theirs = [tensor(x) for x in numbers]
    torch.tanh(tx1 * tw1 + tx2 * tw2 + tb).backward()
    assert_close([v.grad for v in ours], torch_grads(theirs))


# -- infinities, signed zeros and NaN ------------------------------------------------

SPECIALS = [math.inf, -math.inf, 0.0, -0.0, math.nan]
ORDINARY = [2.0, -0.5]

UNARY = {
    "-a": lambda a: -a,
    "a + 1": lambda a: a + 1,
    "1 - a": lambda a: 1 - a,
    "a * 2": lambda a: a * 2,
    "a / 2": lambda a: a / 2,
    "2 / a": lambda a: 2 / a,
    "a ** 2": lambda a: a**2,
    "a ** 3": lambda a: a**3,
    "a ** -1": lambda a: a**-1,
    "a ** 0.5": lambda a: a**0.5,
    "a ** 0": lambda a: a**0,
    "2 ** a": lambda a: 2.0**a,
    "exp": lambda a: a.exp(),
    "log": lambda a: a.log(),
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "relu": lambda a: a.relu(),
}
BINARY = {
    "a + b": lambda a, b: a + b,
    "a - b": lambda a, b: a - b,
    "a * b": lambda a, b: a * b,
    "a / b": lambda a, b: a / b,
    "a ** b": lambda a, b: a**b,
}
# Where scratchgrad raises on purpose (a ValueError or ZeroDivisionError that names the
# problem) and PyTorch returns inf or nan: outside the op's domain, or a division by zero.
REFUSED = {
    "2 / a": lambda a: a == 0,
    "a ** -1": lambda a: a == 0,
    "a ** 0.5": lambda a: a < 0,
    "log": lambda a: a <= 0,
    "a / b": lambda a, b: b == 0,
    "a ** b": lambda a, b: a <= 0,  # d/db = a**b · ln a needs a > 0
}
TORCH_UNARY = {"exp": "exp", "log": "log", "tanh": "tanh", "sigmoid": "sigmoid", "relu": "relu"}


def same_number(ours, theirs):
    """Equal, or both NaN. 0.0 and -0.0 count as equal: a leaf's grad starts at +0.0 here and as
    None in PyTorch, so adding a -0.0 share leaves +0.0 here and -0.0 there."""
    return ours == theirs or (math.isnan(ours) and math.isnan(theirs)) or relative_error(ours, theirs) < 1e-15


def torch_op(name, table):
    op = table[name]
    if name in TORCH_UNARY:
        return lambda a: getattr(torch, TORCH_UNARY[name])(a)
    return op


def assert_matches_pytorch(name, table, numbers):
    ours = [Value(x) for x in numbers]
    theirs = [tensor(x) for x in numbers]
    refused = REFUSED.get(name)
    if refused is not None and refused(*numbers):
        with pytest.raises((ValueError, ZeroDivisionError)):
            table[name](*ours)
        return
    our_out, their_out = table[name](*ours), torch_op(name, table)(*theirs)
    our_out.backward()
    their_out.backward()
    got = [our_out.data, *(v.grad for v in ours)]
    expected = [their_out.item(), *torch_grads(theirs)]
    if (name, *numbers) == ("a ** 0.5", -0.0):  # PyTorch takes x ** 0.5 as sqrt: sqrt(-0.0) = -0.0
        expected = [0.0, math.inf]  # pow(-0.0, 0.5) = +0.0 in IEEE 754 and Python; slope +inf
    assert all(map(same_number, got, expected)), f"{name} at {numbers}: ours {got}, PyTorch {expected}"


@needs_torch
@pytest.mark.parametrize("a", SPECIALS + ORDINARY)
@pytest.mark.parametrize("name", UNARY)
def test_every_unary_op_at_infinities_zeros_and_nan_matches_pytorch(name, a):
    assert_matches_pytorch(name, UNARY, [a])


@needs_torch
@pytest.mark.parametrize("b", SPECIALS + ORDINARY)
@pytest.mark.parametrize("a", SPECIALS + ORDINARY)
@pytest.mark.parametrize("name", BINARY)
def test_every_binary_op_at_infinities_zeros_and_nan_matches_pytorch(name, a, b):
    assert_matches_pytorch(name, BINARY, [a, b])


# -- losses -----------------------------------------------------------------------


@needs_torch
@pytest.mark.parametrize(
    ("ours", "theirs", "targets"),
    [
        (mse, lambda s, y: torch.nn.functional.mse_loss(s, y), [0.5, -1.0, 2.0, 0.0]),
        (
            binary_cross_entropy,
            lambda s, y: torch.nn.functional.binary_cross_entropy_with_logits(s, y),
            [1, 0, 0, 1],
        ),
        (hinge, lambda s, y: torch.relu(1 - y * s).mean(), [1.0, -1.0, -1.0, 1.0]),
    ],
)
def test_losses_of_scores_match_pytorch(ours, theirs, targets):
    scores = [0.3, -2.5, 40.0, -0.7]
    our_scores, their_scores = [Value(s) for s in scores], tensor(scores)
    our_loss = ours(our_scores, targets)
    their_loss = theirs(their_scores, tensor([float(t) for t in targets], grad=False))
    our_loss.backward()
    their_loss.backward()
    assert_close([our_loss.data], [their_loss.item()])
    assert_close([v.grad for v in our_scores], their_scores.grad.tolist())


@needs_torch
def test_softmax_cross_entropy_matches_pytorch():
    rows = [[1.0, -2.0, 0.5], [300.0, 299.0, -50.0], [0.0, 0.0, 0.0]]
    labels = [2, 1, 0]
    ours = [[Value(z) for z in row] for row in rows]
    theirs = tensor(rows)
    our_loss = softmax_cross_entropy(ours, labels)
    their_loss = torch.nn.functional.cross_entropy(theirs, torch.tensor(labels))
    our_loss.backward()
    their_loss.backward()
    assert_close([our_loss.data], [their_loss.item()])
    assert_close([v.grad for row in ours for v in row], theirs.grad.flatten().tolist())


# -- W1: micrograd's moons demo ------------------------------------------------------


def torch_copy(model):
    """The MLP's weights as (weight matrix, bias vector) tensors, one pair per layer."""
    return [
        (tensor([[w.data for w in n.w] for n in layer.neurons]), tensor([n.b.data for n in layer.neurons]))
        for layer in model.layers
    ]


def torch_w1_loss(layers, xs, ys):
    h = tensor(xs, grad=False)
    for k, (weights, biases) in enumerate(layers):
        h = h @ weights.T + biases
        if k < len(layers) - 1:
            h = torch.relu(h)
    scores = h.squeeze(1)
    penalty = sum((t * t).sum() for layer in layers for t in layer)
    return torch.relu(1 - tensor(ys, grad=False) * scores).mean() + micrograd_demo.L2 * penalty


def in_scratchgrad_order(layers):
    """(weight matrix, bias vector) per layer as numbers in scratchgrad's order: per neuron, weights, bias."""
    return [
        x.item()
        for weights, biases in layers
        for row, b in zip(weights, biases, strict=True)
        for x in (*row, b)
    ]


def w1_start():
    """W1's data and model (initial weights seed 1), and a torch copy of the model."""
    xs, ys = micrograd_demo.data()
    model = micrograd_demo.network(rng=1)
    return xs, ys, model, torch_copy(model)


@needs_torch
def test_w1_first_step_gradients_match_pytorch():
    xs, ys, model, layers = w1_start()
    loss = micrograd_demo.loss_function(model)([model(x) for x in xs], ys)
    their_loss = torch_w1_loss(layers, xs, ys)
    loss.backward()
    their_loss.backward()
    assert_close([loss.data], [their_loss.item()])
    their_grads = in_scratchgrad_order([(weights.grad, biases.grad) for weights, biases in layers])
    assert len(their_grads) == len(model.parameters()) == 337
    assert_close([p.grad for p in model.parameters()], their_grads)


@needs_torch
def test_w1_loss_trajectory_matches_pytorch_sgd():
    xs, ys, model, layers = w1_start()
    loss_function, optimizer = micrograd_demo.loss_function(model), micrograd_demo.optimizer(model)
    their_optimizer = torch.optim.SGD([t for layer in layers for t in layer], lr=micrograd_demo.LEARNING_RATE)
    ours, theirs = [], []
    for k in range(3):
        loss = loss_function([model(x) for x in xs], ys)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ours.append(loss.data)
        their_loss = torch_w1_loss(layers, xs, ys)
        their_optimizer.zero_grad()
        their_loss.backward()
        their_optimizer.param_groups[0]["lr"] = micrograd_demo.learning_rate(k)
        their_optimizer.step()
        theirs.append(their_loss.item())
    assert_close(ours, theirs)
    assert_close([p.data for p in model.parameters()], in_scratchgrad_order(layers))


# -- optimizers ---------------------------------------------------------------------


@needs_torch
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (lambda ps: SGD(ps, lr=0.1, momentum=0.9), lambda ts: torch.optim.SGD(ts, lr=0.1, momentum=0.9)),
        (lambda ps: Adam(ps, lr=0.05), lambda ts: torch.optim.Adam(ts, lr=0.05)),
        (
            lambda ps: Adam(ps, lr=0.01, betas=(0.5, 0.9), eps=1e-6),
            lambda ts: torch.optim.Adam(ts, lr=0.01, betas=(0.5, 0.9), eps=1e-6),
        ),
    ],
)
def test_optimizer_steps_match_pytorch(ours, theirs):
    start = [1.5, -0.5, 2.0]
    our_params, their_params = [Value(x) for x in start], [tensor(x) for x in start]
    our_optimizer, their_optimizer = ours(our_params), theirs(their_params)
    for _ in range(10):
        our_optimizer.zero_grad()
        a, b, c = our_params
        (a * a * b + (c - a).tanh() + b.exp()).backward()
        our_optimizer.step()
        their_optimizer.zero_grad()
        ta, tb, tc = their_params
        (ta * ta * tb + torch.tanh(tc - ta) + torch.exp(tb)).backward()
        their_optimizer.step()
    assert_close([p.data for p in our_params], [t.item() for t in their_params])
