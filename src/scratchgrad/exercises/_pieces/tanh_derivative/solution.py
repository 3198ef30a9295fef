import math


def tanh_derivative(x):
    """d/dx tanh(x), written with tanh(x) itself."""
    t = math.tanh(x)
    return 1 - t**2
