class Value(Value):  # your Value so far, re-opened
    def __neg__(self):  # -self
        return self  # TODO

    def __sub__(self, other):  # self - other
        return self  # TODO

    def __truediv__(self, other):  # self / other
        return self  # TODO

    def __radd__(self, other):  # other + self
        return self  # TODO

    def __rmul__(self, other):  # other * self
        return self  # TODO

    def __rsub__(self, other):  # other - self
        return self  # TODO

    def __rtruediv__(self, other):  # other / self
        return self  # TODO
