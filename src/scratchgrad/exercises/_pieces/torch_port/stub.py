import torch


def torch_network(starting_weights):
    """The network of `starting_weights` in PyTorch: per layer, nn.Linear then tanh, in float64."""
    layers = []
    # TODO: for each layer's (rows, biases), an nn.Linear holding those numbers, then a tanh
    return torch.nn.Sequential(*layers)


def train_in_torch(network, xs, ys, steps, learning_rate):
    """The chapter's loop in PyTorch; returns the loss of every step, as floats."""
    losses = []
    # TODO: the examples as tensors, an optimizer, and `steps` steps of the four moves
    return losses
