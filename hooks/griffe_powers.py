"""Griffe extension (for mkdocstrings): ``**`` in a docstring's prose is Python's power, not bold.

The package's docstrings state the math the way Python writes it (``e**a``, ``tanh(a)**2``);
Markdown would read the pair of ``**`` in "e**a.  d/da = e**a" as bold. Outside code spans and
doctest lines, each ``**`` is escaped, so the reference shows exactly what the source says.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?\1")
_DOCTEST = re.compile(r"^\s*(?:>>>|\.\.\.)(?:\s|$)")


def escape_powers(text: str) -> str:
    """`text` with ``**`` escaped as ``\\*\\*`` wherever Markdown would read it as emphasis."""
    lines = []
    for line in text.split("\n"):
        if _DOCTEST.match(line):
            lines.append(line)
            continue
        pieces, last = [], 0
        for span in _CODE_SPAN.finditer(line):
            pieces += [line[last : span.start()].replace("**", r"\*\*"), span.group(0)]
            last = span.end()
        pieces.append(line[last:].replace("**", r"\*\*"))
        lines.append("".join(pieces))
    return "\n".join(lines)


class LiteralPowers(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = escape_powers(obj.docstring.value)
