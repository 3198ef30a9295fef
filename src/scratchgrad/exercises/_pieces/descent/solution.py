def descend(f, x, lr, steps):
    """Gradient descent on f from x: `steps` times, step against the slope by lr times it."""
    for _ in range(steps):
        x = x - lr * slope(f, x)
    return x
