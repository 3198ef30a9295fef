def gradient_of_a(a, b, c):
    """dL/da for u = a*b, v = a + c, L = u*v: a is used twice, so two shares."""
    u, v = a * b, a + c
    through_u = b * v  # u = a * b: local derivative b, times dL/du = v
    through_v = 1.0 * u  # v = a + c: local derivative 1, times dL/dv = u
    return through_u + through_v
