"""Stage 3: `=` instead of `+=` in backward loses the gradient of a Value used twice."""

import math

import pytest

from scratchgrad.stages import closures
from scratchgrad.stages.overwrite_bug import Value


def test_a_plus_a_gives_one_instead_of_two():
    a = Value(3.0)
    (a + a).backward()
    assert a.grad == 1.0
    fixed = closures.Value(3.0)
    (fixed + fixed).backward()
    assert fixed.grad == 2.0


def test_a_times_a_gives_a_instead_of_two_a():
    a = Value(3.0)
    (a * a).backward()
    assert a.grad == 3.0  # d(a²)/da = 6


def test_subtraction_built_from_the_buggy_ops_inherits_the_bug():
    a = Value(3.0)
    (a - a * 2).backward()  # d/da = 1 - 2 = -1, but the path through a * 2 writes last
    assert a.grad == -2.0


def test_no_reuse_no_visible_bug():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    (a * b + c).backward()
    assert (a.grad, b.grad, c.grad) == (-3.0, 2.0, 1.0)


def test_results_keep_the_buggy_class():
    a = Value(1.0)
    assert type(a + 1) is Value
    assert type(2 * a) is Value


def test_tanh_sets_its_share_too():
    a = Value(0.5)
    t = a.tanh()
    assert type(t) is Value
    t.backward()
    assert a.grad == pytest.approx(1 - t.data**2)  # one consumer: right
    a.grad = 0.0
    both = a.tanh() + a.tanh()
    both.backward()
    assert a.grad == pytest.approx(1 - math.tanh(0.5) ** 2)  # two: one share kept


def test_values_of_the_closure_stage_are_used_as_they_are():
    a, b = Value(2.0), closures.Value(-3.0)
    (a * b).backward()
    assert (a.grad, b.grad) == (-3.0, 2.0)
    assert (a / 4).data == 0.5
