"""pytest plugin loaded only by run_pytest.mjs: which tests run inside Pyodide, and why not the rest.

Everything under tests/ runs inside Pyodide except what needs the host machine, listed below
with the reason. A test may also skip itself with ``pytest.importorskip`` of a package that
exists only on the host (torch, graphviz, Playwright, MkDocs). Any other skip fails the run,
and so does an entry below that no longer names a collected test: a test that silently stops
running inside Pyodide is a failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HOST_ONLY_PATHS = {
    "tests/pyodide": "the host side of this very check: it starts Node processes",
    "tests/browser": "drives Chromium through Playwright",
    "tests/test_docs.py": "builds the MkDocs site",
    "tests/test_hooks.py": "the site's MkDocs hooks (MkDocs, Markdown extensions, matplotlib)",
    "tests/test_pyodide_runtime_hook.py": "the hook that bundles web/ and builds the wheel (MkDocs, Node)",
    "tests/test_exercises_hook.py": "the hook that renders the exercises (MkDocs, Markdown extensions)",
    "tests/test_stand_in_hook.py": "the editors' stand-in hook (MkDocs, Markdown extensions)",
    "tests/test_stylesheets_hook.py": "a site build hook, read from hooks/ (not in the Pyodide test tree)",
    "tests/test_palette_switching_hook.py": "a site build hook (MkDocs), read from hooks/",
    "tests/test_chapter_notebooks_hook.py": "the chapter notebooks hook (nbformat, a Jupyter kernel)",
    "tests/test_page_prose.py": "a site build helper, read from hooks/ (not in the Pyodide test tree)",
    "tests/test_block_slider_hook.py": "a site build helper, read from hooks/ (not in the Pyodide test tree)",
    "tests/test_theme_overrides.py": "compares the theme overrides with Material's own partials",
    "tests/engines": "drives Firefox and WebKit",
    "tests/test_shared_rules.py": "reads the bundle's defines from the hook that bundles web/ (MkDocs, Node)",
    "tests/test_publish_hook.py": "a site build hook that draws the icons with Pillow",
    "tests/test_readme.py": "checks the README against the whole repository (web/, .github/, .ci/)",
    "tests/test_exercise_order.py": "reads the built site's pages",
    "tests/test_commit_msg.py": "runs the commit-msg hook, a shell script",
    "tests/test_build_cache.py": "builds MkDocs sites, with MkDocs and ProperDocs",
    "tests/playground/test_boundary_parity.py": "runs the Playground's JavaScript in Node",
    "tests/test_notation.py": "reads web/ (the Playground's labels): not in the Pyodide test tree",
    "tests/exercises/test_remote.py": "checks across two processes: the reader's code in a second one, "
    "which Pyodide cannot start",
    "tests/exercises/test_memory_cap.py": "the ceiling of a child process's memory (resource, subprocess)",
    "tests/test_setup.py": "runs `make -n -B` in a process, on the Makefile (not in the Pyodide test tree)",
}
HOST_ONLY_TESTS = {
    **{
        f"tests/exercises/test_cli.py::test_exiting_or_hanging_code_did_not_finish[{case}]": (
            "exits, hangs or kills the process the check runs in: the CLI's child process, which Pyodide "
            "cannot start"
        )
        for case in ("os-exit", "c-level-loop", "killed", "sleeps")
    },
    "tests/exercises/test_cli.py::test_python_dash_m_runs_the_cli_with_its_exit_codes": (
        "starts `python -m scratchgrad.exercises` as a subprocess; Pyodide cannot start processes"
    ),
    "tests/playground/test_program.py::test_the_generated_program_runs_unchanged_in_a_fresh_cpython": (
        "starts a CPython subprocess; Pyodide cannot start processes"
    ),
    "tests/playground/test_your_engine.py::test_the_program_runs_in_python_next_to_the_exported_file": (
        "starts a CPython subprocess; Pyodide cannot start processes"
    ),
    **{
        f"tests/playground/test_model_file.py::{name}": (
            "starts a CPython subprocess; Pyodide cannot start processes"
        )
        for name in ("test_the_standalone_program_runs_in_a_fresh_cpython_and_prints_a_prediction",)
    },
}
HOST_ONLY_TESTS |= {
    "tests/test_engine.py::test_a_stood_in_backward_runs_only_inside_its_block_and_thread": (
        "starts a thread; Pyodide has none"
    ),
    **{
        f"tests/exercises/test_cli.py::test_a_wrong_slope_cannot_rewrite_its_own_verdict[{case}]": (
            "forges the record of the command line's child process, which Pyodide cannot start"
        )
        for case in ("atexit", "thread", "report-class")
    },
    "tests/exercises/test_sandbox.py::test_a_thread_importing_while_a_run_starts_cannot_break_the_run": (
        "starts a thread; Pyodide has none (and no time-limit guard thread to race with)"
    ),
    "tests/exercises/test_sandbox.py::test_reference_solutions_pass_while_another_process_takes_every_core": (
        "starts a process that spins; Pyodide cannot start processes"
    ),
}
HOST_ONLY_MODULES = ("torch", "graphviz", "playwright", "mkdocs")

_unexpected_skips: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if sys.platform != "emscripten":
        raise pytest.UsageError("pyodide_plugin belongs inside Pyodide; run tests/pyodide/run_pytest.mjs")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    relative = collection_path.relative_to(config.rootpath).as_posix()
    return True if relative in HOST_ONLY_PATHS else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    host_only = [item for item in items if item.nodeid in HOST_ONLY_TESTS]
    collected_files = {item.nodeid.split("::")[0] for item in items}
    stale = [
        nodeid
        for nodeid in HOST_ONLY_TESTS
        if nodeid.split("::")[0] in collected_files and nodeid not in {item.nodeid for item in host_only}
    ]
    if stale:
        raise pytest.UsageError(f"pyodide_plugin.HOST_ONLY_TESTS names tests that do not exist: {stale}")
    if host_only:
        config.hook.pytest_deselected(items=host_only)
        items[:] = [item for item in items if item.nodeid not in HOST_ONLY_TESTS]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not any(f"could not import '{module}'" in reason for module in HOST_ONLY_MODULES):
            _unexpected_skips.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _unexpected_skips and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    import scratchgrad

    terminalreporter.write_line(f"scratchgrad imported from {Path(scratchgrad.__file__).parent}")
    for path, reason in {**HOST_ONLY_PATHS, **HOST_ONLY_TESTS}.items():
        terminalreporter.write_line(f"not run inside Pyodide: {path} ({reason})")
    for skip in _unexpected_skips:
        terminalreporter.write_line(f"UNEXPECTED SKIP inside Pyodide: {skip}", red=True)
