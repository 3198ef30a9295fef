"""The engine inside Pyodide (CPython 3.14 compiled to WebAssembly), run under Node.

Each test starts Node with the npm package `pyodide`. `make pyodide-test` first installs it
(`npm ci`) and downloads the wheels pytest needs inside Pyodide (tests/pyodide/requirements.txt).

Why long chains get tests of their own: freeing a chain of objects in CPython is one
deallocation inside the other, and Pyodide's WebAssembly stack overflows after a few thousand
levels — a fatal error that kills the whole runtime, not an exception. The engine frees its
graphs iteratively; the tests below show both the trap and the way out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pyodide_plugin import HOST_ONLY_PATHS  # tests/pyodide is on sys.path, as tests/ is for the rest

from missing_tools import missing

HERE = Path(__file__).parent
REPO = HERE.parent.parent
WHEELS = Path(os.environ.get("PYODIDE_WHEELS", REPO / "build" / "pyodide-wheels"))
RUNTIME_DIED = 70  # run_python.mjs's exit code when the WebAssembly runtime itself died
CHAIN_LENGTH = 1_000_000


def _missing_setup() -> str | None:
    if shutil.which("node") is None:
        return "node is not on PATH"
    package = REPO / "node_modules" / "pyodide" / "package.json"
    if not package.exists():
        return "node_modules/pyodide is missing: run `npm ci`"
    version = json.loads(package.read_text())["version"]
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"]["pyodide"]
    if version != pinned:
        return f"node_modules holds pyodide {version}, package.json pins {pinned}: run `npm ci`"
    if not any(WHEELS.glob("pytest-*.whl")):
        return f"no pytest wheel in {WHEELS}: run `make pyodide-test`"
    return None


@pytest.fixture(scope="module", autouse=True)
def _pyodide_is_set_up() -> None:
    if problem := _missing_setup():
        missing(f"Pyodide tests cannot run: {problem}")


def run_node(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(HERE / script), *args], cwd=REPO, capture_output=True, text=True, timeout=900
    )


def run_python_in_pyodide(code: str) -> subprocess.CompletedProcess[str]:
    return run_node("run_python.mjs", code)


def assert_dropping_a_chain_kills_pyodide(setup: str, next_link: str, length: int = 100_000) -> None:
    """Run `setup`, chain `length` objects with ``x = next_link``, drop the chain: the runtime dies."""
    result = run_python_in_pyodide(f"""
{setup}
for _ in range({length}):
    x = {next_link}
print("built", flush=True)
del x
print("survived the drop")
""")
    assert result.returncode == RUNTIME_DIED, result.stdout + result.stderr
    assert result.stdout.startswith("built\n")
    assert "survived the drop" not in result.stdout
    assert "Maximum call stack size exceeded" in result.stderr


def test_engine_test_suite_passes_inside_pyodide():
    result = run_node("run_pytest.mjs")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "platform emscripten -- Python 3.14.2" in output
    assert "scratchgrad imported from /scratchgrad/src/scratchgrad" in output
    expected = [
        path.relative_to(REPO).as_posix()
        for path in sorted((REPO / "tests").rglob("test_*.py"))
        if not any(path.relative_to(REPO).as_posix().startswith(host) for host in HOST_ONLY_PATHS)
    ]
    ran = {line.split()[0] for line in result.stdout.splitlines() if line.startswith("tests/")}
    assert "tests/test_engine.py" in ran
    assert set(expected) <= ran, f"not run inside Pyodide: {sorted(set(expected) - ran)}"


def test_million_node_chain_is_built_backpropagated_and_dropped_inside_pyodide():
    result = run_python_in_pyodide(f"""
import gc
from scratchgrad import Value
x = first = Value(1.0)
for _ in range({CHAIN_LENGTH}):
    x = x * 1.0001
x.backward()
print("grad", repr(first.grad))
del x
gc.collect()
print("values alive after the drop:", sum(type(o) is Value for o in gc.get_objects()))
print("python still runs:", (Value(2.0) * 3).data)
""")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    grad = float(lines[0].removeprefix("grad "))
    assert grad == pytest.approx(1.0001**CHAIN_LENGTH, rel=1e-9)
    assert lines[1:] == ["values alive after the drop: 1", "python still runs: 6.0"]


def test_dropping_a_plain_chain_of_100k_objects_kills_pyodide():
    """The trap the engine avoids: nested deallocation overflows the WebAssembly stack."""
    plain_class = """
class Node:
    __slots__ = ("child",)
    def __init__(self, child):
        self.child = child
x = None"""
    assert_dropping_a_chain_kills_pyodide(plain_class, "Node(x)")


def test_engine_without_its_iterative_release_kills_pyodide():
    """Value.__del__ is what keeps Pyodide alive: without it a 100k-node chain kills the runtime."""
    without_release = """
from scratchgrad import Value
del Value.__del__
x = Value(1.0)"""
    assert_dropping_a_chain_kills_pyodide(without_release, "x * 1.0001")


def test_sources_are_mounted_read_only():
    result = run_python_in_pyodide("""
import errno, os
attempts = {
    "create": lambda: open("/scratchgrad/src/written_by_pyodide.txt", "w"),
    "append": lambda: open("/scratchgrad/src/scratchgrad/__init__.py", "a"),
    "delete": lambda: os.remove("/scratchgrad/src/scratchgrad/__init__.py"),
    "mkdir": lambda: os.mkdir("/scratchgrad/src/__pycache__"),
}
for name, attempt in attempts.items():
    try:
        attempt()
        print(name, "succeeded")
    except OSError as error:
        print(name, errno.errorcode[error.errno])
""")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["create EROFS", "append EROFS", "delete EROFS", "mkdir EROFS"]
    assert not (REPO / "src" / "written_by_pyodide.txt").exists()
