def trace(root):
    """Every node `root` was computed from (root too), and a (child, node) pair for every arrow."""
    nodes, edges, visited = [], [], set()

    def visit(node):
        if id(node) in visited:  # the records cannot go in a set; their ids can
            return
        visited.add(id(node))
        nodes.append(node)
        for child in node._prev:
            edges.append((child, node))
            visit(child)

    visit(root)
    return nodes, edges
