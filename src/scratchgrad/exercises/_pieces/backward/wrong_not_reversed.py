class Value(Value):
    def backward(self):
        self.grad = 1.0
        for node in topological_order(self):
            node._backward()
