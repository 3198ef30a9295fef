class Value(Value):  # your Value so far, re-opened
    def __pow__(self, n):
        """self ** n, for a plain number n."""
        out = Value(self.data**n, "", (self,), f"**{n}")

        def _backward():
            pass  # TODO: d(out)/d(self) = n * self**(n-1)

        out._backward = _backward
        return out

    def exp(self):
        out = Value(0.0, "", (self,), "exp")  # TODO: the forward value

        def _backward():
            pass  # TODO: d(out)/d(self) = e**self

        out._backward = _backward
        return out
