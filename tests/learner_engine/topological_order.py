def topological_order(root):
    seen = []
    result = []

    def go(v):
        if any(v is s for s in seen):
            return
        seen.append(v)
        for c in v._prev:
            go(c)
        result.append(v)

    go(root)
    return result
