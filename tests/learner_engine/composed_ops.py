class Value(Value):
    def __neg__(self):
        return self * (-1)

    def __sub__(self, other):
        return self + other * (-1)

    def __truediv__(self, other):
        return self * other ** (-1)

    def __radd__(self, other):
        return Value._wrap(other) + self

    def __rmul__(self, other):
        return Value._wrap(other) * self

    def __rsub__(self, other):
        return Value._wrap(other) + self * (-1)

    def __rtruediv__(self, other):
        return Value._wrap(other) * self ** (-1)
