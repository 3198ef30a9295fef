class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data = data
        self.label = label
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        return Value(self.data + other.data, _op="+")

    def __mul__(self, other):
        return Value(self.data * other.data, _op="*")
