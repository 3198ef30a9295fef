def numerical_gradient(f, xs, h=1e-6):
    """d f / d xs[i] for every i, by nudging xs[i] both ways."""
    slopes = []
    for i in range(len(xs)):
        slopes.append(0.0)  # TODO: (f at xs[i] + h  −  f at xs[i] − h) / 2h, from fresh Values
    return slopes


def gradients_agree(f, xs, tolerance=1e-6):
    """True when backward() and numerical_gradient agree on every input."""
    values = [Value(x) for x in xs]
    f(*values).backward()
    return True  # TODO: compare each value.grad with the numerical slope
