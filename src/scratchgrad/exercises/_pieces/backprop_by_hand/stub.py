def backprop_by_hand(a, b, c, f, e, d, L):
    """Fill every .grad of e = a*b, d = e + c, L = d*f, from L back to the inputs."""
    L.grad = 1.0  # dL/dL
    d.grad = 0.0  # TODO: L = d * f
    f.grad = 0.0  # TODO
    e.grad = 0.0  # TODO: d = e + c
    c.grad = 0.0  # TODO
    a.grad = 0.0  # TODO: e = a * b
    b.grad = 0.0  # TODO
