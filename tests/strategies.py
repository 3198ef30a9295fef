"""Hypothesis strategies shared by the test modules: the domains of the operations."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scratchgrad.fused import ACTIVATIONS

# No deadline: the machine is shared, and a slow example is not a wrong one.
gradient_examples = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reals(low: float = -5.0, high: float = 5.0) -> st.SearchStrategy[float]:
    """Finite floats in [low, high]."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


def away_from_zero(low: float = -5.0, high: float = 5.0, margin: float = 0.1) -> st.SearchStrategy[float]:
    """Floats in [low, high] at least `margin` from 0: divisors, and kinks such as relu's."""
    return reals(low, high).filter(lambda x: abs(x) >= margin)


positives = reals(0.1, 5.0)
"""Bases of logarithms and of powers with a non-integer exponent."""

activations = st.sampled_from(sorted(ACTIVATIONS))


def vectors(size: int, elements: st.SearchStrategy[float] | None = None) -> st.SearchStrategy[list[float]]:
    """Lists of exactly `size` floats."""
    return st.lists(reals() if elements is None else elements, min_size=size, max_size=size)


sizes = st.integers(1, 5)
"""Lengths of weight vectors and input lists."""

backward_passes = st.lists(
    st.one_of(st.just("output"), st.just("zero_grad"), st.integers(0, 40)), min_size=2, max_size=5
)
"""What to do to one graph, in turn: ``"output"`` backpropagates from the output, a number k
from the k-th node counted back from the newest (an input or a node in between), and
``"zero_grad"`` sets the inputs' gradients to 0."""
