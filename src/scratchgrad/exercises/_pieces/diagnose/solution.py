def run_a(model, xs, ys, steps, learning_rate=0.2):
    """A training run of `steps` steps on the examples; returns the loss of every step."""
    losses = []
    for step in range(steps):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses


def run_b(model, xs, ys, steps, learning_rate=0.2):
    """A training run of `steps` steps on the examples; returns the loss of every step."""
    losses = []
    for step in range(steps):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses


def run_c(model, xs, ys, steps, learning_rate=0.2):
    """A training run of `steps` steps on the examples; returns the loss of every step."""
    losses = []
    for step in range(steps):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) / len(xs)
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= learning_rate * p.grad
        losses.append(loss.data)
    return losses
