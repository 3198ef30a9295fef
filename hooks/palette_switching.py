"""MkDocs hook: Material's palette stylesheet, without the rule that restyles a whole page at load.

Material turns every transition off while the colour palette switches, with one rule in its
palette stylesheet, ``[data-md-color-switching] * {transition-duration: 0s !important}``, and it
sets that attribute on ``<body>`` each time it mounts its palette switch: on every page load,
not only when the reader switches. A rule on every element under an attribute of ``<body>``
makes the browser restyle the whole page when the attribute comes, and again when it goes. On a
chapter (about 6,000 elements) that was 5,000 of the 18,000 elements Chromium styled while the
page loaded, in tasks that blocked the phone Lighthouse simulates (benchmarks/README.md).

Without the rule, loading restyles nothing more (the attribute matches nothing), and a switch
made by the reader lets Material's own colour transitions run: the page fades to its new colours
in a quarter of a second instead of changing at once.

The rule is removed from the built file, so Material upgrades are checked: a palette stylesheet
without exactly one such rule stops the build with a message that says what to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

SWITCHING_RULE = re.compile(r"\[data-md-color-switching\][^{}]*\{[^{}]*\}")
"""The rule (one selector list, one block) that styles every element while the palette switches."""


def without_switching_rule(css: str) -> str:
    """`css` (Material's palette stylesheet) less its palette-switching rule.

    Raises:
        ValueError: `css` holds no such rule, or more than one.
    """
    stripped, found = SWITCHING_RULE.subn("", css)
    if found != 1:
        raise ValueError(f"expected one [data-md-color-switching] rule, found {found}")
    return stripped


def on_post_build(config) -> None:
    sheets = sorted((Path(config["site_dir"]) / "assets" / "stylesheets").glob("palette.*.min.css"))
    if len(sheets) != 1:
        raise PluginError(
            f"hooks/palette_switching.py: expected one Material palette stylesheet, found {sheets}"
        )
    # Material's own file, not the built copy: a dirty rebuild (make serve) leaves the copy as the
    # last build wrote it, already without the rule.
    relative = sheets[0].relative_to(config["site_dir"])
    theme_sheet = next(Path(d) / relative for d in config["theme"].dirs if (Path(d) / relative).is_file())
    try:
        sheets[0].write_text(
            without_switching_rule(theme_sheet.read_text(encoding="utf-8")), encoding="utf-8"
        )
    except ValueError as error:
        raise PluginError(
            f"hooks/palette_switching.py: {sheets[0].name}: {error}. Material's palette stylesheet "
            "changed: see whether it still restyles every element while switching."
        ) from error
