"""Optimizers: turn the gradients left by ``loss.backward()`` into a step downhill.

The training loop is always the same four moves::

    optimizer.zero_grad()   # forget the last step's gradients (they accumulate)
    loss = ...              # forward pass
    loss.backward()         # d loss / d θ for every parameter θ
    optimizer.step()        # move every θ against its gradient

The optimizers differ only in how a gradient becomes a step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from scratchgrad._checks import is_number
from scratchgrad.engine import Value

__all__ = ["SGD", "Adam", "Optimizer"]


class Optimizer:
    """What every optimizer shares.

    Attributes:
        params: the Values it moves.
        lr: the learning rate (of the latest step, when it changes over time).
        steps: how many steps have been taken so far.
    """

    def __init__(self, params: Iterable[Value], lr: float) -> None:
        self.params = _parameters(params, type(self).__name__)
        self.lr = _check_rate(lr, f"{type(self).__name__} needs lr > 0", allow_zero=False)
        self.steps = 0

    # --8<-- [start:optimizer_zero_grad]
    def zero_grad(self) -> None:
        """Set every parameter's gradient to 0, ready for the next ``backward()``."""
        for param in self.params:
            param.grad = 0.0

    # --8<-- [end:optimizer_zero_grad]

    def step(self) -> None:
        """Move every parameter once, using its current ``.grad``."""
        raise NotImplementedError(f"{type(self).__name__} must define step()")


class SGD(Optimizer):
    """Stochastic gradient descent: θ ← θ − lr·g, optionally with momentum.

    With momentum μ each parameter keeps a velocity v ← μ·v + g and moves
    θ ← θ − lr·v: a gradient that keeps pointing the same way builds up speed
    (up to 1/(1 − μ) times the plain step), one that flips sign cancels out.

    Args:
        params: the Values to train, usually ``model.parameters()``.
        lr: the learning rate (> 0).
        momentum: μ in [0, 1); 0 is plain gradient descent.
        schedule: optional function of the step number t = 0, 1, 2, … that
            returns the learning rate of that step; it replaces `lr`, which
            then only shows the rate of the latest step.

    Example:
        >>> w = Value(2.0)
        >>> optimizer = SGD([w], lr=1.0, schedule=lambda t: 1.0 - 0.9 * t / 100)
        >>> (w * w).backward()  # d(w²)/dw = 4
        >>> optimizer.step()  # t = 0: lr = 1.0
        >>> w.data
        -2.0
    """

    def __init__(
        self,
        params: Iterable[Value],
        lr: float,
        momentum: float = 0.0,
        schedule: Callable[[int], float] | None = None,
    ) -> None:
        super().__init__(params, lr)
        if not is_number(momentum) or not 0 <= momentum < 1:
            raise ValueError(f"SGD needs 0 ≤ momentum < 1, got momentum={momentum!r}")
        if schedule is not None and not callable(schedule):
            raise TypeError(f"SGD needs schedule to be a function of the step number, got {schedule!r}")
        self.momentum = float(momentum)
        self.schedule = schedule
        self.velocities = [0.0] * len(self.params)

    # --8<-- [start:sgd_step]
    def step(self) -> None:
        if self.schedule is not None:
            t = self.steps
            self.lr = _check_rate(self.schedule(t), f"SGD schedule({t}) must give a learning rate ≥ 0")
        lr, momentum = self.lr, self.momentum
        if momentum:
            velocities = self.velocities
            for i, param in enumerate(self.params):
                velocities[i] = v = momentum * velocities[i] + param.grad
                param.data -= lr * v
        else:
            for param in self.params:
                param.data -= lr * param.grad
        self.steps += 1

    # --8<-- [end:sgd_step]


class Adam(Optimizer):
    """Adam: a step per parameter scaled by running averages of its gradient.

    For each parameter, with gradient g at step t = 1, 2, …::

        m ← β₁·m + (1 − β₁)·g          running mean of g
        v ← β₂·v + (1 − β₂)·g²         running mean of g²
        m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)   (undo the pull towards the initial 0)
        θ ← θ − lr · m̂ / (√v̂ + ε)

    m̂/√v̂ is about ±1 when the gradient is steady, so every parameter moves
    about `lr` per step whatever the size of its gradient.

    Example:
        >>> w = Value(5.0)
        >>> optimizer = Adam([w], lr=0.1)
        >>> (w * w).backward()
        >>> optimizer.step()  # the first step is lr·g/(|g| + ε) ≈ lr
        >>> round(w.data, 6)
        4.9
    """

    def __init__(
        self,
        params: Iterable[Value],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        super().__init__(params, lr)
        beta1, beta2 = betas
        if not (0 <= beta1 < 1 and 0 <= beta2 < 1):
            raise ValueError(f"Adam needs both betas in [0, 1), got betas={betas!r}")
        if not eps > 0:
            raise ValueError(f"Adam needs eps > 0, got eps={eps!r}")
        self.betas = (float(beta1), float(beta2))
        self.eps = float(eps)
        self.means = [0.0] * len(self.params)
        self.squares = [0.0] * len(self.params)

    def step(self) -> None:
        self.steps += 1
        beta1, beta2 = self.betas
        mean_correction = 1.0 - beta1**self.steps
        square_correction = 1.0 - beta2**self.steps
        lr, eps, means, squares = self.lr, self.eps, self.means, self.squares
        for i, param in enumerate(self.params):
            g = param.grad
            means[i] = m = beta1 * means[i] + (1.0 - beta1) * g
            squares[i] = v = beta2 * squares[i] + (1.0 - beta2) * g * g
            param.data -= lr * (m / mean_correction) / (math.sqrt(v / square_correction) + eps)


def _parameters(params: Iterable[Value], owner: str) -> list[Value]:
    """`params` as a list of distinct Values, or an error that says what is wrong."""
    if isinstance(params, Value) or not isinstance(params, Iterable):
        hint = ": pass model.parameters()" if hasattr(params, "parameters") else ""
        raise TypeError(f"{owner} needs a list of parameters (Values){hint}, got {type(params).__name__}")
    params = list(params)
    if not params:
        raise ValueError(f"{owner} got no parameters to optimize: the list is empty")
    seen = set()
    for param in params:
        if not isinstance(param, Value):
            kind = type(param).__name__
            raise TypeError(f"{owner} needs every parameter to be a Value, got {kind} {param!r}")
        if id(param) in seen:
            raise ValueError(f"{owner} got the same parameter twice ({param!r}): it would be stepped twice")
        seen.add(id(param))
    return params


def _check_rate(lr: object, problem: str, allow_zero: bool = True) -> float:
    """`lr` as a float, or a ValueError starting with `problem`."""
    valid = is_number(lr) and 0 <= lr < math.inf
    if not valid or (lr == 0 and not allow_zero):
        raise ValueError(f"{problem}, got lr={lr!r}")
    return float(lr)
