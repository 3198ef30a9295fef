"""What several playground test modules share: quick settings to train."""

from scratchgrad.playground import Settings

SMALL = Settings(points=20, hidden=(3,))
"""Quick to train: the generated-program comparisons run many of these."""
