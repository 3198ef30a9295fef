def backprop_by_hand(a, b, c, f, e, d, L):
    L.grad = 1.0
    d.grad = -2.0
    f.grad = 4.0
    e.grad = -2.0
    c.grad = -2.0
    a.grad = 6.0
    b.grad = -4.0
