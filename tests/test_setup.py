"""The Makefile's set-ups: `make serve` installs what the site's build imports and no test tool;
`make setup` (what `make test` runs) installs every extra of pyproject.toml, the site's first.

Read from `make -n -B` (every command a target would run, none of them run), so the rule is the
Makefile's own, not a copy of it.
"""

import functools
import re
import subprocess
import tomllib

import pytest

from docs_pages import ROOT

EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "optional-dependencies"
]
_PIP_INSTALL = re.compile(r"pip install --quiet -e \"\.\[([\w,-]+)\]\"")


@functools.cache
def commands(target: str) -> str:
    """What `make <target>` would run on a fresh clone (`-B`: as if nothing were set up yet)."""
    return subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", target, "SERVE_ADDR=127.0.0.1:8199"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def extras_installed(target: str) -> list[set[str]]:
    """The extras of each `pip install -e` that `make <target>` runs, in order."""
    return [set(found.split(",")) for found in _PIP_INSTALL.findall(commands(target))]


@pytest.mark.parametrize("target", ["serve", "docs"])
def test_the_sites_set_up_installs_the_docs_extra_and_no_test_tool(target):
    installs = extras_installed(target)
    assert len(installs) == 1
    assert {"docs", "torch"} <= installs[0] <= set(EXTRAS)
    assert "test" not in installs[0]
    ran = commands(target)
    assert "npm ci" in ran  # KaTeX, esbuild
    assert "pyodide-build" in ran  # the browser's wheel and lock file


def test_make_setup_installs_every_extra_after_the_sites():
    site, everything = extras_installed("setup")
    assert site == extras_installed("serve")[0]
    assert everything == set(EXTRAS)


def test_the_docs_extra_holds_the_build_engine():
    assert any(requirement.startswith("mkdocs==") for requirement in EXTRAS["docs"])
    assert not any(requirement.startswith("pytest") for requirement in EXTRAS["docs"])
