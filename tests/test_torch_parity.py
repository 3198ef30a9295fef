"""PyTorch as a second opinion: the same graphs in float64 give the same gradients to 1e-9."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missing_tools import import_or_missing
from scratchgrad import Value
from scratchgrad.datasets import moons
from scratchgrad.gradcheck import relative_error
from scratchgrad.losses import binary_cross_entropy, hinge, mse, softmax_cross_entropy
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD, Adam
from strategies import gradient_examples, reals, vectors


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
    nodes = list(inputs)
    for name, i, j, c in program:
        nodes.append(OPS[name][0](*operands(nodes, i, j), c))
    last = nodes[-3:]
    return last[0] + last[1] + last[2] if len(last) == 3 else last[-1]


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
def test_seed_tanh_neuron_matches_pytorch():
    numbers = [2.0, 0.0, -3.0, 1.0, 6.8813735870195432]
    x1, x2, w1, w2, b = ours = [Value(x) for x in numbers]
    (x1 * w1 + x2 * w2 + b).tanh().backward()
    tx1, tx2, tw1, tw2, tb = theirs = [tensor(x) for x in numbers]
    torch.tanh(tx1 * tw1 + tx2 * tw2 + tb).backward()
    assert_close([v.grad for v in ours], torch_grads(theirs))


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
    return torch.relu(1 - tensor(ys, grad=False) * scores).mean() + 1e-4 * penalty


def in_scratchgrad_order(layers):
    """(weight matrix, bias vector) per layer as numbers in scratchgrad's order: per neuron, weights, bias."""
    return [
        x.item()
        for weights, biases in layers
        for row, b in zip(weights, biases, strict=True)
        for x in (*row, b)
    ]


def w1_start():
    """W1's data and model (moons seed 0, initial weights seed 1), and a torch copy of the model."""
    xs, ys = moons(n=100, noise=0.1, seed=0)
    model = MLP(2, [16, 16, 1], activation="relu", output_activation="linear", rng=1)
    return xs, ys, model, torch_copy(model)


@needs_torch
def test_w1_first_step_gradients_match_pytorch():
    xs, ys, model, layers = w1_start()
    loss = hinge([model(x) for x in xs], ys, l2=1e-4, parameters=model.parameters())
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
    optimizer = SGD(model.parameters(), lr=1.0, schedule=lambda k: 1.0 - 0.9 * k / 100)
    their_optimizer = torch.optim.SGD([t for layer in layers for t in layer], lr=1.0)
    ours, theirs = [], []
    for k in range(3):
        loss = hinge([model(x) for x in xs], ys, l2=1e-4, parameters=model.parameters())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ours.append(loss.data)
        their_loss = torch_w1_loss(layers, xs, ys)
        their_optimizer.zero_grad()
        their_loss.backward()
        their_optimizer.param_groups[0]["lr"] = 1.0 - 0.9 * k / 100
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
