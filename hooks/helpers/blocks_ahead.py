"""Not a hook: the costly work of a build done ahead by worker processes: every page's ```python run```
blocks.

A cold build ran every page's blocks one after another in its own process, with the machine's
other core idle. At the start of a build (hooks/runnable.py's ``on_files``) `start` reads each
page's blocks from its Markdown (`fenced_blocks`), and every job whose result the build cache lacks
goes to a pool of worker processes, the costliest first (`submit_planned`, at ``on_nav``): its cost is the
seconds it took when it last ran (kept in the build cache as a hint for the order, never as a
result; a job never timed counts by `_COSTLY`). The build's process renders the pages that wait for
no job first and those that do last (`defer_waiting_pages`; their order is put back for everything
after the rendering, `restore_page_order`), so it works beside the workers instead of waiting for
them, and takes each result when it reaches its page (`take`): the result made from the very inputs
it would look up in the cache (`digest`). The reading here is a forecast, not
the truth: a page read differently here is not found and runs in the build's process, as before; a
job no worker has started yet when its page is reached runs there too. Each worker is a new Python
(spawned) that imports the package and the hooks afresh and runs a page exactly as the
build's process would, so a result does not depend on where it ran. ``SCRATCHGRAD_BUILD_WORKERS=0``
runs everything in the build's process; a build with fewer than two jobs starts no worker.
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
from collections.abc import Callable
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
# Without a time from an earlier build: the blocks that are slow to run (a timing's repeats, torch's
# import, a decision boundary's grid of forward passes) count a second each.
_COSTLY = re.compile(r'output="varies"|browser="no"|decision_boundary\(')

log = logging.getLogger("mkdocs.hooks.blocks_ahead")


@dataclasses.dataclass
class Job:
    """One piece of work ahead: `page` waits for it, `key` is the digest of what it is made from."""

    name: str
    page: str
    key: str
    cost: float
    work: Callable
    arguments: tuple
    future: Future | None = None


_pool: ProcessPoolExecutor | None = None
_jobs: dict[str, Job] = {}
_page_order: list = []  # the files in MkDocs' order, while the waiting pages render last


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


def page_job(page: str) -> str:
    """The name of the job that runs `page`'s blocks."""
    return f"blocks of {page}"


def last_seconds(name: str) -> float | None:
    """How long job `name` took when it last ran (in a worker or in the build's process), if known."""
    return build_cache.load("seconds", build_cache.key(name))


def remember_seconds(name: str, seconds: float) -> None:
    build_cache.store("seconds", build_cache.key(name), seconds)


def start(pages: dict[str, str]) -> None:
    """Plan the blocks of the pages (name without ``.md`` → Markdown) that the cache lacks, and
    start the workers on the costliest."""
    global _pool
    stop()
    package = build_cache.package_digest()
    for page, markdown in pages.items():
        in_order = fenced_blocks(markdown)
        key = digest(page, in_order, package)
        if in_order and build_cache.load("blocks", key) is None:
            name = page_job(page)
            cost = last_seconds(name)
            if cost is None:
                cost = len(_COSTLY.findall(markdown)) + len(in_order) / 100
            plan(Job(name, f"{page}.md", key, cost, run_page, (page, in_order)))
    if WORKERS < 1 or len(_jobs) < 2:
        _jobs.clear()
        return
    _pool = ProcessPoolExecutor(
        max_workers=WORKERS,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=site.addsitedir,  # the workers import this module and the hooks
        initargs=(str(HOOKS),),
    )
    for job in sorted(_jobs.values(), key=lambda job: -job.cost)[:WORKERS]:
        job.future = _pool.submit(job.work, *job.arguments)


def plan(job: Job) -> None:
    """Add a job, to start at `submit_planned` (a build with no workers runs it where it is needed)."""
    _jobs[job.name] = job


def submit_planned() -> None:
    """Give the workers every planned job, the costliest first."""
    if _pool is None:
        _jobs.clear()
        return
    for job in sorted(_jobs.values(), key=lambda job: -job.cost):
        if job.future is None:
            job.future = _pool.submit(job.work, *job.arguments)


def defer_waiting_pages(files) -> None:
    """Move the pages that wait for a job to the end of `files` (MkDocs renders pages in that order),
    in the order the workers will finish their jobs (a page's last job); `restore_page_order` puts
    them back."""
    _page_order[:] = list(files)
    rank: dict[str, int] = {}
    for position, job in enumerate(sorted(_jobs.values(), key=lambda job: -job.cost)):
        rank[job.page] = position
    for page in sorted(rank, key=rank.get):
        if (file := files.get_file_from_path(page)) is not None:
            files.remove(file)
            files.append(file)


def restore_page_order(files) -> None:
    """Put `files` back in MkDocs' own order (the search index, sitemap and copies follow it)."""
    for file in _page_order:
        if files.get_file_from_path(file.src_uri) is file:
            files.remove(file)
            files.append(file)
    _page_order.clear()


def take(name: str, key: str, what: str):
    """What a worker made of job `name` if it was made from these very inputs (`key`), else None
    (then the caller does the work). A job that failed in a worker fails here, with the error the
    build's process would raise. `what` names the step in the build's timings."""
    job = _jobs.pop(name, None)
    if job is None or job.future is None:
        return None
    if job.key != key:
        job.future.cancel()
        log.info("%s: read otherwise than the build reads it; run here", name)
        return None
    if job.future.cancel():  # no worker has started it: the build's process is free to run it now
        return None
    with step_times.step("waiting for a worker", job.page):
        result, seconds, cpu_seconds = job.future.result()
    step_times.record(f"{what} (in a worker)", seconds, job.page)
    step_times.record(f"{what} (in a worker), CPU time", cpu_seconds, job.page)
    remember_seconds(name, seconds)
    return result


def stop() -> None:
    """Let the workers go: at the end of a build, or when it fails, without waiting for jobs no one took."""
    global _pool
    for job in _jobs.values():
        if job.future is not None:
            job.future.cancel()
    _jobs.clear()
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


# -- in a worker ---------------------------------------------------------------------------------

_hooks: dict[str, object] = {}


def _hook(name: str):
    """A hook module of hooks/, loaded in a worker as MkDocs loads it in the build's process."""
    if name not in _hooks:
        spec = importlib.util.spec_from_file_location(name, HOOKS / f"{name}.py")
        module = sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _hooks[name] = module
    return _hooks[name]


def _timed(work: Callable, *arguments) -> tuple[object, float, float]:
    began, began_cpu = time.perf_counter(), time.process_time()
    result = work(*arguments)
    return result, time.perf_counter() - began, time.process_time() - began_cpu


def run_page(page: str, in_order: list[tuple[str, dict[str, str]]]) -> tuple[list, float, float]:
    """In a worker: run a page's blocks as hooks/runnable.py does in the build's process; its
    results as the cache keeps them, and the seconds it took (wall clock, then CPU time)."""
    runnable = _hook("runnable")

    def run() -> list:
        rendered = runnable.run_blocks(runnable.PageSession(page), in_order)
        return [(a, r, dataclasses.astuple(ran)) for a, r, ran in rendered]

    return _timed(run)
