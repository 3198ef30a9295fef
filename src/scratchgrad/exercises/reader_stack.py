"""Whether the reader's code is inside itself: a function of the reader's on the call stack twice
(a backward() that recurses). A check asks this from a function of its own that the reader's code
calls (backward's recorders). Across two processes (`scratchgrad.exercises.remote`) that call comes
over the pipe, with the stack of the reader process left behind: the reader process looks at its
own stack and the answer travels with the call, which the checks then hear here (`told`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from scratchgrad.exercises.sandbox import READER_FILE_PREFIX

__all__ = ["recursing", "told"]

_told: list[bool] = []  # what the reader process said about its stack, for the call being answered


def recursing() -> bool:
    """Whether a function of the reader's is on the call stack more than once: it called itself."""
    if _told:
        return _told[-1]
    seen: set[object] = set()
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(READER_FILE_PREFIX):
            if code in seen:
                return True
            seen.add(code)
        frame = frame.f_back
    return False


@contextmanager
def told(answer: bool) -> Iterator[None]:
    """While the checks answer a call from the reader process: `recursing` says `answer`."""
    _told.append(answer)
    try:
        yield
    finally:
        _told.pop()
