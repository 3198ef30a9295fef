"""Pictures drawn at build time from real objects: computation graphs, loss curves, decision boundaries.

Used by ``hooks/runnable.py`` for the ``graph=`` and ``figure=`` options of a runnable block.
`function_plot`, `descent_plot`, `loss_curve` and `decision_boundary` are the names a ``figure=``
expression can call; they return a matplotlib Figure, which `figure_svg` turns into inline SVG.
Figures are built with ``matplotlib.figure.Figure`` (no pyplot): no global state, nothing shown on
screen.
"""

from __future__ import annotations

import hashlib
import html
import io
import math
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence

import matplotlib
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from mkdocs.exceptions import PluginError

from helpers import build_cache
from helpers.step_times import step

STYLE = {
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "svg.fonttype": "none",  # text stays text: it scales and can be selected
}
COLORS = ("#3949ab", "#f4511e", "#00897b", "#8e24aa", "#6d4c41")
_XML_PROLOG = re.compile(r"^.*?(?=<svg)", re.DOTALL)
_PAGE_BACKGROUND = re.compile(r'<polygon fill="white"(?= stroke="(?:none|transparent)")')
_ID = re.compile(r'\bid="([^"]+)"')
_ID_USE = re.compile(r'(\bid="|url\(#|href="#)([^")]+)')
_SIZE = re.compile(r'\b(width|height)="([0-9.]+)pt"')

# Computation graphs are wide (one column per step of the expression). Drawn a little smaller than
# Graphviz's natural size, their 12 pt labels stay readable (about 11 px); a graph wider than the
# page scrolls sideways instead of shrinking to an unreadable size (docs/stylesheets/site.css).
GRAPH_NODE_STYLE = {"fontname": "Helvetica,Arial,sans-serif", "fontsize": "12"}
GRAPH_SPACING = {"ranksep": "0.3", "nodesep": "0.2"}
GRAPH_STYLE = [f"-N{name}={value}" for name, value in GRAPH_NODE_STYLE.items()] + [
    f"-G{name}={value}" for name, value in GRAPH_SPACING.items()
]
"""The style as ``dot`` options: defaults for every node and for the graph."""
GRAPH_SCALE = 0.7


def graph_svg(dot: str, where: str) -> str:
    """A block's graph drawing (DOT text from `scratchgrad.graph.to_dot`) as inline SVG, drawn by
    Graphviz's ``dot`` program in the site's style (or found in the build's cache by its DOT text)."""
    digest = build_cache.key(dot, where, build_cache.build_code_digest(), build_cache.environment_digest())
    svg = build_cache.load("graphs", digest)
    if svg is None:
        svg = _drawn(dot, where)
        build_cache.store("graphs", digest, svg)
    return svg


def _drawn(dot: str, where: str) -> str:
    try:
        with step("graphviz dot"):
            drawn = subprocess.run(
                ["dot", "-Tsvg", *GRAPH_STYLE], input=dot, capture_output=True, text=True, check=True
            )
    except FileNotFoundError as error:
        raise PluginError(
            f"{where}: drawing the graph needs Graphviz's dot (apt-get install graphviz)"
        ) from error
    except subprocess.CalledProcessError as error:
        raise PluginError(f"{where}: Graphviz could not draw the graph: {error.stderr.strip()}") from error
    # Graphviz paints a white page behind the graph; the site's background shows through instead.
    svg = _PAGE_BACKGROUND.sub('<polygon fill="none"', drawn.stdout, count=1)
    svg = _unique_ids(_scaled(_XML_PROLOG.sub("", svg, count=1), GRAPH_SCALE), where)
    return with_text_alternative(svg, graph_description(svg))


def _scaled(svg: str, factor: float) -> str:
    """The SVG with its width and height (in pt) times `factor`; the viewBox keeps the drawing whole."""

    def scale(match: re.Match[str]) -> str:
        return f'{match.group(1)}="{float(match.group(2)) * factor:.1f}pt"'

    return _SIZE.sub(scale, svg, count=2)


def figure_svg(figure: object, salt: str) -> str:
    """A matplotlib Figure as inline SVG with ids unique to `salt` (several figures share a page)."""
    if not isinstance(figure, Figure):
        raise TypeError(f"a figure= expression must give a matplotlib Figure, got {type(figure).__name__}")
    buffer = io.StringIO()
    with step("matplotlib svg"), matplotlib.rc_context({"svg.hashsalt": salt, **STYLE}):
        figure.savefig(buffer, format="svg", bbox_inches="tight", transparent=True, metadata={"Date": None})
    svg = _unique_ids(_XML_PROLOG.sub("", buffer.getvalue(), count=1), salt)
    return with_text_alternative(svg, plot_description(figure))


