def train(model, xs, ys, steps, learning_rate):
    """Gradient descent on the mean squared error; returns the loss of every step."""
    losses = []
    for step in range(steps):
        predictions = [model(x) for x in xs]
        loss = sum((p - y) ** 2 for p, y in zip(predictions, ys)) / len(xs)
        # TODO: zero the gradients, backward, then move every parameter against its gradient
        losses.append(loss.data)
    return losses
