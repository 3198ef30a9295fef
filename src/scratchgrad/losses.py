"""Loss functions: one number that says how wrong the model is, as a `Value` to backpropagate.

Every loss here is a *mean* over the examples, so its size does not grow
with the number of examples and one learning rate suits any batch size.
They are built from few nodes: the sums are single n-ary nodes
(`scratchgrad.fused.total`, `sum_of_squares`), and the cross-entropies are one
node per example whose local derivatives are written down directly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from scratchgrad._checks import is_whole_number, non_negative
from scratchgrad.engine import Number, Value, sigmoid
from scratchgrad.fused import sum_of_squares, total

__all__ = ["accuracy", "binary_cross_entropy", "hinge", "mse", "predicted_class", "softmax_cross_entropy"]


# --8<-- [start:mse]
def mse(predictions: Sequence[Value], targets: Sequence[Number]) -> Value:
    """Mean squared error: mean((pᵢ − yᵢ)²).  d/dpᵢ = 2(pᵢ − yᵢ)/N for N examples.

    Example:
        >>> mse([Value(1.0), Value(-0.5)], [1.0, 0.5]).data  # (0² + 1²) / 2
        0.5
    """
    predictions, targets = _examples(predictions, targets, "mse")
    _check_values(predictions, "mse")
    return sum_of_squares([p - y for p, y in zip(predictions, targets, strict=True)]) * (1.0 / len(targets))


# --8<-- [end:mse]


# --8<-- [start:hinge]
def hinge(
    scores: Sequence[Value], targets: Sequence[Number], l2: float = 0.0, parameters: Iterable[Value] = ()
) -> Value:
    """The SVM max-margin loss: mean(max(0, 1 − yᵢ·sᵢ)) + l2·Σθ², for targets yᵢ = ±1.

    An example costs nothing once its score has the right sign with a margin
    of at least 1; otherwise d/dsᵢ = −yᵢ/N pushes the score towards its
    target. The optional L2 term (d/dθ = 2·l2·θ) pulls every parameter
    towards 0, which keeps the decision boundary smooth.

    Example:
        >>> hinge([Value(2.0), Value(0.5)], [1.0, 1.0]).data  # (0 + 0.5) / 2
        0.25
    """
    scores, targets = _examples(scores, targets, "hinge")
    _check_values(scores, "hinge")
    for y in targets:
        if y not in (1, -1):
            raise ValueError(f"hinge needs targets of +1 or -1, got {y!r}")
    non_negative(l2, "hinge", "l2", "the weight of the penalty")
    parameters = list(parameters)
    if l2 and not parameters:
        raise ValueError(
            f"hinge got l2={l2!r} but no parameters to penalise: pass parameters=model.parameters()"
        )
    margins = [(s * -y + 1).relu() for s, y in zip(scores, targets, strict=True)]
    data_loss = total(margins) * (1.0 / len(margins))
    return data_loss + sum_of_squares(parameters) * l2 if l2 else data_loss


# --8<-- [end:hinge]


def binary_cross_entropy(logits: Sequence[Value], targets: Sequence[Number]) -> Value:
    """Mean of −log σ(yᵢ·zᵢ) for logits zᵢ and targets yᵢ = ±1 (0/1 targets also work).

    σ(y·z) is the probability the model gives the right class, so this is the
    mean surprise at the truth. Per example it equals log(1 + exp(−y·z)),
    computed as max(−y·z, 0) + log(1 + exp(−|y·z|)) so that no
    exponential can overflow, even for a logit of 1000. d/dzᵢ = −yᵢ·σ(−yᵢ·zᵢ)/N.

    Example:
        >>> round(binary_cross_entropy([Value(0.0)], [1]).data, 6)  # log 2: a coin flip
        0.693147
    """
    logits, targets = _examples(logits, targets, "binary_cross_entropy")
    _check_values(logits, "binary_cross_entropy")
    labels = set(targets)
    if labels <= {0, 1}:
        targets = [2.0 * t - 1.0 for t in targets]
    elif not labels <= {-1, 1}:
        raise ValueError(
            f"binary_cross_entropy needs targets all in {{0, 1}} or all in {{-1, 1}}, got {targets!r}"
        )
    return total([_logistic_loss(z, y) for z, y in zip(logits, targets, strict=True)]) * (1.0 / len(targets))


def _logistic_loss(logit: Value, y: float) -> Value:
    """log(1 + exp(−y·z)) as one node.  d/dz = −y·σ(−y·z)."""
    wrong_way = -y * logit.data  # how far the logit points away from the true class
    loss = max(wrong_way, 0.0) + math.log1p(math.exp(-abs(wrong_way)))
    return Value(loss, "", (logit,), (-y * sigmoid(wrong_way),), "log(1+exp(-yz))")


# --8<-- [start:softmax_cross_entropy]
def softmax_cross_entropy(logit_rows: Sequence[Sequence[Value]], labels: Sequence[int]) -> Value:
    """Mean of −log softmax(zᵢ)[labelᵢ]: the multi-class cross-entropy.

    softmax(z)ⱼ = exp(zⱼ) / Σ exp(z), the sum over all classes, turns a row of
    logits into probabilities; the loss of a row is −log of the probability of
    its true class, which is log Σ exp(z) − z_label. The log-sum-exp is computed
    as m + log Σ exp(z − m) with m = max z, a plain number: every exponent is
    then ≤ 0 and nothing overflows. Each row is one node whose local
    derivatives are d/dzⱼ = softmax(z)ⱼ − [j = label], divided by N.

    Example:
        >>> round(softmax_cross_entropy([[Value(0.0), Value(0.0)]], [1]).data, 6)  # log 2
        0.693147
    """
    logit_rows, labels = _examples(logit_rows, labels, "softmax_cross_entropy")
    rows = [_cross_entropy_row(row, label) for row, label in zip(logit_rows, labels, strict=True)]
    return total(rows) * (1.0 / len(rows))


def _cross_entropy_row(row: Sequence[Value], label: int) -> Value:
    """log Σ exp(z) − z_label as one node.  d/dzⱼ = softmax(z)ⱼ − [j = label]."""
    if isinstance(row, Value) or not all(isinstance(z, Value) for z in row):
        raise TypeError(
            f"softmax_cross_entropy needs each row to be a list of Values (one per class), got {row!r}"
        )
    if not is_whole_number(label) or not 0 <= label < len(row):
        raise ValueError(f"softmax_cross_entropy: label {label!r} is not a class index 0 … {len(row) - 1}")
    z = [v.data for v in row]
    top = max(z)
    exps = [math.exp(zj - top) for zj in z]
    denominator = math.fsum(exps)
    loss = top + math.log(denominator) - z[label]
    local_grads = tuple([e / denominator - (j == label) for j, e in enumerate(exps)])
    return Value(loss, "", tuple(row), local_grads, "-log softmax")


# --8<-- [end:softmax_cross_entropy]


def accuracy(scores: Sequence[Value | Number | Sequence[Value | Number]], targets: Sequence[Number]) -> float:
    """The fraction of examples classified right, from 0.0 to 1.0.

    Binary: a score predicts the positive class when it is > 0, and a target
    is positive when it is > 0 (so ±1 and 0/1 targets both work).
    Multi-class: a row of scores predicts the index of its largest score,
    compared with the integer label.

    Example:
        >>> accuracy([Value(0.3), Value(-2.0), Value(0.1)], [1.0, -1.0, -1.0])
        0.6666666666666666
        >>> accuracy([[0.1, 0.7, 0.2], [0.9, 0.0, 0.1]], [1, 2])
        0.5
    """
    scores, targets = _examples(scores, targets, "accuracy")
    right = 0
    for score, target in zip(scores, targets, strict=True):
        wanted = target if isinstance(score, Sequence) else (1 if target > 0 else -1)
        right += predicted_class(score) == wanted
    return right / len(targets)


def predicted_class(score: Value | Number | Sequence[Value | Number]) -> int:
    """The class a network's output stands for: for one score, 1 when it is > 0, else -1 (the
    classes of ±1 targets); for a row of scores, one per class, the index of the largest (the first
    of equals).

    Example:
        >>> predicted_class(Value(-0.2)), predicted_class([0.1, 0.7, 0.7])
        (-1, 1)
    """
    if isinstance(score, Sequence):
        row = [_number(s) for s in score]
        return row.index(max(row))
    return 1 if _number(score) > 0 else -1


def _number(score: Value | Number) -> float:
    return score.data if isinstance(score, Value) else score


def _examples(outputs: Iterable[Any], targets: Iterable[Any], owner: str) -> tuple[list[Any], list[Any]]:
    """Both as lists of equal, non-zero length, or an error naming `owner`."""
    for name, given in (("outputs", outputs), ("targets", targets)):
        if isinstance(given, (Value, str)) or not isinstance(given, Iterable):
            raise TypeError(
                f"{owner} needs a list of {name}, one per example, got {type(given).__name__} {given!r}"
            )
    outputs, targets = list(outputs), list(targets)
    if len(outputs) != len(targets):
        raise ValueError(f"{owner} got {len(outputs)} outputs but {len(targets)} targets")
    if not outputs:
        raise ValueError(f"{owner} needs at least one example, got none")
    return outputs, targets


def _check_values(outputs: list[Any], owner: str) -> None:
    for out in outputs:
        if not isinstance(out, Value):
            raise TypeError(f"{owner} needs one Value per example, got {type(out).__name__} {out!r}")
