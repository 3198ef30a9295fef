def backprop_by_hand(a, b, c, f, e, d, L):
    """Fill every .grad of e = a*b, d = e + c, L = d*f, from L back to the inputs."""
    L.grad = 1.0
    d.grad = f.data * L.grad  # L = d * f: the local derivative for d is f
    f.grad = d.data * L.grad
    e.grad = 1.0 * d.grad  # d = e + c: a sum passes the gradient on
    c.grad = 1.0 * d.grad
    a.grad = b.data * e.grad  # e = a * b
    b.grad = a.data * e.grad
