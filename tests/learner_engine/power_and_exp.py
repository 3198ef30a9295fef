import math


class Value(Value):
    def __pow__(self, n):
        result = Value(self.data**n, "", (self,), "**")

        def backward_rule():
            self.grad += n * self.data ** (n - 1) * result.grad

        result._backward = backward_rule
        return result

    def exp(self):
        e = math.exp(self.data)
        result = Value(e, "", (self,), "exp")

        def backward_rule():
            self.grad += e * result.grad

        result._backward = backward_rule
        return result
