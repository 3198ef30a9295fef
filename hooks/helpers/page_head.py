"""The top of a built page's ``<head>``: where the hooks put what must come before any stylesheet.

An inline script placed after a stylesheet link waits for that sheet before it runs, and holds up
the parser while it waits. So scripts that must run early go right after ``<meta charset>``,
which stays first: browsers look for the encoding in the first 1024 bytes.
"""

from __future__ import annotations

import re

_CHARSET_OR_HEAD = (re.compile(r"<meta charset=[^>]*>"), re.compile(r"<head[^>]*>"))


def at_top_of_head(output: str, markup: str) -> str:
    """`output` with `markup` inserted right after its charset (or its ``<head>`` tag)."""
    for pattern in _CHARSET_OR_HEAD:
        if found := pattern.search(output):
            return output[: found.end()] + markup + output[found.end() :]
    raise ValueError("the page has neither <meta charset> nor <head>: nowhere to put early markup")
