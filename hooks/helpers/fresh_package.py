"""Not a hook: what the hooks that run scratchgrad do at the start of every build.

`mkdocs serve` rebuilds in the process it started in, where ``scratchgrad`` is already imported.
Forgetting its modules makes the next import read the sources as they are now, so a page shows
what the code does after the edit that triggered the rebuild.
"""

from __future__ import annotations

import sys


def forget_scratchgrad() -> None:
    """Drop ``scratchgrad`` and every ``scratchgrad.*`` module from `sys.modules`."""
    for name in [name for name in sys.modules if name == "scratchgrad" or name.startswith("scratchgrad.")]:
        del sys.modules[name]
