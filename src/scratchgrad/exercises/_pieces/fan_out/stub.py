def gradient_of_a(a, b, c):
    """dL/da for u = a*b, v = a + c, L = u*v: a is used twice, so two shares."""
    u, v = a * b, a + c
    return 0.0  # TODO: a's gradient, from the shares that reach it
