import math


class Value(Value):  # your Value so far, re-opened
    def log(self):
        out = Value(math.log(self.data), "", (self,), "log")

        def _backward():
            pass  # TODO: d(out)/d(self) = 1 / self

        out._backward = _backward
        return out


def softmax_cross_entropy(logits, label):
    """−log softmax(logits)[label] for one row of logits (Values)."""
    return logits[label] * 0  # TODO
