"""The build's cache: each costly result kept under ``build/build-cache/``, by a digest of what decides it.

A hook asks `key` for the digest of everything its result depends on (a page's blocks and the
package's sources; a formula's TeX and the KaTeX version; a graph's DOT text), then `load` or, on
a miss, computes the result and `store`s it. A result is found only under the digest of the very
inputs it was made from, so the cache is never stale: an edit changes the digest, and the old entry
is simply no longer asked for. Deleting the folder costs one cold build. ``SCRATCHGRAD_BUILD_CACHE=off``
turns it off (every result computed, nothing written); ``SCRATCHGRAD_BUILD_CACHE_DIR`` moves it.

What decides a page's blocks is known only up to the package: their code can import any module of
scratchgrad, and those modules import each other, so `package_digest` covers all of ``src/scratchgrad``
(an edit there re-runs every page's blocks). The build's own code (`build_code_digest`: ``hooks/``)
is in every key, as are the versions of the tools a result comes from.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SCRATCHGRAD_BUILD_CACHE_DIR") or ROOT / "build" / "build-cache")
ENABLED = os.environ.get("SCRATCHGRAD_BUILD_CACHE", "on") != "off"

_MISSING = object()


def key(*parts: object) -> str:
    """The digest of `parts` (strings, bytes, or anything whose repr is stable: tuples, dicts of them)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def load(kind: str, digest: str, default: Any = _MISSING) -> Any:
    """The result stored under `digest` for `kind`, or `default` (None if not given) when there is none."""
    fallback = None if default is _MISSING else default
    if not ENABLED:
        return fallback
    path = _path(kind, digest)
    try:
        return pickle.loads(path.read_bytes())
    except FileNotFoundError:
        return fallback


def store(kind: str, digest: str, result: Any) -> None:
    """Keep `result` under `digest`; written whole or not at all (builds may run side by side)."""
    if not ENABLED:
        return
    path = _path(kind, digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as scratch:
        scratch.write(pickle.dumps(result))
    os.replace(scratch.name, path)


def _path(kind: str, digest: str) -> Path:
    return CACHE / kind / digest[:2] / digest


def files_digest(*roots: Path, suffixes: tuple[str, ...] = ("",)) -> str:
    """A digest of every file under `roots` whose name ends with one of `suffixes` (all by default),
    by path relative to the repository and content."""
    digest = hashlib.sha256()
    for root in roots:
        for file in sorted(root.rglob("*")) if root.is_dir() else [root]:
            if file.is_file() and file.name.endswith(suffixes) and "__pycache__" not in file.parts:
                digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def package_digest() -> str:
    """The package's sources as they are now (read afresh on every call: `mkdocs serve` edits them)."""
    return files_digest(ROOT / "src" / "scratchgrad")


@functools.cache
def build_code_digest() -> str:
    """The build's code, the ``.py`` and ``.js`` files of ``hooks/`` (its README decides nothing; the
    code does not change within one process: MkDocs loads hooks once)."""
    return files_digest(ROOT / "hooks", suffixes=(".py", ".js"))


@functools.cache
def environment_digest() -> str:
    """The Python running the build, every package installed beside it, and Graphviz's version."""
    import importlib.metadata
    import subprocess
    import sys

    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    try:
        dot = subprocess.run(["dot", "-V"], capture_output=True, text=True, check=False).stderr.strip()
    except FileNotFoundError:
        dot = "no dot"
    return key(sys.version, *installed, dot)
