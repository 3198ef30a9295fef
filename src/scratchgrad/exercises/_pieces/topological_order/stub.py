def topological_order(root):
    """Every Value that root depends on (and root), each after the Values it was made from."""
    pass  # TODO: each node once, after its children (_prev)
