def train(model, xs, ys, steps, learning_rate):
    """Gradient descent on the mean squared error; returns the loss of every step."""
    losses = []
    for step in range(steps):
        predictions = [model(x) for x in xs]  # 1. forward
        loss = sum((p - y) ** 2 for p, y in zip(predictions, ys)) / len(xs)
        for p in model.parameters():  # 2. zero the gradients
            p.grad = 0.0
        loss.backward()  # 3. backward
        for p in model.parameters():  # 4. update
            p.data += learning_rate * p.grad
        losses.append(loss.data)
    return losses
