def topological_order(root):
    """Every Value that root depends on (and root), each after the Values it was made from."""
    order = []
    visited = set()

    def visit(node):
        pass  # TODO: visit the children first, then add node (once)

    visit(root)
    return order
