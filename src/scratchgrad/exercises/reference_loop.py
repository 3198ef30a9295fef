"""The chapter's training loop, written once for the checks that compare a reader's losses with it:
the training exercise runs it on the reader's own model, the PyTorch port on scratchgrad's. Each
keyword puts back one of the classic slips, so that a check can name the reader's by finding the
slipped run that gives their very losses.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["losses"]


def losses(
    model,
    xs: Sequence,
    ys: Sequence,
    steps: int,
    rate: float,
    *,
    zero: bool = True,
    sign: float = 1.0,
    summed: bool = False,
    pairs: bool = False,
) -> list[float]:
    """The loss of each of `steps` steps of gradient descent on the mean squared error, each measured
    before its update. The slips: `zero=False` never zeroes the gradients, `sign=-1.0` steps uphill,
    `summed=True` sums the squared errors instead of averaging them, `pairs=True` compares every
    output with every target (a broadcast (n, 1) against (n,))."""
    history = []
    for _ in range(steps):
        outputs = [model(x) for x in xs]
        compared = [(o, y) for o in outputs for y in ys] if pairs else list(zip(outputs, ys, strict=True))
        loss = sum((o - y) ** 2 for o, y in compared)
        loss = loss if summed else loss / len(compared)
        if zero:
            for p in model.parameters():
                p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= sign * rate * p.grad
        history.append(loss.data)
    return history
