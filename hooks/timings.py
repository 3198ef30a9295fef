"""MkDocs hook: with ``SCRATCHGRAD_TIMINGS=1`` (``make docs TIMINGS=1``), print where the build's time went.

It times every event handler of every plugin and hook (mkdocs-jupyter, mkdocstrings, search and
the hooks of mkdocs.yml), each page from its first event to its last (Markdown rendering and the
``python run`` blocks included), and the steps the hooks time themselves (`step_times`: block
runs, Graphviz, KaTeX, esbuild, the wheel). The table comes after the last
``on_post_build``. Listed first under ``hooks:`` so that its ``on_config`` runs early; it wraps
the handlers of every later event. Without the variable it does nothing.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict

from helpers import step_times

_build_started = 0.0
_cpu_started = 0.0
_page_spans: dict[str, list[float]] = {}
_RENDERING = ("pre_page", "page_read_source", "page_markdown", "page_content")
"""The events around a page's rendering: Markdown (mkdocstrings, exercises, snippets) and its blocks."""


def on_config(config):
    global _build_started, _cpu_started
    if not step_times.ENABLED:
        return config
    step_times.reset()
    _page_spans.clear()
    _build_started, _cpu_started = time.perf_counter(), time.process_time()
    plugins = config.plugins
    for event, methods in plugins.events.items():
        if event in ("startup", "config", "shutdown", "serve"):
            continue
        for position, method in enumerate(methods):
            origin = plugins._event_origins.get(method, "<unknown>")
            wrapped = _timed(method, f"{origin} on_{event}", event in _RENDERING)
            plugins._event_origins[wrapped] = origin
            methods[position] = wrapped
    plugins.events["post_build"].append(report)
    return config


def _timed(method, name: str, rendering: bool):
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            end = time.perf_counter()
            page = kwargs.get("page")
            where = page.file.src_uri if page is not None else None
            step_times.record(name, end - start, where)
            if where is not None and rendering:
                span = _page_spans.setdefault(where, [start, end])
                span[0], span[1] = min(span[0], start), max(span[1], end)

    return wrapper


def report(config) -> None:
    """Print the build's time per step, per hook event and per page (slowest first)."""
    total = time.perf_counter() - _build_started
    cpu = time.process_time() - _cpu_started  # on a busy machine, what the build itself cost
    lines = [
        f"== build timings: {total:.1f} s from on_config to on_post_build ({cpu:.1f} s CPU time here) =="
    ]
    lines.append("-- per hook event and per step (s, calls) --")
    for name, seconds in sorted(step_times.steps.items(), key=lambda item: -item[1]):
        if seconds >= 0.05:
            lines.append(f"{seconds:8.2f}  {step_times.counts[name]:5d}  {name}")
    lines.append("-- per page: on_pre_page to on_page_content, Markdown and blocks included (s) --")
    spans = {page: end - start for page, (start, end) in _page_spans.items()}
    steps_of: dict[str, list[str]] = defaultdict(list)
    for page, steps in step_times.by_page.items():
        for name, seconds in sorted(steps.items(), key=lambda item: -item[1])[:3]:
            if seconds >= 0.05 and " on_" not in name:
                steps_of[page].append(f"{name} {seconds:.2f}")
    for page, seconds in sorted(spans.items(), key=lambda item: -item[1]):
        if seconds >= 0.05:
            lines.append(f"{seconds:8.2f}  {page}  {'; '.join(steps_of[page])}")
    print("\n".join(lines), flush=True)
