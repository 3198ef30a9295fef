def topological_order(root):
    seen = set()
    result = []

    def go(v):
        if id(v) in seen:
            return
        seen.add(id(v))
        for c in v._prev:
            go(c)
        result.append(v)

    go(root)
    return result
