def slope(f, x, h=1e-6):
    """How fast f changes at x: nudge x by h and compare."""
    rise = 0.0  # TODO: how far f moves when x moves by h
    return rise
