"""A host on a slow network: each page that has a formula arrives in two parts, cut inside it.

A browser shows a page while it is still arriving, so it can lay out a formula whose MathML
is only half there. `CutInsideAFormula` makes that happen on every load rather than by chance.
The page is cut right after the first ``<msub>`` opening tag, at an element that must have two
children once complete. The second part comes `PAUSE_S` later.
"""

from __future__ import annotations

import time

from harness import StaticFiles

PAUSE_S = 1.5
CUT_AFTER = b"<msub>"


def cut_inside_a_formula(page: bytes) -> int | None:
    """Where to cut `page`: right after its first `CUT_AFTER`, or None if it has none."""
    found = page.find(CUT_AFTER)
    return None if found < 0 else found + len(CUT_AFTER)


class CutInsideAFormula(StaticFiles):
    """The built site, with each page that has a formula sent in two parts (`cut_inside_a_formula`)."""

    def do_GET(self) -> None:  # noqa: N802 (http.server names it)
        path = self.requested_file()
        page = path.read_bytes() if path is not None and path.suffix == ".html" else b""
        cut = cut_inside_a_formula(page)
        if cut is None:
            super().do_GET()
            return
        self.send_ok_headers(len(page), "text/html; charset=utf-8")
        self.wfile.write(page[:cut])
        self.wfile.flush()
        time.sleep(PAUSE_S)
        self.wfile.write(page[cut:])
