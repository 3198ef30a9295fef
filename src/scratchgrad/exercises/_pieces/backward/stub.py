class Value(Value):  # your Value so far, re-opened
    def backward(self):
        """Fill the .grad of every Value this one was computed from."""
        pass  # TODO: the output's gradient, then every _backward in the right order
