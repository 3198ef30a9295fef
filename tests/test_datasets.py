"""The data sets: exact toy sets, the geometry of the random ones, determinism, bad arguments."""

import doctest
import math
import random
import re
import statistics

import pytest

from scratchgrad import datasets
from scratchgrad.datasets import circles, four_points, moons, spiral, xor

RANDOM_SETS = {
    "moons": lambda seed: moons(n=40, seed=seed),
    "circles": lambda seed: circles(n=40, seed=seed),
    "spiral": lambda seed: spiral(n_per_class=10, seed=seed),
}


def test_four_points_are_the_seed_examples():
    xs, ys = four_points()
    assert xs == [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    assert ys == [1.0, -1.0, -1.0, 1.0]


def test_xor_is_plus_one_where_the_bits_differ():
    xs, ys = xor()
    assert sorted(map(tuple, xs)) == [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
    assert ys == [1.0 if a != b else -1.0 for a, b in xs]


@pytest.mark.parametrize("name", RANDOM_SETS)
def test_same_seed_same_points_other_seed_other_points(name):
    make = RANDOM_SETS[name]
    assert make(3) == make(3)
    assert make(3)[0] != make(4)[0]


@pytest.mark.parametrize("name", RANDOM_SETS)
def test_global_random_state_is_left_alone(name):
    random.seed(11)
    before = random.getstate()
    RANDOM_SETS[name](0)
    assert random.getstate() == before


@pytest.mark.parametrize("name", RANDOM_SETS)
def test_points_are_lists_of_two_floats(name):
    xs, _ = RANDOM_SETS[name](0)
    assert all(type(x) is list and len(x) == 2 and all(type(c) is float for c in x) for x in xs)


@pytest.mark.parametrize("n", [2, 7, 100])
def test_moons_put_half_the_points_on_each_moon(n):
    xs, ys = moons(n=n, noise=0.0)
    assert (ys.count(-1.0), ys.count(1.0)) == (n // 2, n - n // 2)
    assert len(xs) == n


def test_noiseless_moons_lie_on_their_half_circles():
    xs, ys = moons(n=50, noise=0.0)
    for (x, y), label in zip(xs, ys, strict=True):
        cx, cy, upper = (0.0, 0.0, True) if label == -1.0 else (1.0, 0.5, False)
        assert math.hypot(x - cx, y - cy) == pytest.approx(1.0)
        assert (y >= cy - 1e-12) if upper else (y <= cy + 1e-12)


def test_moons_are_shuffled():
    _, ys = moons(n=100, noise=0.0)
    assert ys != sorted(ys)


def test_moon_noise_has_the_requested_spread():
    xs, ys = moons(n=2000, noise=0.1, seed=5)
    radial = [math.hypot(x, y) - 1.0 for (x, y), label in zip(xs, ys, strict=True) if label == -1.0]
    assert statistics.pstdev(radial) == pytest.approx(0.1, rel=0.15)


def test_noiseless_circles_have_radius_one_and_factor():
    xs, ys = circles(n=21, noise=0.0, factor=0.3)
    radii = {
        label: sorted(round(math.hypot(*x), 12) for x, y in zip(xs, ys, strict=True) if y == label)
        for label in (-1.0, 1.0)
    }
    assert radii == {-1.0: [1.0] * 10, 1.0: [0.3] * 11}


def test_circle_points_are_distinct():
    xs, _ = circles(n=40, noise=0.0)
    assert len({(round(x, 9), round(y, 9)) for x, y in xs}) == 40


def test_spiral_has_n_points_per_class_within_the_unit_disc():
    xs, ys = spiral(n_per_class=25, classes=4, noise=0.0)
    assert sorted(set(ys)) == [0, 1, 2, 3]
    assert all(type(y) is int and ys.count(y) == 25 for y in ys)
    assert max(math.hypot(*x) for x in xs) == pytest.approx(1.0)


def test_noiseless_spiral_arm_angle_grows_with_radius():
    xs, ys = spiral(n_per_class=9, classes=3, noise=0.0)
    for (x, y), label in zip(xs, ys, strict=True):
        r = math.hypot(x, y)
        if r > 0:
            angle = 4.0 * (label + r)
            assert (x, y) == pytest.approx((r * math.sin(angle), r * math.cos(angle)))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: moons(n=0), ValueError, "moons needs n to be a whole number ≥ 2, got n=0"),
        (lambda: moons(n=-5), ValueError, "got n=-5"),
        (lambda: moons(n=2.5), ValueError, "got n=2.5"),
        (
            lambda: moons(noise=-0.1),
            ValueError,
            "moons needs noise ≥ 0 (a standard deviation), got noise=-0.1",
        ),
        (lambda: moons(noise=math.nan), ValueError, "got noise=nan"),
        (lambda: moons(seed="a"), TypeError, "moons needs an int seed, got str 'a'"),
        (lambda: circles(factor=1.5), ValueError, "circles needs 0 < factor < 1"),
        (lambda: circles(noise=-1), ValueError, "circles needs noise ≥ 0"),
        (
            lambda: spiral(classes=1),
            ValueError,
            "spiral needs classes to be a whole number ≥ 2, got classes=1",
        ),
        (lambda: spiral(n_per_class=0), ValueError, "spiral needs n_per_class to be a whole number ≥ 1"),
    ],
)
def test_bad_arguments_raise_errors_naming_the_problem(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_docstring_examples_hold():
    assert doctest.testmod(datasets).failed == 0


# --- split: held-out examples ---


@pytest.mark.parametrize(("n", "fraction", "held"), [(10, 0.3, 3), (100, 0.3, 30), (4, 0.1, 1), (4, 0.9, 3)])
def test_split_holds_out_the_fraction_asked_keeping_one_example_on_each_side(n, fraction, held):
    xs, ys = moons(n=n, seed=2)
    (train_xs, train_ys), (test_xs, test_ys) = datasets.split(xs, ys, fraction, seed=5)
    assert (len(test_xs), len(train_xs)) == (held, n - held)
    assert len(train_ys) == len(train_xs)
    assert len(test_ys) == len(test_xs)
    pairs = sorted(zip(map(tuple, xs), ys, strict=False))
    assert sorted(zip(map(tuple, train_xs + test_xs), train_ys + test_ys, strict=False)) == pairs


def test_split_is_the_same_for_the_same_seed_and_differs_for_another():
    xs, ys = moons(n=50, seed=0)
    first = datasets.split(xs, ys, 0.3, seed=1)
    assert datasets.split(xs, ys, 0.3, seed=1) == first
    assert datasets.split(xs, ys, 0.3, seed=2) != first


def test_split_keeps_the_examples_order_on_each_side():
    xs, ys = [[float(i), 0.0] for i in range(20)], [1.0] * 20
    (train_xs, _), (test_xs, _) = datasets.split(xs, ys, 0.25, seed=3)
    assert train_xs == sorted(train_xs)
    assert test_xs == sorted(test_xs)


@pytest.mark.parametrize(
    ("xs", "ys", "fraction", "message"),
    [
        ([[0.0, 0.0]] * 3, [1.0] * 2, 0.3, "one target per point, got 3 points and 2 targets"),
        ([[0.0, 0.0]], [1.0], 0.3, "at least 2 examples"),
        ([[0.0, 0.0]] * 4, [1.0] * 4, 0.0, "0 < test_fraction < 1, got test_fraction=0.0"),
        ([[0.0, 0.0]] * 4, [1.0] * 4, 1.0, "0 < test_fraction < 1, got test_fraction=1.0"),
        ([[0.0, 0.0]] * 4, [1.0] * 4, "0.3", "0 < test_fraction < 1, got test_fraction='0.3'"),
    ],
)
def test_split_refuses_what_it_cannot_split_and_says_why(xs, ys, fraction, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        datasets.split(xs, ys, fraction)