GRAPH_NAME_FORMAT = "Computation graph, {nodes} nodes: {labels}"
"""The accessible name of a drawn computation graph: its node count and the distinct texts of its
boxes, in order, joined by `GRAPH_NAME_SEPARATOR`. The page names the graphs it draws the same way
(web/page/run-drawings.js, given both through the bundle by hooks/pyodide_runtime.py)."""

GRAPH_NAME_SEPARATOR = "; "


def graph_description(svg: str) -> str:
    """What a drawn computation graph shows, in words: its node count and the labels in its boxes."""
    nodes = len(re.findall(r'<g id="[^"]*node\d+" class="node"', svg))
    texts = list(
        dict.fromkeys(html.unescape(t).strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    )
    labels = GRAPH_NAME_SEPARATOR.join(t for t in texts if t)
    return GRAPH_NAME_FORMAT.format(nodes=nodes, labels=labels)


def plot_description(figure: Figure) -> str:
    """What a plot shows, in words: each axes' title and the quantities on its axes."""
    parts = []
    for axes in figure.axes:
        title, x, y = axes.get_title(), axes.get_xlabel(), axes.get_ylabel()
        parts.append(", ".join(part for part in (title, f"{y} against {x}" if x and y else y or x) if part))
    return "Plot: " + "; ".join(part for part in parts if part)


def with_text_alternative(svg: str, description: str) -> str:
    """The SVG as an image with `description` as its accessible name (role="img", aria-label)."""
    label = html.escape(description, quote=True)
    return re.sub(r"<svg\b", f'<svg role="img" aria-label="{label}"', svg, count=1)


def _unique_ids(svg: str, key: str) -> str:
    """The SVG with every id (and every reference to one) prefixed by a tag derived from `key`.

    Graphviz names its groups ``graph0``, ``node1``..., matplotlib ``figure_1``, ``axes_1``...: two
    drawings inlined on one page would repeat ids, which HTML forbids and which can make one
    drawing's clip path or marker apply to another.
    """
    ids = set(_ID.findall(svg))
    tag = "sg" + hashlib.sha1(key.encode()).hexdigest()[:8]

    def prefix(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"{match.group(1)}{tag}-{name}" if name in ids else match.group(0)

    return _ID_USE.sub(prefix, svg)


def loss_curve(
    series: Sequence[float] | Mapping[str, Sequence[float]] | object,
    title: str = "",
    ylabel: str = "loss",
    log: bool = False,
) -> Figure:
    """Loss per step: one list of numbers, a `History` (its ``.loss``), or {label: list} for several runs."""
    runs = _named_series(series)
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(6.4, 3.4))
        axes = figure.add_subplot()
        for (label, values), color in zip(runs.items(), COLORS * len(runs), strict=False):
            finite = [v if math.isfinite(v) else math.nan for v in values]
            axes.plot(range(len(finite)), finite, color=color, linewidth=1.8, label=label or None)
        axes.set_xlabel("step")
        axes.set_ylabel(ylabel)
        if log:
            axes.set_yscale("log")
        if title:
            axes.set_title(title)
        if len(runs) > 1:
            axes.legend(frameon=False)
    return figure


def function_plot(
    f: Callable[[float], float] | Mapping[str, Callable[[float], float]],
    low: float,
    high: float,
    tangents: Mapping[float, float] | None = None,
    title: str = "",
) -> Figure:
    """`f` drawn over [low, high], or each function of {label: f} in its own colour.

    ``tangents={x: slope}`` adds the line of that slope touching the (first) function at x.
    """
    curves = dict(f) if isinstance(f, Mapping) else {"": f}
    first = next(iter(curves.values()))
    xs = _evenly_spaced(low, high)
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(6.4, 3.6))
        axes = figure.add_subplot()
        for (label, curve), color in zip(curves.items(), COLORS * len(curves), strict=False):
            axes.plot(xs, [curve(x) for x in xs], color=color, linewidth=2, label=label or None)
        reach = (high - low) / 6
        for (x0, slope), color in zip((tangents or {}).items(), COLORS[len(curves) :] * 4, strict=False):
            y0 = first(x0)
            axes.plot(
                [x0 - reach, x0 + reach], [y0 - slope * reach, y0 + slope * reach], color=color, linewidth=1.5
            )
            axes.plot([x0], [y0], "o", color=color, label=f"slope {slope:.4g} at x = {x0:.4g}")
        axes.set_xlabel("x")
        axes.set_ylabel("f(x)" if len(curves) == 1 else "")
        if tangents or len(curves) > 1:
            axes.legend(frameon=False)
        if title:
            axes.set_title(title)
    return figure


