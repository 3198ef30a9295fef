class Value:
    """A number that remembers how it was computed."""

    def __init__(self, data, label="", _children=(), _op=""):
        self.data = data
        self.label = label
        self._prev = set(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data})"

    def __add__(self, other):
        return Value(self.data + other.data, "", (self, other), "+")

    def __mul__(self, other):
        return Value(self.data * other.data, "", (self, other), "*")
