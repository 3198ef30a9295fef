def topological_order(root):
    """Every Value that root depends on (and root), each after the Values it was made from."""
    pass  # TODO: every node once, each after its children (_prev): a walk that marks what it has seen
