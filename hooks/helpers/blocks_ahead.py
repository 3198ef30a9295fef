"""Not a hook: the pages' ```python run``` blocks, run ahead of the build by worker processes.

A cold build ran every page's blocks one page after another in its own process, two thirds of its
time, with the machine's other core idle. At the start of a build (hooks/runnable.py's ``on_files``)
`start` reads each page's blocks from its Markdown (`fenced_blocks`) and sends every page whose
blocks are not in the build cache to a pool of worker processes, the costliest first, while the
build goes on rendering pages. When the build reaches a page, `take` gives hooks/runnable.py the
result under the digest it would look up in the cache (`digest`). The reading here is a forecast,
not the truth: the digest is of the blocks as SuperFences parsed them, so a page read differently
here is not found and runs in the build's process, as before; a result is never taken for blocks it
was not made from. Each worker is a new Python (spawned) that imports the package and
hooks/runnable.py afresh and runs a page exactly as the build's process would (`run_page`), so a
page's output does not depend on where it ran. ``SCRATCHGRAD_BUILD_WORKERS=0`` runs every page in
the build's process; a build with fewer than two pages to run starts no worker.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import multiprocessing
import os
import re
import site
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from helpers import build_cache, step_times

HOOKS = Path(__file__).resolve().parents[1]
WORKERS = int(os.environ.get("SCRATCHGRAD_BUILD_WORKERS") or os.cpu_count() or 1)

_FENCE_START = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*python(?P<options>(?:[ \t]+[a-zA-Z][a-zA-Z0-9_]*"
    r"""(?:=(?P<quot>"|').*?(?P=quot))?)+)[ \t]*$"""
)
_OPTION = re.compile(r"""(?P<key>[a-zA-Z][a-zA-Z0-9_]*)(?:=(?P<quot>"|')(?P<value>.*?)(?P=quot))?""")
# The blocks that are slow to run: a timing's repeats, torch's import. Those pages start first.
_COSTLY = re.compile(r'output="varies"|browser="no"')

log = logging.getLogger("mkdocs.hooks.blocks_ahead")
_pool: ProcessPoolExecutor | None = None
_ahead: dict[str, tuple[str, Future]] = {}


def digest(page: str, in_order: list[tuple[str, dict[str, str]]], package: str | None = None) -> str:
    """The build cache's key of a page's block results: its blocks and what decides how they run
    (`package`: the package's digest, if already read in this build)."""
    return build_cache.key(
        page, in_order, package or build_cache.package_digest(), build_cache.build_code_digest(),
        build_cache.environment_digest(),
    )  # fmt: skip


def fenced_blocks(markdown: str) -> list[tuple[str, dict[str, str]]]:
    """The ```python run``` blocks of a page's Markdown in page order, as (source, options), read as
    SuperFences reads a fence: options in header order, a bare option's value its own name, the
    code less the fence's indentation."""
    found: list[tuple[str, dict[str, str]]] = []
    lines = markdown.splitlines()
    at = 0
    while at < len(lines):
        start = _FENCE_START.match(lines[at])
        at += 1
        if start is None:
            continue
        options = {
            m["key"]: m["key"] if m["value"] is None else m["value"]
            for m in _OPTION.finditer(start["options"])
        }
        end = re.compile(re.escape(start["indent"]) + re.escape(start["fence"]) + r"[ \t]*$")
        code = []
        while at < len(lines) and not end.match(lines[at]):
            code.append(lines[at][len(start["indent"]) :])
            at += 1
        at += 1
        if "run" in options:
            found.append(("\n".join(code), options))
    return found


def start(pages: dict[str, str]) -> None:
    """Send the pages (name without ``.md`` → Markdown) whose blocks the cache lacks to the workers."""
    global _pool
    stop()
    missing = []
    package = build_cache.package_digest()
    for page, markdown in pages.items():
        in_order = fenced_blocks(markdown)
        key = digest(page, in_order, package)
        if in_order and build_cache.load("blocks", key) is None:
            missing.append((len(_COSTLY.findall(markdown)), len(in_order), page, in_order, key))
    if WORKERS < 1 or len(missing) < 2:
        return
    _pool = ProcessPoolExecutor(
        max_workers=min(WORKERS, len(missing)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=site.addsitedir,  # the workers import this module and hooks/runnable.py
        initargs=(str(HOOKS),),
    )
    for *_, page, in_order, key in sorted(missing, reverse=True):
        _ahead[page] = (key, _pool.submit(run_page, page, in_order))


def take(page: str, key: str) -> list | None:
    """What the workers made of `page`'s blocks if they ran these very blocks (`key`), else None.
    A block that failed in a worker fails here, with the error the build's process would raise."""
    key_ahead, future = _ahead.pop(page, (None, None))
    if future is None:
        return None
    if key_ahead != key:
        future.cancel()
        log.info("%s: its blocks were read otherwise than SuperFences reads them; run here", page)
        return None
    if future.cancel():  # no worker has started it: the build's process is free to run it now
        return None
    with step_times.step("waiting for a worker's blocks", page):
        rendered, seconds, cpu_seconds = future.result()
    step_times.record("python run blocks (in a worker)", seconds, page)
    step_times.record("python run blocks (in a worker), CPU time", cpu_seconds, page)
    return rendered


def stop() -> None:
    """Let the workers go: at the end of a build, or when it fails, without waiting for pages no one took."""
    global _pool
    for _, future in _ahead.values():
        future.cancel()
    _ahead.clear()
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


# -- in a worker ---------------------------------------------------------------------------------

_runnable = None


def run_page(page: str, in_order: list[tuple[str, dict[str, str]]]) -> tuple[list, float, float]:
    """In a worker: run a page's blocks as hooks/runnable.py does in the build's process; its
    results as the cache keeps them, and the seconds it took (wall clock, then CPU time)."""
    global _runnable
    if _runnable is None:
        spec = importlib.util.spec_from_file_location("runnable", HOOKS / "runnable.py")
        module = sys.modules["runnable"] = importlib.util.module_from_spec(spec)  # as MkDocs loads a hook
        spec.loader.exec_module(module)
        _runnable = module
    began, began_cpu = time.perf_counter(), time.process_time()
    rendered = _runnable.run_blocks(_runnable.PageSession(page), in_order)
    plain = [(a, r, dataclasses.astuple(ran)) for a, r, ran in rendered]
    return plain, time.perf_counter() - began, time.process_time() - began_cpu
