"""A ceiling on the memory of a process that runs the reader's code, so that a list, a graph or a
string that grows without end stops at once, with a MemoryError at the reader's own line, instead
of filling the machine until the time limit ends it with no word about memory. The ceiling is on
the process's data (`RLIMIT_DATA`: heap and private writable mappings, not the address space, which
torch's import and its threads' reserved arenas inflate), set by the child itself before it loads
any of the reader's code; every check of every solution passes under a quarter of it. Where the
system sets no such limits (Pyodide, Windows), there is no ceiling and the time limit stands alone.
"""

from __future__ import annotations

__all__ = ["MEMORY_LIMIT_BYTES", "cap_memory", "out_of_memory"]

MEMORY_LIMIT_BYTES = 2 * 2**30


def cap_memory() -> None:
    """Lower this process's data limit to `MEMORY_LIMIT_BYTES` (never raise a lower one)."""
    try:
        import resource
    except ImportError:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = MEMORY_LIMIT_BYTES if hard == resource.RLIM_INFINITY else min(hard, MEMORY_LIMIT_BYTES)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def out_of_memory() -> str:
    """What a MemoryError says to the reader (Python's own message is empty)."""
    return (
        f"ran out of memory: a check may use {MEMORY_LIMIT_BYTES // 2**30} GiB, and your code asked for "
        "more — does a list, a graph or a string grow without end?"
    )
