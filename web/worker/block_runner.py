"""Run the reader's code blocks inside Pyodide, the way a notebook runs cells.

The Web Worker (``python-worker.js``) writes this file into Pyodide's file system and
imports it as ``block_runner``. It knows nothing about JavaScript: the worker hands it a
``display`` function, so the same module runs (and is tested) under plain CPython.

* Every page gets a namespace of its own; the blocks of one page share it, in the
  order the reader runs them.
* A failing block prints a traceback trimmed to the reader's code: the frames of this
  runner (and of Pyodide underneath it) are noise to someone learning backprop.
* ``show_graph(root)`` sends the DOT text of a computation graph to the page, which
  renders it as SVG with Graphviz compiled to WebAssembly. A block's ``graph="L"`` option
  (see hooks/runnable.py) draws ``L`` the same way once the block has run; when ``L`` is not
  an engine Value (a Value of ``scratchgrad.stages``, which ``to_dot`` does not take), the
  page keeps the drawing the build made.

The rules match the build-time runner in hooks/runnable.py, so a block prints the same in
the browser as on the page: a fresh ``{"__name__": "__main__"}`` namespace per page, the
global ``random`` seeded with `PAGE_SEED` when it is made, stdout and stderr in one stream.
"""

from __future__ import annotations

import linecache
import random
import sys
import traceback
from collections.abc import Callable, Sequence, Set
from typing import Any

__all__ = [
    "BUILD_FIGURE_MIME_TYPE",
    "DOT_MIME_TYPE",
    "PAGE_SEED",
    "forget_modules_imported_since",
    "new_namespace",
    "run_block",
    "set_display",
    "show_graph",
]

DOT_MIME_TYPE = "text/vnd.graphviz"
"""The kind of rich output `show_graph` sends: the page renders it as an SVG drawing."""

BUILD_FIGURE_MIME_TYPE = "application/vnd.scratchgrad.build-figure"
"""Sent for a graph option the browser cannot draw: the page shows the build's drawing."""

PAGE_SEED = 0
"""The seed of the global `random` for every new page namespace (as at build time)."""

STARTUP_MODULES = frozenset(sys.modules)
"""What was imported when the worker imported this module: Restart keeps these."""

Display = Callable[[str, str, str], None]
"""Sends rich output to the page: (mime type, data, label)."""


def _display_needs_a_page(mime_type: str, data: str, label: str) -> None:
    raise RuntimeError("show_graph() draws in the browser page; no page is attached to this Python")


_display: Display = _display_needs_a_page


def set_display(display: Display) -> None:
    """Install the function that sends rich output (mime type, data, label) to the page."""
    global _display
    _display = display


def show_graph(root: Any, label: str = "", **options: Any) -> None:
    """Draw the computation graph that produced `root` below the block.

    `options` go to `scratchgrad.graph.to_dot` (e.g. ``rankdir="TB"``).
    """
    from scratchgrad.engine import Value
    from scratchgrad.graph import to_dot

    if not isinstance(root, Value):
        raise TypeError(f"show_graph() draws the graph of a Value, got {type(root).__name__}")
    _display(DOT_MIME_TYPE, to_dot(root, **options), label)


def draw_graph_option(value: Any, expression: str) -> None:
    """Draw the value of a block's ``graph=`` option, or ask the page to keep the build's drawing."""
    from scratchgrad.engine import Value

    if isinstance(value, Value):
        show_graph(value, label=expression)
    else:
        _display(BUILD_FIGURE_MIME_TYPE, "", expression)


def new_namespace() -> dict[str, Any]:
    """A fresh namespace for the blocks of one page, with `random` seeded as at build time.

    ``show_graph`` is the one name added to it: in the browser a reader can draw any Value.
    """
    random.seed(PAGE_SEED)
    return {"__name__": "__main__", "show_graph": show_graph}


def run_block(code: str, filename: str, namespace: dict[str, Any], graphs: Sequence[str] = ()) -> str | None:
    """Run one block in `namespace`; return None, or the traceback the reader should see.

    `filename` names the block in tracebacks (e.g. ``"<derivatives block 3>"``). Its source
    goes into `linecache`, so a traceback quotes the reader's line as for a file on disk.
    `graphs` are expressions (a block's ``graph=`` option) whose Values are drawn after the
    block ran (values that are not engine Values are left to the build's drawing).
    stdout and stderr are flushed before returning, so a last ``print(..., end="")`` is not
    held back until the next block.
    """
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    try:
        exec(compile(code, filename, "exec"), namespace)
        for expression in graphs:
            draw_graph_option(eval(expression, namespace), expression)
    except BaseException as error:  # the reader's KeyboardInterrupt and SystemExit too
        return reader_traceback(error, filename)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return None


def reader_traceback(error: BaseException, filename: str) -> str:
    """Format `error` from the first frame of the reader's block on.

    The frames above it (this runner, Pyodide's machinery) are dropped; frames below it
    (say, inside ``scratchgrad``) stay, since they are part of what the reader's code did.
    A SyntaxError has no frame of the reader's: it is shown alone, pointing at the line.
    """
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def forget_modules_imported_since(baseline: Set[str] = STARTUP_MODULES) -> list[str]:
    """Drop the packages imported after start-up, so the next import runs them afresh.

    Restart uses this: a reader who patched ``Value`` on one page gets the package as
    shipped again. The standard library stays: its modules hold on to each other and are
    not the reader's to change. Returns the names removed, sorted.
    """
    removed = sorted(
        name
        for name in sys.modules
        if name not in baseline and name.partition(".")[0] not in sys.stdlib_module_names
    )
    for name in removed:
        del sys.modules[name]
    return removed
