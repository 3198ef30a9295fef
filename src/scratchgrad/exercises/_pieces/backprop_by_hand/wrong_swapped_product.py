def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = d.data * L.grad
    f.grad = f.data * L.grad
    e.grad = d.grad
    c.grad = d.grad
    a.grad = a.data * e.grad
    b.grad = b.data * e.grad
