import random


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)

    def __call__(self, x):
        return Value(0.0)  # TODO: tanh(w·x + b)

    def parameters(self):
        return []  # TODO: every weight, and the bias


class Layer:
    def __init__(self, nin, nout):
        self.neurons = []  # TODO: nout neurons, each with nin inputs

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return []  # TODO


class MLP:
    def __init__(self, nin, nouts):
        self.layers = []  # TODO: one Layer per size in nouts

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return []  # TODO
