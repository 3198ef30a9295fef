import torch


def torch_network(starting_weights):
    """The network of `starting_weights` in PyTorch: per layer, nn.Linear then tanh, in float64."""
    layers = []
    for rows, biases in starting_weights:  # row j holds neuron j's weights
        linear = torch.nn.Linear(len(rows[0]), len(rows), dtype=torch.float64)
        with torch.no_grad():  # setting parameters is not part of what we differentiate
            linear.weight.copy_(torch.tensor(rows, dtype=torch.float64))
            linear.bias.copy_(torch.tensor(biases, dtype=torch.float64))
        layers += [linear, torch.nn.Tanh()]
    return torch.nn.Sequential(*layers)


def train_in_torch(network, xs, ys, steps, learning_rate):
    """The chapter's loop in PyTorch: mean squared error, zero_grad, backward, SGD's step."""
    inputs = torch.tensor(xs, dtype=torch.float64)  # all the examples: one row each
    targets = torch.tensor(ys, dtype=torch.float64)
    optimizer = torch.optim.SGD(network.parameters(), lr=learning_rate)
    losses = []
    for step in range(steps):
        outputs = network(inputs).squeeze(1)  # one column -> a vector, the shape of targets
        loss = torch.nn.functional.mse_loss(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
