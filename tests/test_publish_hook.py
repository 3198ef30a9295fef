"""hooks/publish.py and hooks/helpers/app_icon.py: what a reader keeps offline, the manifest's icons."""

from __future__ import annotations

import importlib
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
publish = importlib.import_module("publish")
app_icon = importlib.import_module("helpers.app_icon")


def a_site(root: Path) -> Path:
    for name, content in {
        "index.html": "<h1>home</h1>",
        "chapter/index.html": "<h1>a chapter</h1>",
        "javascripts/runner.js": "run()",
        "javascripts/runner.js.map": "{}",
        "coi-serviceworker.js": "self",
        "_headers": publish.HEADERS,
        "sitemap.xml.gz": "",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    return root


def test_the_list_names_pages_by_their_folder_and_leaves_out_what_a_reader_never_loads(tmp_path):
    listing = publish.write_offline_list(a_site(tmp_path))
    kept = {url for url, _, _ in listing["files"]}
    assert kept == {"./", "chapter/", "coi-serviceworker.js", "javascripts/runner.js"}
    assert listing["bytes"] == sum(size for _, size, _ in listing["files"])
    assert json.loads((tmp_path / "offline.json").read_text()) == listing


def test_the_version_changes_with_any_kept_file_and_only_then(tmp_path):
    site = a_site(tmp_path)
    first = publish.write_offline_list(site)["version"]
    (site / "javascripts" / "runner.js.map").write_text('{"changed": true}')
    assert publish.write_offline_list(site)["version"] == first
    (site / "chapter" / "index.html").write_text("<h1>a chapter, edited</h1>")
    assert publish.write_offline_list(site)["version"] != first


def test_the_icons_are_pngs_of_their_declared_sizes_and_an_svg():
    for size in app_icon.PNG_SIZES:
        assert Image.open(io.BytesIO(app_icon.png(size))).size == (size, size)
    assert app_icon.svg().startswith('<svg xmlns="http://www.w3.org/2000/svg"')


def test_the_sites_address_comes_from_the_environment_at_build_time(monkeypatch):
    from mkdocs.config import load_config

    monkeypatch.setenv("SCRATCHGRAD_SITE_URL", "https://example.org/scratchgrad/")
    assert load_config(str(ROOT / "mkdocs.yml")).site_url == "https://example.org/scratchgrad/"


def test_a_preview_being_served_writes_no_list_so_nothing_of_it_is_kept(tmp_path):
    site = a_site(tmp_path)
    config = SimpleNamespace(site_dir=str(site))
    publish.on_startup(command="serve", dirty=False)
    publish.on_post_build(config)
    assert not (site / "offline.json").exists()
    publish.on_startup(command="build", dirty=False)
    publish.on_post_build(config)
    assert (site / "offline.json").exists()
