class Value(Value):
    def backward(self):
        nodes = topological_order(self)
        self.grad = 1
        for v in nodes[::-1]:
            v._backward()