def descent_paths(
    slope: Callable[[float], float], start: float, rates: Sequence[float], steps: int
) -> dict[float, list[float]]:
    """Gradient descent in one dimension, once per learning rate: ``x ← x − rate · slope(x)``,
    `steps` times from `start`. Returns {rate: [start, x₁, …]}; a run stops early once x overflows."""
    paths = {}
    for rate in rates:
        xs = [start]
        for _ in range(steps):
            x = xs[-1] - rate * slope(xs[-1])
            if not math.isfinite(x):
                break
            xs.append(x)
        paths[rate] = xs
    return paths


def descent_plot(
    f: Callable[[float], float],
    slope: Callable[[float], float],
    start: float,
    rates: Sequence[float],
    steps: int = 10,
    title: str = "",
) -> Figure:
    """`f`, and the points gradient descent visits on it from `start`, one path per learning rate
    (`descent_paths`): a small rate creeps, a good one lands, a large one overshoots."""
    paths = descent_paths(slope, start, rates, steps)
    visited = [x for xs in paths.values() for x in xs]
    low, high = min(visited), max(visited)
    margin = (high - low) * 0.08 or 1.0
    grid = _evenly_spaced(low - margin, high + margin)
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(6.4, 3.6))
        axes = figure.add_subplot()
        axes.plot(grid, [f(x) for x in grid], color="#757575", linewidth=1.5)
        for (rate, xs), color in zip(paths.items(), COLORS * len(paths), strict=False):
            axes.plot(
                xs, [f(x) for x in xs], "o-", color=color, linewidth=1, markersize=4, label=f"η = {rate:g}"
            )
        axes.set_xlabel("x")
        axes.set_ylabel("f(x)")
        axes.legend(frameon=False)
        if title:
            axes.set_title(title)
    return figure


def decision_boundary(
    model: object, xs: Sequence[Sequence[float]], ys: Sequence[float], steps: int = 60, title: str = ""
) -> Figure:
    """The regions a 2-input model assigns to each class, with the data points on top.

    A model with one output scores a point as class +1 where the score is > 0 (targets ±1); a
    model with several outputs picks the largest (targets 0..k-1): `scratchgrad.losses.predicted_class`.
    """
    import numpy as np

    from scratchgrad.losses import predicted_class  # at call time: the package as this build has it

    points = np.asarray(xs, dtype=float)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"decision_boundary draws 2-input data, got points of shape {points.shape}")
    low, high = points.min(axis=0) - 0.5, points.max(axis=0) + 0.5
    gx, gy = np.meshgrid(np.linspace(low[0], high[0], steps), np.linspace(low[1], high[1], steps))
    grid = [predicted_class(model([float(a), float(b)])) for a, b in zip(gx.ravel(), gy.ravel(), strict=True)]
    labels = sorted({_target_class(y) for y in ys} | set(grid))
    position = {label: i for i, label in enumerate(labels)}
    regions = np.array([position[c] for c in grid]).reshape(gx.shape)
    colors = ListedColormap(COLORS[: len(labels)])
    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(4.8, 4.2))
        axes = figure.add_subplot()
        axes.contourf(gx, gy, regions, levels=np.arange(len(labels) + 1) - 0.5, cmap=colors, alpha=0.25)
        targets = [position[_target_class(y)] for y in ys]
        axes.scatter(
            points[:, 0],
            points[:, 1],
            c=targets,
            cmap=colors,
            vmin=-0.5,
            vmax=len(labels) - 0.5,
            s=18,
            edgecolors="black",
            linewidths=0.4,
        )
        axes.grid(False)
        axes.set_xlabel("x₁")
        axes.set_ylabel("x₂")
        if title:
            axes.set_title(title)
    return figure


def _evenly_spaced(low: float, high: float, intervals: int = 200) -> list[float]:
    """`intervals` + 1 points from `low` to `high`, where a curve is evaluated to be drawn."""
    return [low + (high - low) * i / intervals for i in range(intervals + 1)]


def _named_series(series: object) -> dict[str, list[float]]:
    if isinstance(series, Mapping):
        return {str(label): [float(v) for v in values] for label, values in series.items()}
    values = getattr(series, "loss", series)
    return {"": [float(v) for v in values]}


def _target_class(y: float) -> int:
    return int(y) if float(y).is_integer() else (1 if y > 0 else -1)


HELPERS = {
    "loss_curve": loss_curve,
    "decision_boundary": decision_boundary,
    "function_plot": function_plot,
    "descent_plot": descent_plot,
}
"""The names a ``figure=`` expression may call, besides those of the page namespace."""
