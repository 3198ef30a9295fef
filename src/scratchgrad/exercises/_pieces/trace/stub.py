def trace(root):
    """Every node `root` was computed from (root too), and a (child, node) pair for every arrow."""
    nodes, edges = [], []
    # TODO: put root in nodes, then its children (node._prev), their children, and so on, each node
    # once; and for every arrow, from a child into the node made from it, a pair (child, node) in edges
    return nodes, edges
