"""hooks/pyodide_runtime.py: the CDN switch, the wheel + lock file, the bundle, clear errors."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hooks"))  # the hook imports its sibling page_head, as MkDocs lets it


@pytest.fixture(scope="module")
def hook():
    spec = importlib.util.spec_from_file_location(
        "pyodide_runtime_under_test", ROOT / "hooks" / "pyodide_runtime.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("setting", [False, None, "", "false"])
def test_pyodide_is_self_hosted_by_default(hook, setting):
    assert hook.pyodide_index_url(setting) is None


@pytest.mark.parametrize("setting", [True, "true"])
def test_true_means_pyodides_cdn_for_the_pinned_version(hook, setting):
    version = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    assert hook.pyodide_index_url(setting) == f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def test_a_cdn_url_gets_its_trailing_slash(hook):
    assert hook.pyodide_index_url("https://mirror.example/pyodide") == "https://mirror.example/pyodide/"


@pytest.mark.parametrize("setting", ["http://insecure.example/", "yes", 1, 0])
def test_any_other_cdn_setting_is_an_error_that_names_it(hook, setting):
    with pytest.raises(PluginError, match=r"extra\.pyodide_cdn must be false, true or an https:// URL"):
        hook.pyodide_index_url(setting)


def test_a_missing_tool_names_the_file_and_the_make_target(hook, monkeypatch):
    monkeypatch.setattr(hook, "TOOLS", hook.ROOT / "no-such-venv" / "bin")
    config = SimpleNamespace(extra={}, extra_javascript=[], extra_css=[])
    with pytest.raises(PluginError, match=r"no-such-venv/bin/pyodide is missing: run `make setup-web`"):
        hook.on_config(config)


def test_on_config_adds_the_runners_css_and_no_script_at_the_end_of_body(hook):
    config = SimpleNamespace(extra={"pyodide_cdn": False}, extra_javascript=[], extra_css=[])
    hook.on_config(config)
    assert config.extra_css == ["javascripts/runner.css"]
    assert config.extra_javascript == []  # the scripts go into <head> (on_post_page)
    assert config.extra["pyodide_index_url"] is None


def test_every_page_registers_the_service_worker_without_waiting_and_loads_the_runner_from_its_head(hook):
    page = SimpleNamespace(url="chapters/derivatives/")
    config = SimpleNamespace(extra={"pyodide_index_url": None})
    html = hook.on_post_page(
        '<html><head><meta charset="utf-8"><title>t</title></head><body></body></html>', page, config
    )
    service_worker = '<script async src="../../coi-serviceworker.js"></script>'
    assert html.startswith(f'<html><head><meta charset="utf-8">{service_worker}')
    assert '<script type="module" async src="../../javascripts/runner.js"></script></head>' in html


def test_a_page_with_runnable_blocks_leaves_starting_python_to_the_runner(hook):
    """No script of its own launches Python as the page loads: the runner starts it once the page
    has settled (web/page/after-settling.js), so its boot does not compete with the page's."""
    page = SimpleNamespace(url="chapters/derivatives/")
    config = SimpleNamespace(extra={"pyodide_index_url": None})
    head = '<html><head><meta charset="utf-8"><title>t</title></head>'
    with_blocks = hook.on_post_page(
        f'{head}<body><div class="sg-runnable" data-sg-code="x"></div></body></html>', page, config
    )
    without = hook.on_post_page(f"{head}<body></body></html>", page, config)
    assert with_blocks.split("</head>")[0] == without.split("</head>")[0]
    assert "pyodide" not in with_blocks.split("</head>")[0]


