import math


def tanh_derivative(x):
    return 1 - math.tanh(x)
