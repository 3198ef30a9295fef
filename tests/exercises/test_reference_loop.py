"""The checks' one training loop: the chapter's losses, and each slip a different run."""

from __future__ import annotations

import pytest

from scratchgrad.datasets import four_points
from scratchgrad.exercises.reference_loop import losses
from scratchgrad.losses import mse
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD
from scratchgrad.train import fit


def _losses(**slip: float) -> list[float]:
    xs, ys = four_points()
    return losses(MLP(3, [4, 1], rng=3), xs, ys, 6, 0.1, **slip)


def test_the_loop_gives_the_losses_of_fit_with_mse_and_sgd():
    xs, ys = four_points()
    model = MLP(3, [4, 1], rng=3)
    assert _losses() == fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.1), steps=6).loss


def test_the_loss_falls_and_is_measured_before_each_update():
    xs, ys = four_points()
    model = MLP(3, [4, 1], rng=3)
    before = mse([model(x) for x in xs], ys).data
    run = losses(model, xs, ys, 6, 0.1)
    assert run[0] == before
    assert run[-1] < run[0]


@pytest.mark.parametrize(
    "slip", [{"zero": False}, {"sign": -1.0}, {"summed": True}, {"pairs": True}], ids=str
)
def test_every_slip_gives_other_losses(slip):
    right, slipped = _losses(), _losses(**slip)
    assert len(slipped) == len(right)
    assert slipped != right


def test_a_summed_loss_is_len_xs_times_the_mean_at_the_first_step():
    assert _losses(summed=True)[0] == pytest.approx(4 * _losses()[0], rel=1e-12)
