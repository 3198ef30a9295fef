"""The browser tests' own rule of what "same output" means."""

from __future__ import annotations

from pages import float_differences, skeleton


def test_floats_may_differ_in_the_last_bit_only():
    assert float_differences("n = 0.7071067811865476\n", "n = 0.7071067811865477\n") == [
        ("0.7071067811865476", "0.7071067811865477")
    ]
    assert float_differences("n = 0.70\n", "n = 0.71\n") is None


def test_numbers_at_rounding_noise_level_need_only_both_be_tiny():
    assert float_differences("worst relative error 1.4e-11", "worst relative error 4.1e-11") == [
        ("1.4e-11", "4.1e-11")
    ]
    assert float_differences("worst relative error 1.4e-11", "worst relative error 4.1e-08") is None


def test_text_and_integers_must_match_exactly():
    assert float_differences("step 1 loss 0.5\n", "step 2 loss 0.5\n") is None
    assert float_differences("loss 0.5\n", "Loss 0.5\n") is None
    assert float_differences("0.5 0.5", "0.5") is None
    assert float_differences("same 1.0\n", "same 1.0\n") == []


def test_no_output_matches_only_no_output():
    assert float_differences(None, None) == []
    assert float_differences("", None) is None


def test_a_measurement_block_must_keep_its_lines_not_its_numbers():
    cpython = "step  1100.6 ms, collector   979.5 ms (89%)\n"
    browser = "step   209.9 ms, collector   105.6 ms (50%)\n"
    assert skeleton(browser) == skeleton(cpython) == "step # ms, collector # ms (#%)\n"
    assert skeleton("step 1 ms\n") != skeleton("stop 1 ms\n")
    assert skeleton(None) is None
