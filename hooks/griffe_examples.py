"""Griffe extension (for mkdocstrings): a docstring's ``Example:`` section is read as ``Examples:``.

Griffe's Google-style parser knows only the plural, and reads ``Example:`` as a plain admonition,
where the ``>>>`` lines of a doctest turn into nested block quotes. Napoleon and the Google style
guide accept both spellings, and the package uses the singular, so the reference pages translate it.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_SINGULAR = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)


class ExampleSections(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _SINGULAR.sub(r"\1Examples:", obj.docstring.value)
