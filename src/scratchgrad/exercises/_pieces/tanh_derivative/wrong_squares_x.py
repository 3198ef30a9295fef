def tanh_derivative(x):
    return 1 - x**2
