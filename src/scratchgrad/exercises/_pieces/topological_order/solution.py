def topological_order(root):
    """Every Value that root depends on (and root), each after the Values it was made from."""
    order = []
    visited = set()

    def visit(node):
        if node not in visited:
            visited.add(node)
            for child in node._prev:
                visit(child)
            order.append(node)  # only once all of its children are in the list

    visit(root)
    return order
