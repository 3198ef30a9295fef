def descend(f, x, lr, steps):
    """Gradient descent on f from x: `steps` times, step against the slope by lr times it."""
    for _ in range(steps):
        pass  # TODO: one step of x against the slope of f at x
    return x
