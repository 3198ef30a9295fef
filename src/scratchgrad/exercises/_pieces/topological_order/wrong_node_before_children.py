def topological_order(root):
    order = []
    visited = set()

    def visit(node):
        if node not in visited:
            visited.add(node)
            order.append(node)
            for child in node._prev:
                visit(child)

    visit(root)
    return order
