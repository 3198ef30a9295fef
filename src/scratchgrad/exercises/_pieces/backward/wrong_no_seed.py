class Value(Value):
    def backward(self):
        for node in reversed(topological_order(self)):
            node._backward()
