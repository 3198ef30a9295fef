"""The site's icon, drawn here rather than downloaded: a small computation graph on indigo.

Two inputs feed a node, which feeds the output — the picture the tutorial draws in every chapter.
The drawing is described once (DISCS, EDGES, on a 100 × 100 canvas) and written two ways: as
SVG (the browser tab's icon) and as PNG at the sizes an installed app needs (Pillow, already a
dependency of the docs through matplotlib).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

BACKGROUND = "#3f51b5"  # Material's indigo, the site's primary colour (mkdocs.yml, theme.palette)
INK = "#ffffff"
ACCENT = "#ff7043"  # the palette's deep orange accent: the output node
DISCS = ((28, 30, 10, INK), (28, 70, 10, INK), (56, 50, 11, INK), (80, 50, 9, ACCENT))
"""(x, y, radius, colour) of each node, inside the middle 80 % a maskable icon keeps visible."""
EDGES = ((0, 2), (1, 2), (2, 3))
STROKE = 5
PNG_SIZES = (192, 512)


def svg() -> str:
    """The icon as an SVG document."""
    lines = "".join(
        f'<line x1="{DISCS[a][0]}" y1="{DISCS[a][1]}" x2="{DISCS[b][0]}" y2="{DISCS[b][1]}"/>'
        for a, b in EDGES
    )
    discs = "".join(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>' for x, y, r, colour in DISCS)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" rx="18" fill="{BACKGROUND}"/>'
        f'<g stroke="{INK}" stroke-width="{STROKE}" stroke-linecap="round">{lines}</g>{discs}</svg>\n'
    )


def png(size: int) -> bytes:
    """The icon as a `size` × `size` PNG, full bleed (the launcher rounds or masks its corners)."""
    scale = 4 * size / 100  # drawn 4× larger, then scaled down: smooth edges without anti-aliasing
    image = Image.new("RGB", (4 * size, 4 * size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for a, b in EDGES:
        (xa, ya, *_), (xb, yb, *_) = DISCS[a], DISCS[b]
        draw.line([(xa * scale, ya * scale), (xb * scale, yb * scale)], fill=INK, width=round(STROKE * scale))
    for x, y, r, colour in DISCS:
        draw.ellipse([(x - r) * scale, (y - r) * scale, (x + r) * scale, (y + r) * scale], fill=colour)
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(out, format="PNG", optimize=True)
    return out.getvalue()
