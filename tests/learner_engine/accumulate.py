import math


class Value(Value):
    def __add__(self, other):
        other = Value._wrap(other)
        result = Value(self.data + other.data, "", (self, other), "+")

        def backward_rule():
            self.grad += result.grad
            other.grad += result.grad

        result._backward = backward_rule
        return result

    def __mul__(self, other):
        other = Value._wrap(other)
        result = Value(self.data * other.data, "", (self, other), "*")

        def backward_rule():
            self.grad += result.grad * other.data
            other.grad += result.grad * self.data

        result._backward = backward_rule
        return result

    def tanh(self):
        result = Value(math.tanh(self.data), "", (self,), "tanh")

        def backward_rule():
            self.grad += result.grad * tanh_derivative(self.data)

        result._backward = backward_rule
        return result
