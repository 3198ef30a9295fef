"""Learner solutions for every exercise, beyond the declared wrong variants: right ones in other
styles that must pass, and wrong ones with real learner bugs that must fail with words a learner
can act on. Written as a learner would write them, not as edits of the reference solutions.

Each case: the exercise, a name, the reader's code, whether it passes, the words its failing
message must contain, and the reader's own earlier pieces it is checked on (else the book's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scratchgrad.exercises.registry import by_id


@dataclass(frozen=True)
class Case:
    exercise: str
    name: str
    source: str
    passes: bool
    words: str = ""
    earlier: dict[str, str] = field(default_factory=dict)


RULES_WITH_EQUALS = """
import math


class Value(Value):
    def __init__(self, data, label="", _children=(), _op=""):
        super().__init__(data, label, _children, _op)
        self.grad = 0.0
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward():
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward():
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), "", (self,), "tanh")

        def _backward():
            self.grad = tanh_derivative(self.data) * out.grad

        out._backward = _backward
        return out
"""

RULES_WITH_PLUS_EQUALS = RULES_WITH_EQUALS.replace(".grad = ", ".grad += ").replace(
    "self.grad += 0.0", "self.grad = 0.0"
)

ADD_AND_MUL_FIXED = """
class Value(Value):
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward():
            self.grad = self.grad + out.grad
            other.grad = other.grad + out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward():
            self.grad = self.grad + other.data * out.grad
            other.grad = other.grad + self.data * out.grad

        out._backward = _backward
        return out
"""

ALL_FIXED = (
    ADD_AND_MUL_FIXED
    + """
    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, "", (self,), "tanh")

        def _backward():
            self.grad = self.grad + (1 - t * t) * out.grad

        out._backward = _backward
        return out
"""
).replace("class Value(Value):", "import math\n\n\nclass Value(Value):")


def _pow_exp(pow_rule: str, exp_rule: str, forward: str = "self.data ** k") -> str:
    return f"""
import math


class Value(Value):
    def __pow__(self, k):
        out = Value({forward}, "", (self,), "pow")

        def _backward():
            {pow_rule}

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), "", (self,), "exp")

        def _backward():
            {exp_rule}

        out._backward = _backward
        return out
"""


def _softmax(log_rule: str, loss: str, log_forward: str = "math.log(self.data)") -> str:
    return f"""
import math


class Value(Value):
    def log(self):
        out = Value({log_forward}, "", (self,), "log")

        def _backward():
            {log_rule}

        out._backward = _backward
        return out


def softmax_cross_entropy(logits, label):
{loss}
"""


SHIFTED_LOSS = """    biggest = max(z.data for z in logits)
    exps = [(z - biggest).exp() for z in logits]
    total = sum(exps)
    return total.log() - (logits[label] - biggest)"""

NEURONS = """
import random


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))

    def __call__(self, x):
        total = self.b
        for wi, xi in zip(self.w, x):
            total = total + wi * xi
        return total.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        params = []
        for n in self.neurons:
            params.extend(n.parameters())
        return params


