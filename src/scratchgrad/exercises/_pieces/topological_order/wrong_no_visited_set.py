def topological_order(root):
    order = []

    def visit(node):
        for child in node._prev:
            visit(child)
        order.append(node)

    visit(root)
    return order
