def numerical_gradient(f, xs, h=1e-6):
    """d f / d xs[i] for every i, by nudging xs[i] both ways."""

    def f_at(numbers):
        return f(*[Value(x) for x in numbers]).data

    slopes = []
    for i in range(len(xs)):
        up = list(xs)
        up[i] += h
        slopes.append((f_at(up) - f_at(xs)) / h)
    return slopes


def relative_error(a, b):
    """|a − b| / max(|a|, |b|, 1): relative for large numbers, absolute near 0."""
    return abs(a - b) / max(abs(a), abs(b), 1.0)


def gradients_agree(f, xs, tolerance=1e-6):
    """True when backward() and numerical_gradient agree on every input."""
    values = [Value(x) for x in xs]
    f(*values).backward()
    numerical = numerical_gradient(f, xs)
    return all(relative_error(v.grad, n) <= tolerance for v, n in zip(values, numerical))