def test_materials_bundle_is_asked_for_after_the_first_frame_by_an_inline_loader(hook):
    page = SimpleNamespace(url="chapters/derivatives/")
    config = SimpleNamespace(extra={"pyodide_index_url": None})
    bundle = '<script src="../../assets/javascripts/bundle.a5f9d56c.min.js"></script>'
    html = hook.on_post_page(
        f'<html><head><meta charset="utf-8"></head><body><p>x</p>{bundle}</body></html>', page, config
    )
    assert bundle not in html
    body = html.split("<body>")[1]
    assert body.startswith('<p>x</p><script data-material="../../assets/javascripts/bundle.a5f9d56c.min.js">')
    assert "requestAnimationFrame" in body  # web/boot/material-after-paint.js, inlined
    assert body.endswith("</script></body></html>")


def material_config(html: str) -> dict:
    return json.loads(html.split('<script id="__config" type="application/json">')[1].split("</script>")[0])


@pytest.mark.parametrize(
    ("page_url", "material_worker", "site_worker"),
    [
        ("", "assets/javascripts/workers/search.1234.min.js", "javascripts/search-worker.js"),
        (
            "chapters/derivatives/",
            "../../assets/javascripts/workers/search.1234.min.js",
            "../../javascripts/search-worker.js",
        ),
    ],
)
def test_materials_search_worker_starts_through_the_sites_which_knows_where_materials_is(
    hook, page_url, material_worker, site_worker
):
    settings = {
        "base": ".",
        "translations": {"search.result.none": "No <em>match</em> & none"},
        "search": material_worker,
    }
    configuration = f'<script id="__config" type="application/json">{json.dumps(settings)}</script>'
    page_html = f"<html><head></head><body>{configuration}</body></html>"
    html = hook.on_post_page(
        page_html, SimpleNamespace(url=page_url), SimpleNamespace(extra={"pyodide_index_url": None})
    )
    rewritten = material_config(html)
    assert rewritten["search"] == f"{site_worker}?material=../assets/javascripts/workers/search.1234.min.js"
    assert {key: value for key, value in rewritten.items() if key != "search"} == {
        key: value for key, value in settings.items() if key != "search"
    }
    assert "<em>" not in html  # nothing in the JSON can close its <script> early
    assert "\\u003cem\\u003e" in html


def test_a_page_without_materials_search_is_left_as_it_is(hook):
    settings = '<script id="__config" type="application/json">{"base": ".", "search": null}</script>'
    html = hook.hold_search(f"<body>{settings}</body>", "about/")
    assert html == f"<body>{settings}</body>"
    assert hook.hold_search("<body>no configuration</body>", "about/") == "<body>no configuration</body>"


def test_the_sources_digest_follows_the_package_and_ignores_caches(hook, monkeypatch, tmp_path):
    for name in ("pyproject.toml", "README.md", "src/scratchgrad/engine.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    monkeypatch.setattr(hook, "ROOT", tmp_path)
    before = hook.sources_digest()
    (tmp_path / "src/scratchgrad/__pycache__").mkdir()
    (tmp_path / "src/scratchgrad/__pycache__/engine.cpython-311.pyc").write_bytes(b"cache")
    assert hook.sources_digest() == before
    (tmp_path / "src/scratchgrad/engine.py").write_text("changed")
    assert hook.sources_digest() != before


def test_the_lock_file_lists_the_wheel_with_its_digest(hook):
    build_id, folder = hook.package_build()
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    entry = lock["packages"]["scratchgrad"]
    wheel = folder / entry["file_name"]
    assert entry["file_name"].startswith(f"{build_id}/scratchgrad-")
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert entry["imports"] == ["scratchgrad"]
    assert entry["depends"] == []


@pytest.mark.parametrize("index_url", [None, "https://mirror.example/pyodide/"])
def test_the_bundle_carries_the_pyodide_location_and_the_build_id(hook, index_url):
    files = hook.bundle(index_url, "build1234")
    assert {"runner.js", "python-worker.js", "graph-worker.js"} <= set(files)
    runner = files["runner.js"].decode()
    assert "build1234" in runner
    assert ("https://mirror.example/pyodide/" in runner) == (index_url is not None)
