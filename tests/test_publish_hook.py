"""hooks/publish.py and hooks/app_icon.py: what a reader keeps offline, the manifest's icons."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
publish = importlib.import_module("publish")
app_icon = importlib.import_module("app_icon")


def test_the_icons_are_pngs_of_their_declared_sizes_and_an_svg():
    for size in app_icon.PNG_SIZES:
        assert Image.open(io.BytesIO(app_icon.png(size))).size == (size, size)
    assert app_icon.svg().startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_the_sites_address_comes_from_the_environment_at_build_time(monkeypatch):
    from mkdocs.config import load_config

    monkeypatch.setenv("SCRATCHGRAD_SITE_URL", "https://example.org/scratchgrad/")
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "https://example.org/scratchgrad/"
