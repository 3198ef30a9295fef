"""Fixtures shared by every test folder. tests/ is on sys.path (this file's folder), so the shared
helpers import by name: docs_pages (fences, page URLs, site builds), missing_tools, strategies."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` writes it, built once per session.

    ``SCRATCHGRAD_SITE_DIR`` names a site built before: `make test` builds it once (strict) for
    both tests/test_docs.py and tests/browser/.
    """
    if prebuilt := os.environ.get("SCRATCHGRAD_SITE_DIR"):
        return Path(prebuilt)
    from docs_pages import build_site

    out = tmp_path_factory.mktemp("site")
    result = build_site(out)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return out
