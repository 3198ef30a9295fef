"""The one rule for a test whose tool is missing (a browser, Node, Graphviz, torch, a setup step).

Under ``CI=true`` (set by ``.ci/run``) a missing tool is a failure: CI installs every tool, so a
skip there would hide that a check never ran. Anywhere else the test is skipped, with the reason.
Inside Pyodide the host's tools cannot exist: there the test is a plain skip
(tests/pyodide/pyodide_plugin.py allows exactly those).
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """True when the environment says this is a CI run: ``CI=true``, nothing else."""
    return os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Stop the test because a tool it needs is missing: a failure under CI=true, a skip elsewhere."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true makes a missing tool a failure)", pytrace=False)
    pytest.skip(reason)


def import_or_missing(module: str) -> ModuleType:
    """`module` imported, or `missing` when it cannot be (inside Pyodide, a plain skip)."""
    if sys.platform == "emscripten":
        return pytest.importorskip(module)
    try:
        return importlib.import_module(module)
    except ImportError as error:
        missing(f"could not import {module!r} ({error}): install the extra that provides it")
