class Value:
    def __init__(self, data, label="", _children=(), _op=""):
        self.data = data
        self.label = label
        self._prev = tuple(_children)
        self._op = _op

    def __repr__(self):
        return f"V({self.data}, {self.label!r})"

    def __add__(self, other):
        return Value(self.data + other.data, _children=(self, other), _op="+")

    def __mul__(self, other):
        return Value(self.data * other.data, _children=(self, other), _op="*")
