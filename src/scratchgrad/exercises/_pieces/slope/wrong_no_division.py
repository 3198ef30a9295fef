def slope(f, x, h=1e-6):
    """How fast f changes at x: nudge x by h and compare."""
    return f(x + h) - f(x)