class MLP:
    def __init__(self, nin, nouts):
        sizes = [nin] + nouts
        self.layers = [Layer(sizes[i], sizes[i + 1]) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
"""

TRAIN = """
def train(model, xs, ys, steps, learning_rate):
    history = []
    for _ in range(steps):
        loss = Value(0.0)
        for x, y in zip(xs, ys):
            loss = loss + (model(x) - y) ** 2
        loss = loss * (1 / len(xs))
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data = p.data - learning_rate * p.grad
        history.append(loss.data)
    return history
"""

GRADCHECK = """
def numerical_gradient(f, xs, h=1e-6):
    result = []
    for i in range(len(xs)):
        plus = [Value(x + h if j == i else x) for j, x in enumerate(xs)]
        minus = [Value(x - h if j == i else x) for j, x in enumerate(xs)]
        result.append((f(*plus).data - f(*minus).data) / (2 * h))
    return result


def gradients_agree(f, xs, tolerance=1e-6):
    inputs = [Value(x) for x in xs]
    f(*inputs).backward()
    for v, n in zip(inputs, numerical_gradient(f, xs)):
        if abs(v.grad - n) > tolerance * max(1.0, abs(v.grad), abs(n)):
            return False
    return True
"""

TOPO_KAHN = """
def topological_order(root):
    nodes, stack = [], [root]
    seen = {id(root)}
    while stack:
        node = stack.pop()
        nodes.append(node)
        for child in node._prev:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    users = {id(n): 0 for n in nodes}
    for n in nodes:
        for child in set(n._prev):
            users[id(child)] += 1
    ready = [root]
    backwards = []
    while ready:
        node = ready.pop()
        backwards.append(node)
        for child in set(node._prev):
            users[id(child)] -= 1
            if users[id(child)] == 0:
                ready.append(child)
    return backwards[::-1]
"""

BACKWARD = """
class Value(Value):
    def backward(self):
        self.grad = 1.0
{body}
"""


DIAGNOSE_STUB = by_id("diagnose").stub
"""The three broken runs as the reader is given them: a learner edits them, so the cases do too."""
ZERO_MISSING = """        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        loss.backward()
"""
ZERO_ADDED = """        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        for q in model.parameters():
            q.grad = 0
        loss.backward()
"""
ZERO_TOO_LATE = """        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        loss.backward()
        for q in model.parameters():
            q.grad = 0
"""
UPDATE = "            p.data -= learning_rate * p.grad\n"
UPDATE_THEN_ZERO = UPDATE + "            p.grad = 0.0\n"
SCALED = """    for p in model.parameters():
        p.data *= 10  # start from larger weights
"""


TORCH_PORT = by_id("torch-port").solution
"""The book's port: a learner slips one line of it, so some cases do too."""
TORCH_BY_HAND = """import torch


def torch_network(starting_weights):
    layers = []
    for rows, biases in starting_weights:
        linear = torch.nn.Linear(len(rows[0]), len(rows)).double()
        linear.weight = torch.nn.Parameter(torch.tensor(rows, dtype=torch.float64))
        linear.bias = torch.nn.Parameter(torch.tensor(biases, dtype=torch.float64))
        layers.append(linear)
        layers.append(torch.nn.Tanh())
    return torch.nn.Sequential(*layers)


def train_in_torch(network, xs, ys, steps, learning_rate):
    x = torch.tensor(xs, dtype=torch.float64)
    y = torch.tensor(ys, dtype=torch.float64).reshape(-1, 1)
    history = []
    for _ in range(steps):
        loss = ((network(x) - y) ** 2).mean()
        for p in network.parameters():
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in network.parameters():
                p -= learning_rate * p.grad
        history.append(float(loss))
    return history
"""

TORCH_STATE_DICT = """import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x


def torch_network(starting_weights):
    sizes = [len(starting_weights[0][0][0])] + [len(rows) for rows, _ in starting_weights]
    net = Net(sizes).double()
    state = {}
    for i, (rows, biases) in enumerate(starting_weights):
        state[f"layers.{i}.weight"] = torch.tensor(rows, dtype=torch.double)
        state[f"layers.{i}.bias"] = torch.tensor(biases, dtype=torch.double)
    net.load_state_dict(state)
    return net


def train_in_torch(network, xs, ys, steps, learning_rate):
    opt = torch.optim.SGD(network.parameters(), lr=learning_rate)
    X = torch.tensor(xs, dtype=torch.double)
    Y = torch.tensor(ys, dtype=torch.double)
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.MSELoss()(network(X).flatten(), Y)
        loss.backward()
        opt.step()
        out.append(loss.item())
    return out
"""


CASES = [
    # ---------------------------------------------------------------- slope
    Case("slope", "forward-difference", "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x)) / h\n", True),
    Case(
        "slope",
        "central-difference",
        "def slope(f, x, h=1e-6):\n    up, down = f(x + h), f(x - h)\n    return (up - down) / (2 * h)\n",
        True,
    ),
    Case(
        "slope",
        "flipped",
        "def slope(f, x, h=1e-6):\n    return (f(x) - f(x + h)) / h\n",
        False,
        "the sign is flipped",
    ),
    Case(
        "slope",
        "own-h",
        "def slope(f, x, h=1e-6):\n    step = 0.0001\n    return (f(x + step) - f(x)) / step\n",
        False,
        "does slope use the h it is given?",
    ),
    Case(
        "slope",
        "central-without-2",
        "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x - h)) / h\n",
        False,
        "divide by 2 * h",
    ),
    Case(
        "slope",
        "no-rise",
        "def slope(f, x, h=1e-6):\n    return f(x + h) / h\n",
        False,
        "should be about 14.0",
    ),
    Case(
        "slope",
        "returns-text",
        "def slope(f, x, h=1e-6):\n    return f'{(f(x + h) - f(x)) / h:.3f}'\n",
        False,
        "should be about 14.0",
    ),
    Case(
        "slope",
        "divides-by-x",
        "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x)) / x\n",
        False,
        "6x − 4",
    ),
    # ---------------------------------------------------------------- value-graph
    Case(
        "value-graph",
        "tuple-children",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, label, tuple(_children), _op

    def __add__(self, other):
        return Value(self.data + other.data, _children=(self, other), _op="+")

    def __mul__(self, other):
        return Value(self.data * other.data, _children=(self, other), _op="*")
""",
        True,
    ),
    Case(
        "value-graph",
        "dataclass-list-children",
        """
from dataclasses import dataclass, field


@dataclass(eq=False)
class Value:
    data: float
    label: str = ""
    _children: tuple = ()
    _op: str = ""
    _prev: list = field(init=False)

    def __post_init__(self):
        self._prev = list(self._children)

    def __add__(self, other):
        return Value(self.data + other.data, "", (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, "", (self, other), "*")
""",
        True,
    ),
    Case(
        "value-graph",
        "micrograd-order",
        """
class Value:
    def __init__(self, data, _children=(), _op="", label=""):
        self.data = data
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), "*")
""",
        False,
        "micrograd's order",
    ),
    Case(
        "value-graph",
        "op-as-word",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, label, set(_children), _op

    def __add__(self, other):
        return Value(self.data + other.data, "", (self, other), "add")

    def __mul__(self, other):
        return Value(self.data * other.data, "", (self, other), "mul")
""",
        False,
        "._op should be '+'",
    ),
    Case(
        "value-graph",
        "keeps-only-self",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, label, set(_children), _op

    def __add__(self, other):
        return Value(self.data + other.data, "", (self,), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, "", (self,), "*")
""",
        False,
        "should hold a and b",
    ),
    Case(
        "value-graph",
        "mul-adds",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, label, set(_children), _op

    def __add__(self, other):
        return Value(self.data + other.data, "", (self, other), "+")

    def __mul__(self, other):
        return Value(self.data + other.data, "", (self, other), "*")
""",
        False,
        "should be -6.0",
    ),
    Case(
        "value-graph",
        "forgets-label",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, "", set(_children), _op

    def __add__(self, other):
        return Value(self.data + other.data, "", (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, "", (self, other), "*")
""",
        False,
        "label 'a'",
    ),
    Case(
        "value-graph",
        "returns-a-float",
        """
class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data, self.label, self._prev, self._op = data, label, set(_children), _op

    def __add__(self, other):
        return self.data + other.data

    def __mul__(self, other):
        return self.data * other.data
""",
        False,
        "should return a new Value; yours returned float",
    ),
    # ---------------------------------------------------------------- backprop-by-hand
    Case(
        "backprop-by-hand",
        "named-steps",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    dL_dd = f.data
    dL_df = d.data
    d.grad, f.grad = dL_dd * L.grad, dL_df * L.grad
    e.grad = d.grad
    c.grad = d.grad
    a.grad = e.grad * b.data
    b.grad = e.grad * a.data
""",
        True,
    ),
    Case(
        "backprop-by-hand",
        "a-loop-of-rules",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    for node in (a, b, c, f, e, d):
        node.grad = 0.0
    L.grad = 1.0
    steps = [(d, lambda: f.data * L.grad), (f, lambda: d.data * L.grad), (e, lambda: d.grad),
             (c, lambda: d.grad), (a, lambda: b.data * e.grad), (b, lambda: a.data * e.grad)]
    for node, rule in steps:
        node.grad = rule()
""",
        True,
    ),
    Case(
        "backprop-by-hand",
        "sum-scales-by-data",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = f.data * L.grad
    f.grad = d.data * L.grad
    e.grad = e.data * d.grad
    c.grad = c.data * d.grad
    a.grad = b.data * e.grad
    b.grad = a.data * e.grad
""",
        False,
        "dL/de should be -2.0",
    ),
    Case(
        "backprop-by-hand",
        "never-seeds-L",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    d.grad = f.data
    f.grad = d.data
    e.grad = d.grad
    c.grad = d.grad
    a.grad = b.data * e.grad
    b.grad = a.data * e.grad
""",
        False,
        "dL/dL should be 1.0",
    ),
    Case(
        "backprop-by-hand",
        "forgets-e-grad",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = f.data * L.grad
    f.grad = d.data * L.grad
    e.grad = d.grad
    c.grad = d.grad
    a.grad = b.data
    b.grad = a.data
""",
        False,
        "dL/db should be -4.0",
    ),
    Case(
        "backprop-by-hand",
        "c-is-constant",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = f.data * L.grad
    f.grad = d.data * L.grad
    e.grad = d.grad
    c.grad = 0.0
    a.grad = b.data * e.grad
    b.grad = a.data * e.grad
""",
        False,
        "dL/dc should be -2.0",
    ),
    Case(
        "backprop-by-hand",
        "f-own-value",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = f.data * L.grad
    f.grad = f.data * L.grad
    e.grad = d.grad
    c.grad = d.grad
    a.grad = b.data * e.grad
    b.grad = a.data * e.grad
""",
        False,
        "dL/df should be 4.0",
    ),
    Case(
        "backprop-by-hand",
        "writes-data",
        """
def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.data = f.data * L.grad
    f.grad = d.data * L.grad
    e.grad = 1.0
    c.grad = 1.0
    a.grad = b.data
    b.grad = a.data
""",
        False,
        "d.data should be 4.0",
    ),
    # ---------------------------------------------------------------- tanh-derivative
    Case(
        "tanh-derivative",
        "product-of-factors",
        "import math\n\n\ndef tanh_derivative(x):\n    t = math.tanh(x)\n    return (1 - t) * (1 + t)\n",
        True,
    ),
    Case(
        "tanh-derivative",
        "through-tanh-derivative-of-sinh-over-cosh",
        "import math\n\n\ndef tanh_derivative(x):\n"
        "    y = math.sinh(x) / math.cosh(x) if abs(x) < 20 else math.copysign(1.0, x)\n"
        "    return 1.0 - y * y\n",
        True,
    ),
    Case(
        "tanh-derivative",
        "exp-formula",  # right for |x| < 355; the task asks for it through tanh(x), which never overflows
        "import math\n\n\ndef tanh_derivative(x):\n    return 4 / (math.exp(x) + math.exp(-x)) ** 2\n",
        False,
        "tanh'(400.0) raised OverflowError; it is 0.0 as a float",
    ),
    Case(
        "tanh-derivative",
        "sech-squared",  # cosh(x) ** 2 overflows from |x| ≈ 355 on, where tanh'(x) is 0.0
        "import math\n\n\ndef tanh_derivative(x):\n    return 1 / math.cosh(x) ** 2\n",
        False,
        "tanh'(400.0) raised OverflowError; it is 0.0 as a float",
    ),
    Case(
        "tanh-derivative",
        "plus-instead-of-minus",
        "import math\n\n\ndef tanh_derivative(x):\n    return 1 + math.tanh(x) ** 2\n",
        False,
        "tanh'(0.5) should be 0.786448 (by nudging); yours gives 1.213552",
    ),
    Case(
        "tanh-derivative",
        "two-t",
        "import math\n\n\ndef tanh_derivative(x):\n    return 2 * math.tanh(x)\n",
        False,
        "should be 1.0 (by nudging)",
    ),
    Case(
        "tanh-derivative",
        "sign-flipped",
        "import math\n\n\ndef tanh_derivative(x):\n    return math.tanh(x) ** 2 - 1\n",
        False,
        "should be 1.0 (by nudging)",
    ),
    Case(
        "tanh-derivative",
        "tanh-itself",
        "import math\n\n\ndef tanh_derivative(x):\n    return math.tanh(x)\n",
        False,
        "should be 1.0 (by nudging)",
    ),
    Case(
        "tanh-derivative",
        "rough-nudge",
        "import math\n\n\ndef tanh_derivative(x):\n    return (math.tanh(x + 1e-3) - math.tanh(x)) / 1e-3\n",
        False,
        "(by nudging); yours gives",
    ),
    Case(
        "tanh-derivative",
        "cosh-not-squared",
        "import math\n\n\ndef tanh_derivative(x):\n    return 1 / math.cosh(x)\n",
        False,
        "tanh'(0.5) should be",
    ),
    # ---------------------------------------------------------------- local-derivatives
    Case("local-derivatives", "natural-equals", RULES_WITH_EQUALS, True),
    Case("local-derivatives", "already-plus-equals", RULES_WITH_PLUS_EQUALS, True),
    Case(
        "local-derivatives",
        "mul-one-side",
        RULES_WITH_EQUALS.replace("self.grad = other.data * out.grad", "self.grad = out.grad"),
        False,
        "d(a·b)/da should be b = -3.0",
    ),
    Case(
        "local-derivatives",
        "add-passes-one",
        RULES_WITH_EQUALS.replace(
            "self.grad = out.grad\n            other.grad = out.grad",
            "self.grad = 1.0\n            other.grad = 1.0",
        ),
        False,
        "a.grad after out._backward() should be 1.5",
    ),
    Case(
        "local-derivatives",
        "tanh-of-output",
        RULES_WITH_EQUALS.replace("tanh_derivative(self.data)", "tanh_derivative(out.data)"),
        False,
        "n.grad = (1 − o²)·2 should be 1.0",
    ),
    Case(
        "local-derivatives",
        "no-wrapping",
        RULES_WITH_EQUALS.replace(
            "        other = other if isinstance(other, Value) else Value(other)\n", ""
        ),
        False,
        "AttributeError",
    ),
    Case(
        "local-derivatives",
        "grad-starts-none",
        RULES_WITH_EQUALS.replace("self.grad = 0.0", "self.grad = None"),
        False,
        "Value(1.0).grad should be 0",
    ),
    Case(
        "local-derivatives",
        "tanh-forgets-child",
        RULES_WITH_EQUALS.replace('"", (self,), "tanh"', '"", (), "tanh"'),
        False,
        "should hold n among its children",
    ),
    # ---------------------------------------------------------------- topological-order
    Case("topological-order", "kahn", TOPO_KAHN, True),
    Case(
        "topological-order",
        "recursive-list-visited",
        """
def topological_order(root, order=None, done=None):
    if order is None:
        order, done = [], []
    if any(node is root for node in done):
        return order
    done.append(root)
    for child in root._prev:
        topological_order(child, order, done)
    order.append(root)
    return order
""",
        True,
    ),
    Case(
        "topological-order",
        "breadth-first-reversed",
        """
from collections import deque


def topological_order(root):
    order, seen, queue = [], {root}, deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child in node._prev:
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return order[::-1]
""",
        False,
        "every node must come after its children",
    ),
    Case(
        "topological-order",
        "output-first",
        """
def topological_order(root):
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for child in node._prev:
                visit(child)
            order.append(node)

    visit(root)
    return order[::-1]
""",
        False,
        "every node must come after its children",
    ),
    Case(
        "topological-order",
        "seen-by-data",
        """
def topological_order(root):
    order, seen = [], set()

    def visit(node):
        if node.data not in seen:
            seen.add(node.data)
            for child in node._prev:
                visit(child)
            order.append(node)

    visit(root)
    return order
""",
        False,
        "leaves out",
    ),
    Case(
        "topological-order",
        "only-the-inputs",
        """
def topological_order(root):
    if not root._prev:
        return [root]
    leaves = []
    for child in root._prev:
        leaves += [n for n in topological_order(child) if n not in leaves]
    return leaves
""",
        False,
        "leaves out",
    ),
    Case(
        "topological-order",
        "forgets-root",
        """
def topological_order(root):
    order, seen = [], set()

    def visit(node):
        for child in node._prev:
            if child not in seen:
                seen.add(child)
                visit(child)
                order.append(child)

    visit(root)
    return order
""",
        False,
        "leaves out",
    ),
    Case(
        "topological-order",
        "children-only",
        """
def topological_order(root):
    order = []
    for child in root._prev:
        order.append(child)
    order.append(root)
    return order
""",
        False,
        "leaves out",
    ),
    # ---------------------------------------------------------------- backward
    Case(
        "backward",
        "own-iterative-order",
        BACKWARD.format(
            body="""        order, seen, stack = [], set(), [(self, False)]
        while stack:
            node, ready = stack.pop()
            if ready:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                stack.extend((c, False) for c in node._prev)
        for node in order[::-1]:
            node._backward()"""
        ),
        True,
    ),
    Case(
        "backward",
        "topological-order-reversed-index",
        BACKWARD.format(
            body="""        order = topological_order(self)
        for i in range(len(order) - 1, -1, -1):
            order[i]._backward()"""
        ),
        True,
    ),
    Case(
        "backward",
        "recursive-rules-no-order",
        BACKWARD.format(
            body="""        def walk(node):
            node._backward()
            for child in node._prev:
                walk(child)

        walk(self)"""
        ),
        False,
        "times",
    ),
    Case(
        "backward",
        "seed-after-the-loop",
        """
class Value(Value):
    def backward(self):
        for node in reversed(topological_order(self)):
            node._backward()
        self.grad = 1.0
""",
        False,
        "set self.grad = 1.0 before the loop",
    ),
    Case(
        "backward",
        "skips-the-output",
        BACKWARD.format(
            body="""        for node in reversed(topological_order(self)[:-1]):
            node._backward()"""
        ),
        False,
        "never",
    ),
    Case(
        "backward",
        "seed-zero",
        """
class Value(Value):
    def backward(self):
        for node in reversed(topological_order(self)):
            node._backward()
""",
        False,
        "backward() starts with self.grad = 1",
    ),
    Case(
        "backward",
        "rules-not-called",
        BACKWARD.format(
            body="""        for node in reversed(topological_order(self)):
            node._backward"""
        ),
        False,
        "never",
    ),
    Case(
        "backward",
        "breadth-first",
        BACKWARD.format(
            body="""        queue, seen = [self], {self}
        while queue:
            node = queue.pop(0)
            node._backward()
            for child in node._prev:
                if child not in seen:
                    seen.add(child)
                    queue.append(child)"""
        ),
        False,
        "before the rule of",
    ),
    # ---------------------------------------------------------------- accumulate
    Case("accumulate", "all-three-fixed", ALL_FIXED, True, earlier={"local-derivatives": RULES_WITH_EQUALS}),
    Case(
        "accumulate",
        "fixed-where-written",
        "class Value(Value):\n    pass\n",
        True,
        earlier={"local-derivatives": RULES_WITH_PLUS_EQUALS},
    ),
    Case(
        "accumulate",
        "nothing-fixed",
        "class Value(Value):\n    pass\n",
        False,
        "your rule for + (your code for 'local-derivatives') sets a.grad with `=`",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    Case(
        "accumulate",
        "tanh-left-behind",
        ADD_AND_MUL_FIXED,
        False,
        "your rule for tanh (your code for 'local-derivatives')",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    Case(
        "accumulate",
        "mul-forgets-local-derivative",
        ALL_FIXED.replace(
            "self.grad = self.grad + other.data * out.grad", "self.grad = self.grad + out.grad"
        ),
        False,
        "your rule for * (your code for 'accumulate')",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    Case(
        "accumulate",
        "other-side-still-equals",
        ALL_FIXED.replace("other.grad = other.grad + out.grad", "other.grad = out.grad"),
        False,
        "sets b.grad with `=`",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    Case(
        "accumulate",
        "drops-number-wrapping",
        ALL_FIXED.replace("        other = other if isinstance(other, Value) else Value(other)\n", ""),
        False,
        "AttributeError",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    Case(
        "accumulate",
        "grad-instead-of-data",
        ALL_FIXED.replace("other.grad + self.data * out.grad", "other.grad + self.grad * out.grad"),
        False,
        "your rule for *",
        earlier={"local-derivatives": RULES_WITH_EQUALS},
    ),
    # ---------------------------------------------------------------- power-and-exp
    Case(
        "power-and-exp",
        "pow-builtin",
        _pow_exp("self.grad += out.grad * k * pow(self.data, k - 1)", "self.grad += out.grad * out.data"),
        True,
    ),
    Case(
        "power-and-exp",
        "e-to-the",
        _pow_exp(
            "self.grad = self.grad + k * (self.data ** (k - 1)) * out.grad",
            "self.grad = self.grad + math.e ** self.data * out.grad",
        ),
        True,
    ),
    Case(
        "power-and-exp",
        "out-over-x",
        _pow_exp("self.grad += k * out.data / self.data * out.grad", "self.grad += out.data * out.grad"),
        False,
        "ZeroDivisionError",
    ),
    Case(
        "power-and-exp",
        "pow-equals",
        _pow_exp("self.grad = k * self.data ** (k - 1) * out.grad", "self.grad += out.data * out.grad"),
        False,
        "your rule for ** (your code for 'power-and-exp') sets a.grad with `=`",
    ),
    Case(
        "power-and-exp",
        "exp-equals",
        _pow_exp("self.grad += k * self.data ** (k - 1) * out.grad", "self.grad = out.data * out.grad"),
        False,
        "your rule for exp",
    ),
    Case(
        "power-and-exp",
        "exp-of-exp",
        _pow_exp(
            "self.grad += k * self.data ** (k - 1) * out.grad", "self.grad += math.exp(out.data) * out.grad"
        ),
        False,
        "= exp(x)",
    ),
    Case(
        "power-and-exp",
        "pow-multiplies",
        _pow_exp(
            "self.grad += k * self.data ** (k - 1) * out.grad",
            "self.grad += out.data * out.grad",
            "self.data * k",
        ),
        False,
        "x**3 at x = 1.5 should be 3.375",
    ),
    Case(
        "power-and-exp",
        "pow-forgets-out-grad",
        _pow_exp("self.grad += k * self.data ** (k - 1)", "self.grad += out.data * out.grad"),
        False,
        "your rule for **",
    ),
    # ---------------------------------------------------------------- composed-ops
    Case(
        "composed-ops",
        "through-minus-one",
        """
class Value(Value):
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + other * -1

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return Value(other) - self

    def __rtruediv__(self, other):
        return Value(other) / self
""",
        True,
    ),
    Case(
        "composed-ops",
        "reflected-by-negation",
        """
class Value(Value):
    def __neg__(self):
        return -1 * self

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self.__add__(other)

    def __rmul__(self, other):
        return self.__mul__(other)

    def __rsub__(self, other):
        return (-self) + other

    def __rtruediv__(self, other):
        return self ** -1 * other
""",
        True,
    ),
]

COMPOSED = CASES[-2].source


def _composed(old: str, new: str) -> str:
    assert COMPOSED.count(old) == 1, old
    return COMPOSED.replace(old, new)


CASES += [
    Case(
        "composed-ops",
        "radd-returns-a-number",
        _composed("return self + other\n\n    def __rmul__", "return other + self.data\n\n    def __rmul__"),
        False,
        "should give a Value",
    ),
    Case(
        "composed-ops",
        "rtruediv-backwards",
        _composed("return Value(other) / self", "return self / other"),
        False,
        "2 / a with a = 3, b = 4 should be 0.666667",
    ),
    Case(
        "composed-ops", "neg-by-one", _composed("return self * -1", "return self * 1"), False, "-a with a = 3"
    ),
    Case(
        "composed-ops",
        "sub-adds",
        _composed("return self + other * -1", "return self + other"),
        False,
        "a - b with a = 3, b = 4 should be -1.0",
    ),
    Case(
        "composed-ops",
        "no-rmul",
        _composed(
            "    def __rmul__(self, other):\n        return self * other\n",
            "    def __rmul__(self, other):\n        return NotImplemented\n",
        ),
        False,
        "TypeError",
    ),
    Case(
        "composed-ops",
        "sub-own-rule-equals",
        _composed(
            "    def __sub__(self, other):\n        return self + other * -1\n",
            """    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data - other.data, "", (self, other), "-")

        def _backward():
            self.grad = out.grad
            other.grad = -out.grad

        out._backward = _backward
        return out
""",
        ),
        False,
        "a and b used more than once",
    ),
    # ---------------------------------------------------------------- gradient-check
    Case("gradient-check", "comprehensions", GRADCHECK, True),
    Case(
        "gradient-check",
        "isclose",
        """
import math


def numerical_gradient(f, xs, h=1e-6):
    grads = []
    for i, x in enumerate(xs):
        def at(value):
            args = list(xs)
            args[i] = value
            return f(*map(Value, args)).data
        grads.append((at(x + h) - at(x - h)) / (2 * h))
    return grads


def gradients_agree(f, xs, tolerance=1e-6):
    values = list(map(Value, xs))
    f(*values).backward()
    return all(
        math.isclose(v.grad, n, rel_tol=tolerance, abs_tol=tolerance)
        for v, n in zip(values, numerical_gradient(f, xs))
    )
""",
        True,
    ),
    Case(
        "gradient-check",
        "ignores-tolerance",
        GRADCHECK.replace("tolerance * max(", "1e-6 * max("),
        False,
        "compare with the tolerance argument",
    ),
    Case(
        "gradient-check",
        "nudges-the-callers-list",
        GRADCHECK.replace(
            """        plus = [Value(x + h if j == i else x) for j, x in enumerate(xs)]
        minus = [Value(x - h if j == i else x) for j, x in enumerate(xs)]
""",
            """        xs[i] += h
        plus = [Value(x) for x in xs]
        xs[i] -= 2 * h
        minus = [Value(x) for x in xs]
""",
        ),
        False,
        "changed the list xs",
    ),
    Case(
        "gradient-check",
        "says-yes-in-words",
        GRADCHECK.replace(
            "            return False\n    return True", '            return "False"\n    return "True"'
        ),
        False,
        "it said 'True'",
    ),
    Case(
        "gradient-check",
        "no-backward",
        GRADCHECK.replace("    f(*inputs).backward()\n", "    f(*inputs)\n"),
        False,
        "gradients_agree should say True; it said False",
    ),
    Case(
        "gradient-check",
        "central-without-2",
        GRADCHECK.replace("/ (2 * h)", "/ h"),
        False,
        "the slopes should be",
    ),
    Case(
        "gradient-check",
        "divides-by-the-smaller",
        GRADCHECK.replace(
            "        if abs(v.grad - n) > tolerance * max(1.0, abs(v.grad), abs(n)):",
            "        if abs(v.grad - n) / min(abs(v.grad), abs(n)) > tolerance:",
        ),
        False,
        "ZeroDivisionError",
    ),
    # ---------------------------------------------------------------- mlp
    Case("mlp", "loops", NEURONS, True),
    Case(
        "mlp",
        "bias-first-and-own-generator",
        NEURONS.replace("return self.w + [self.b]", "return [self.b] + self.w")
        .replace("import random\n", "import random\n\nrandom_numbers = random.Random()\n")
        .replace("random.uniform", "random_numbers.uniform"),
        True,
    ),
    Case(
        "mlp",
        "seeded-in-every-neuron",
        NEURONS.replace(
            "    def __init__(self, nin):\n        self.w",
            "    def __init__(self, nin):\n        random.seed(42)\n        self.w",
        ),
        False,
        "the same weights",
    ),
    Case(
        "mlp",
        "linear-last-layer",
        NEURONS.replace(
            "    def __call__(self, x):\n        for layer in self.layers:\n"
            "            x = layer(x)\n        return x",
            """    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = layer(x)
        last = self.layers[-1].neurons[0]
        return sum((wi * xi for wi, xi in zip(last.w, x)), last.b)""",
        ),
        False,
        "without tanh",
    ),
    Case(
        "mlp",
        "layers-not-chained",
        NEURONS.replace(
            "        for layer in self.layers:\n            x = layer(x)\n        return x",
            "        for layer in self.layers:\n            out = layer(x)\n        return out",
        ),
        False,
        "is every layer fed",
    ),
    Case(
        "mlp",
        "relu-neuron",
        NEURONS.replace("return total.tanh()", "return total * (total.data > 0)"),
        False,
        "tanh(−2.4)",
    ),
    Case(
        "mlp",
        "first-layer-only",
        NEURONS.replace(
            "return [p for layer in self.layers for p in layer.parameters()]",
            "return self.layers[0].parameters()",
        ),
        False,
        "should hold 41 Values",
    ),
    Case(
        "mlp",
        "no-bias-in-sum",
        NEURONS.replace("total = self.b\n", "total = Value(0.0)\n"),
        False,
        "tanh(−2.4)",
    ),
    # ---------------------------------------------------------------- training
    Case("training", "running-sum", TRAIN, True),
    Case(
        "training",
        "zero-after-the-step",
        """
def train(model, xs, ys, steps, learning_rate):
    losses = []
    for _ in range(steps):
        errors = [(model(x) - y) ** 2 for x, y in zip(xs, ys)]
        loss = sum(errors) / len(errors)
        loss.backward()
        for p in model.parameters():
            p.data -= learning_rate * p.grad
            p.grad = 0
        losses.append(loss.data)
    return losses
""",
        True,
    ),
    Case(
        "training",
        "fixed-rate",
        TRAIN.replace("learning_rate * p.grad", "0.1 * p.grad"),
        False,
        "use the learning_rate",
    ),
    Case(
        "training",
        "sum-not-mean",
        TRAIN.replace("        loss = loss * (1 / len(xs))\n", ""),
        False,
        "four times the mean",
    ),
    Case(
        "training",
        "zeroed-before-the-step",
        TRAIN.replace(
            "        loss.backward()\n        for p in model.parameters():\n            p.data",
            "        loss.backward()\n        for p in model.parameters():\n"
            "            p.grad = 0.0\n            p.data",
        ),
        False,
        "at step 1 the loss should be",
    ),
    Case(
        "training",
        "loss-after-the-step",
        TRAIN.replace(
            "        history.append(loss.data)\n",
            "        after = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))\n"
            "        history.append(after.data / len(xs))\n",
        ),
        False,
        "before any update",
    ),
    Case(
        "training",
        "returns-values",
        TRAIN.replace("history.append(loss.data)", "history.append(loss)"),
        False,
        "should return 8 losses",
    ),
    Case(
        "training",
        "one-step-short",
        TRAIN.replace("range(steps)", "range(steps - 1)"),
        False,
        "should return 8 losses",
    ),
    Case(
        "training",
        "loss-after-the-update",
        TRAIN.replace(
            "        history.append(loss.data)",
            "        history.append(sum((model(x) - y) ** 2 for x, y in zip(xs, ys)).data / len(xs))",
        ),
        False,
        "at step 0 the loss should be",
    ),
    # ---------------------------------------------------------------- softmax-cross-entropy
    Case(
        "softmax-cross-entropy",
        "log-sum-exp",
        _softmax("self.grad += out.grad / self.data", SHIFTED_LOSS),
        True,
    ),
    Case(
        "softmax-cross-entropy",
        "shift-by-the-top-value",
        _softmax(
            "self.grad = self.grad + (1 / self.data) * out.grad",
            """    top = max(logits, key=lambda z: z.data)
    total = Value(0.0)
    for z in logits:
        total = total + (z - top).exp()
    return total.log() + top - logits[label]""",
        ),
        True,
    ),
    Case(
        "softmax-cross-entropy",
        "probability-underflows",
        _softmax(
            "self.grad = self.grad + (1 / self.data) * out.grad",
            """    top = max(logits, key=lambda z: z.data)
    exps = [(z - top).exp() for z in logits]
    p = exps[label] / sum(exps)
    return -p.log()""",
        ),
        False,
        "the probability of class 1 is exp(-1000), which is 0.0 as a float",
    ),
    Case(
        "softmax-cross-entropy",
        "log-equals",
        _softmax("self.grad = out.grad / self.data", SHIFTED_LOSS),
        False,
        "your rule for log (your code for 'softmax-cross-entropy') sets a.grad with `=`",
    ),
    Case(
        "softmax-cross-entropy",
        "shifts-in-place",
        _softmax(
            "self.grad += out.grad / self.data",
            """    biggest = max(z.data for z in logits)
    for z in logits:
        z.data -= biggest
    total = sum(z.exp() for z in logits)
    return total.log() - logits[label]""",
        ),
        False,
        "changed the logits",
    ),
    Case(
        "softmax-cross-entropy",
        "log-rule-of-output",
        _softmax("self.grad += out.grad / out.data", SHIFTED_LOSS),
        False,
        "d log(a)/da = 1/a at a = 2 should be 0.5",
    ),
    Case(
        "softmax-cross-entropy",
        "always-class-0",
        _softmax("self.grad += out.grad / self.data", SHIFTED_LOSS.replace("logits[label]", "logits[0]")),
        False,
        "and class 1 the loss should be",
    ),
    Case(
        "softmax-cross-entropy",
        "forgets-to-shift-back",
        _softmax(
            "self.grad += out.grad / self.data",
            SHIFTED_LOSS.replace("(logits[label] - biggest)", "logits[label]"),
        ),
        False,
        "the loss should be",
    ),
    Case(
        "softmax-cross-entropy",
        "log10",
        _softmax("self.grad += out.grad / self.data", SHIFTED_LOSS, "math.log10(self.data)"),
        False,
        "log(a) at a = 2 should be 0.693147",
    ),
    # Found by the outside learners (issue 28): it passed every check before.
    Case(
        "gradient-check",
        "judges-by-the-first-input-alone",
        GRADCHECK.replace(
            """    for v, n in zip(inputs, numerical_gradient(f, xs)):
        if abs(v.grad - n) > tolerance * max(1.0, abs(v.grad), abs(n)):
            return False
    return True""",
            """    first = numerical_gradient(f, xs)[0]
    return abs(inputs[0].grad - first) <= tolerance * max(1.0, abs(first))""",
        ),
        False,
        "compare every input's gradient, not only the first",
    ),
]

CASES += [
    # ---------------------------------------------------------------- descent
    Case(
        "descent",
        "while-loop",
        "def descend(f, x, lr, steps):\n    taken = 0\n    while taken < steps:\n"
        "        x -= lr * slope(f, x)\n        taken += 1\n    return x\n",
        True,
        earlier={"slope": "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x)) / h\n"},
    ),
    Case(
        "descent",
        "own-central-slope",
        "def descend(f, x, lr, steps):\n    for _ in range(steps):\n"
        "        g = (f(x + 1e-5) - f(x - 1e-5)) / 2e-5\n        x = x - lr * g\n    return x\n",
        True,
    ),
    Case(
        "descent",
        "uphill",
        "def descend(f, x, lr, steps):\n"
        "    for _ in range(steps):\n        x += lr * slope(f, x)\n    return x\n",
        False,
        "went uphill",
    ),
    Case(
        "descent",
        "no-lr",
        "def descend(f, x, lr, steps):\n    for _ in range(steps):\n        x -= slope(f, x)\n    return x\n",
        False,
        "multiply it by lr",
    ),
    Case(
        "descent",
        "step-not-kept",
        "def descend(f, x, lr, steps):\n"
        "    for _ in range(steps):\n        x - lr * slope(f, x)\n    return x\n",
        False,
        "x did not move",
    ),
    Case(
        "descent",
        "returns-after-one-step",
        "def descend(f, x, lr, steps):\n    for _ in range(steps):\n        return x - lr * slope(f, x)\n",
        False,
        "100 steps should reach the bottom",
    ),
    Case(
        "descent",
        "slope-measured-once",
        "def descend(f, x, lr, steps):\n    g = slope(f, x)\n    for _ in range(steps):\n"
        "        x -= lr * g\n    return x\n",
        False,
        "100 steps should reach the bottom",
    ),
    Case(
        "descent",
        "divides-by-lr",
        "def descend(f, x, lr, steps):\n"
        "    for _ in range(steps):\n        x -= slope(f, x) / lr\n    return x\n",
        False,
        "should reach x = 0.06",
    ),
    Case(
        "descent",
        "one-step-too-many",
        "def descend(f, x, lr, steps):\n"
        "    for _ in range(steps + 1):\n        x -= lr * slope(f, x)\n    return x\n",
        False,
        "should reach x = 0.06",
    ),
    # ---------------------------------------------------------------- fan-out
    Case(
        "fan-out",
        "expanded",
        "def gradient_of_a(a, b, c):\n    # L = a*a*b + a*b*c\n    return 2 * a * b + b * c\n",
        True,
    ),
    Case(
        "fan-out",
        "shares-named",
        "def gradient_of_a(a, b, c):\n    u = a * b\n    v = a + c\n    dL_du, dL_dv = v, u\n"
        "    grad = 0.0\n    grad += b * dL_du\n    grad += 1 * dL_dv\n    return grad\n",
        True,
    ),
    Case(
        "fan-out",
        "share-through-u",
        "def gradient_of_a(a, b, c):\n    return b * (a + c)\n",
        False,
        "only the share through u",
    ),
    Case(
        "fan-out",
        "overwritten-share",
        "def gradient_of_a(a, b, c):\n"
        "    u, v = a * b, a + c\n    grad = b * v\n    grad = u\n    return grad\n",
        False,
        "only the share through v",
    ),
    Case(
        "fan-out",
        "shares-multiplied",
        "def gradient_of_a(a, b, c):\n    return (b * (a + c)) * (a * b)\n",
        False,
        "multiplied",
    ),
    Case(
        "fan-out",
        "product-not-swapped",
        "def gradient_of_a(a, b, c):\n    u, v = a * b, a + c\n    return a * v + u\n",
        False,
        "nudging a gives",
    ),
    Case(
        "fan-out",
        "gradient-of-b",
        "def gradient_of_a(a, b, c):\n    return a * (a + c)\n",
        False,
        "nudging a gives",
    ),
    Case(
        "fan-out",
        "returns-the-loss",
        "def gradient_of_a(a, b, c):\n    return (a * b) * (a + c)\n",
        False,
        "nudging a gives",
    ),
    # ---------------------------------------------------------------- trace
    Case(
        "trace",
        "a-stack-and-a-dict-of-ids",
        "def trace(root):\n    nodes, edges, seen, stack = [], [], {}, [root]\n    while stack:\n"
        "        n = stack.pop()\n        if id(n) in seen:\n            continue\n        seen[id(n)] = n\n"
        "        nodes.append(n)\n        for ch in n._prev:\n            edges.append((ch, n))\n"
        "            stack.append(ch)\n    return nodes, edges\n",
        True,
    ),
    Case(
        "trace",
        "each-pair-once",
        "def trace(root):\n    nodes, edges, seen, pairs = [], [], set(), set()\n\n    def build(v):\n"
        "        if id(v) not in seen:\n            seen.add(id(v))\n            nodes.append(v)\n"
        "            for child in v._prev:\n                if (id(child), id(v)) not in pairs:\n"
        "                    pairs.add((id(child), id(v)))\n                    edges.append((child, v))\n"
        "                build(child)\n\n    build(root)\n    return nodes, edges\n",
        True,
    ),
    Case(
        "trace",
        "micrograd-sets",
        "def trace(root):\n    nodes, edges = set(), set()\n\n    def build(v):\n        if v not in nodes:\n"
        "            nodes.add(v)\n            for child in v._prev:\n                edges.add((child, v))\n"
        "                build(child)\n\n    build(root)\n    return nodes, edges\n",
        False,
        "cannot go in a set",
    ),
    Case(
        "trace",
        "one-level",
        "def trace(root):\n    nodes, edges = [root], []\n    for child in root._prev:\n"
        "        nodes.append(child)\n        edges.append((child, root))\n    return nodes, edges\n",
        False,
        "follow the children of the children too",
    ),
    Case(
        "trace",
        "no-memory",
        "def trace(root):\n    nodes, edges = [root], []\n    for child in root._prev:\n"
        "        edges.append((child, root))\n        more_nodes, more_edges = trace(child)\n"
        "        nodes += more_nodes\n        edges += more_edges\n    return nodes, edges\n",
        False,
        "times in nodes",
    ),
    Case(
        "trace",
        "pairs-parent-first",
        "def trace(root):\n    nodes, edges, seen = [], [], set()\n\n    def walk(v):\n"
        "        if id(v) in seen:\n            return\n        seen.add(id(v))\n        nodes.append(v)\n"
        "        for c in v._prev:\n            edges.append((v, c))\n            walk(c)\n\n"
        "    walk(root)\n    return nodes, edges\n",
        False,
        "your pairs run (node, child)",
    ),
    Case(
        "trace",
        "children-only",
        "def trace(root):\n    nodes, edges, seen = [], [], set()\n\n    def walk(v):\n"
        "        for c in v._prev:\n            edges.append((c, v))\n            if id(c) not in seen:\n"
        "                seen.add(id(c))\n                nodes.append(c)\n                walk(c)\n\n"
        "    walk(root)\n    return nodes, edges\n",
        False,
        "is a node of its graph too",
    ),
    Case(
        "trace",
        "labels-for-nodes",
        "def trace(root):\n    nodes, edges, seen = [], [], set()\n\n    def walk(v):\n"
        "        if v.label in seen:\n            return\n        seen.add(v.label)\n"
        "        nodes.append(v.label)\n        for c in v._prev:\n"
        "            edges.append((c, v))\n            walk(c)\n\n    walk(root)\n    return nodes, edges\n",
        False,
        "which is not a node below",
    ),
    Case(
        "trace",
        "no-edges",
        "def trace(root):\n    nodes, seen = [], set()\n\n    def walk(v):\n        if id(v) not in seen:\n"
        "            seen.add(id(v))\n            nodes.append(v)\n            for c in v._prev:\n"
        "                walk(c)\n\n    walk(root)\n    return nodes, []\n",
        False,
        "every child of every node gives an arrow into it",
    ),
    # ---------------------------------------------------------------- diagnose
    Case(
        "diagnose",
        "each-mistake-fixed-rate-lower",
        DIAGNOSE_STUB.replace(ZERO_MISSING, ZERO_ADDED).replace(SCALED, "").replace("rate=3.0", "rate=0.1"),
        True,
    ),
    Case(
        "diagnose",
        "zeroed-after-the-update",
        DIAGNOSE_STUB.replace(UPDATE, UPDATE_THEN_ZERO, 1)
        .replace(SCALED, "")
        .replace("rate=3.0", "rate=0.2"),
        True,
    ),
    Case(
        "diagnose",
        "every-rate-turned-down",
        DIAGNOSE_STUB.replace("rate=0.2", "rate=0.05").replace("rate=3.0", "rate=0.05"),
        False,
        "leave those of a sound loop",
    ),
    Case("diagnose", "the-stub-as-it-is", DIAGNOSE_STUB, False, "its first loss"),
    Case(
        "diagnose",
        "smaller-start-not-the-given-one",
        DIAGNOSE_STUB.replace("p.data *= 10", "p.data *= 0.1"),
        False,
        "the first loss, before any step, should be the model's as it was given",
    ),
    Case(
        "diagnose",
        "zeroed-between-backward-and-update",
        DIAGNOSE_STUB.replace(ZERO_MISSING, ZERO_TOO_LATE, 1),
        False,
        "leave those of a sound loop",
    ),
    Case(
        "diagnose",
        "c-fixed-uphill",
        DIAGNOSE_STUB.replace("rate=3.0", "rate=-0.2"),
        False,
        "rises above",
    ),
    Case(
        "diagnose",
        "a-drops-its-first-loss",
        DIAGNOSE_STUB.replace(ZERO_MISSING, ZERO_ADDED).replace(
            "    return losses\n", "    return losses[1:]\n", 1
        ),
        False,
        "should return 20 losses",
    ),
    # ---------------------------------------------------------------- torch-port
    Case("torch-port", "parameters-and-update-by-hand", TORCH_BY_HAND, True),
    Case("torch-port", "a-module-of-its-own-and-a-state-dict", TORCH_STATE_DICT, True),
    Case(
        "torch-port",
        "zeroed-between-backward-and-step",
        TORCH_PORT.replace(
            "        loss.backward()\n        optimizer.step()\n",
            "        loss.backward()\n        optimizer.zero_grad()\n        optimizer.step()\n",
        ),
        False,
        "at step 1 the loss should be",
    ),
    Case(
        "torch-port",
        "examples-in-32-bit-floats",
        TORCH_PORT.replace("inputs = torch.tensor(xs, dtype=torch.float64)", "inputs = torch.tensor(xs)"),
        False,
        "torch.tensor(xs) makes 32-bit floats",
    ),
    Case(
        "torch-port",
        "no-tanh-after-the-last-layer",
        TORCH_STATE_DICT.replace(
            "        for layer in self.layers:\n            x = torch.tanh(layer(x))\n",
            "        for layer in self.layers[:-1]:\n            x = torch.tanh(layer(x))\n"
            "        x = self.layers[-1](x)\n",
        ),
        False,
        "a tanh after every layer (the last one too)",
    ),
    Case(
        "torch-port",
        "losses-kept-as-tensors",
        TORCH_PORT.replace("losses.append(loss.item())", "losses.append(loss)"),
        False,
        "return the losses as floats, loss.item()",
    ),
    Case(
        "torch-port",
        "forward-pass-under-no-grad",
        TORCH_BY_HAND.replace(
            "        loss = ((network(x) - y) ** 2).mean()\n",
            "        with torch.no_grad():\n            out = network(x)\n"
            "        loss = ((out - y) ** 2).mean()\n",
        ),
        False,
        "cut off from the network",
    ),
    Case(
        "torch-port",
        "the-chapters-rate-written-in",
        TORCH_PORT.replace("lr=learning_rate", "lr=0.2"),
        False,
        "your loop steps with 0.2: use the learning_rate it is given",
    ),
    Case(
        "torch-port",
        "gradients-never-cleared",
        TORCH_BY_HAND.replace("        for p in network.parameters():\n            p.grad = None\n", ""),
        False,
        "never zeroes the gradients",
    ),
    Case(
        "torch-port",
        "a-32-bit-network",
        TORCH_STATE_DICT.replace("net = Net(sizes).double()", "net = Net(sizes)").replace(
            "torch.tensor(rows, dtype=torch.double)", "torch.tensor(rows)"
        ),
        False,
        "32-bit floats",
    ),
]


# Slopes that take the book's instead of writing one, each loaded another way: each is told so.
BORROWED_SLOPES = {
    "exec of the reference's text": (
        "import pathlib, importlib.util\n"
        "spec = importlib.util.find_spec('scratch' + 'grad.exercises._pieces.slope')\n"
        "exec(pathlib.Path(spec.origin).with_name('solution.py').read_text())\n"
    ),
    "a wrapper of the reference, imported by a computed name": (
        "import importlib\n"
        "book = importlib.import_module('scratch' + 'grad.exercises._pieces.slope.solution')\n"
        "def slope(f, x, h=1e-6):\n    return book.slope(f, x, h)\n"
    ),
    "the reference's function itself": (
        "import importlib\n"
        "slope = importlib.import_module('scratch' + 'grad.exercises._pieces.slope.solution').slope\n"
    ),
}
