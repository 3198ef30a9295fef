class Value(Value):  # your Value so far, re-opened
    def backward(self):
        """Fill the .grad of every Value this one was computed from."""
        self.grad = 1.0  # d(self)/d(self)
        for node in reversed(topological_order(self)):
            node._backward()
