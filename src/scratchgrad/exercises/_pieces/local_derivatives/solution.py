import math


class Value(Value):  # your Value from "The Value object", re-opened
    def __init__(self, data, label="", _children=(), _op=""):
        super().__init__(data, label, _children, _op)
        self.grad = 0.0
        self._backward = lambda: None  # an input has nothing to pass its gradient to

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward():  # d(out)/d(self) = 1, d(out)/d(other) = 1
            self.grad = 1.0 * out.grad
            other.grad = 1.0 * out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward():  # d(out)/d(self) = other, d(out)/d(other) = self
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, "", (self,), "tanh")

        def _backward():  # d(out)/d(self) = 1 - tanh(self)**2
            self.grad = (1 - t**2) * out.grad

        out._backward = _backward
        return out
