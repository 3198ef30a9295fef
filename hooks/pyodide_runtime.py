"""MkDocs hook: everything the browser needs to run the pages' Python — offline by default.

It adds to the built site, without writing into ``docs/``:

* ``javascripts/`` — the runner (``web/``), bundled by esbuild on every build: the page
  script ``runner.js`` (and ``runner.css``, the CSS its modules import), the Pyodide worker
  ``python-worker.js``, the Graphviz worker ``graph-worker.js``, the training playground's
  Pyodide worker ``playground-worker.js``, and ``search-worker.js``, which every page's
  Material configuration names as its search worker: it loads Material's own once the page's
  Python has started (``web/search/held-search.js``);
* ``pyodide/`` — the Pyodide runtime files copied from the npm package (``node_modules``);
* ``pyodide/pyodide-lock.json`` and ``pyodide/<build>/scratchgrad-….whl`` — a wheel of
  ``src/scratchgrad`` and a lock file that lists it with its SHA-256, so the worker can fetch
  it with its integrity checked (``web/worker/load-scratchgrad.js``; the npm package ships no
  wheels). ``<build>`` is a digest of the package sources: a browser that cached an older
  lock file never pairs it with a newer wheel;
* ``coi-serviceworker.js`` — ``web/service-worker/coi-serviceworker.js``, a service worker that adds
  the COOP/COEP headers static hosts (and ``mkdocs serve``) do not send. Cross-origin isolation
  lets Stop interrupt Python instead of restarting it.

``runner.css`` is added to ``extra_css``; the scripts go into ``<head>`` (Material puts
``extra_javascript`` at the end of ``<body>``, after the whole chapter is parsed). First of all,
right after ``<meta charset>``, the service worker script: on a first visit it stops the page
from loading any further and reloads it as soon as it has registered. ``runner.js`` goes into
every page's ``<head>`` as an ``async`` module; on a page with runnable blocks it starts Python
once the page has settled (``web/page/after-settling.js``). Material's
own bundle, last in ``<body>``, becomes ``material-after-paint.js`` inlined: the bundle is asked
for after the page's first frame, so mounting Material never holds up what the reader sees first.

Setting ``extra.pyodide_cdn`` in mkdocs.yml switches the Pyodide runtime files to a CDN:
``false`` (default) self-hosts them; ``true`` uses Pyodide's own CDN for the pinned npm
version; a ``https://…/`` URL uses that base. The lock file and the wheel stay on the site.

Tools: ``node_modules`` (``npm ci``) and the Python ≥ 3.12 environment ``.venv-pyodide``
with pyodide-build (for ``pyodide lockfile add-wheels``); ``make`` creates both.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import posixpath
import re
import subprocess
import tempfile
from pathlib import Path

from helpers import figures, site_urls
from helpers.page_head import at_top_of_head
from helpers.step_times import step
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_PACKAGE = NODE_MODULES / "pyodide"
TOOLS = ROOT / ".venv-pyodide" / "bin"
CACHE = ROOT / "build" / "site-runtime"
BUNDLES = ROOT / "build" / "web-bundles"

PAGE_ENTRY_POINTS = {"runner": WEB / "main.js"}
WORKER_ENTRY_POINTS = {
    "python-worker": WEB / "worker" / "python-worker.js",
    "graph-worker": WEB / "worker" / "graph-worker.js",
    "playground-worker": WEB / "worker" / "playground-worker.js",
}
# Created by Material's page script with `new Worker(url)`, which loads a classic script.
CLASSIC_WORKER_ENTRY_POINTS = {"search-worker": WEB / "search" / "search-worker.js"}
SEARCH_WORKER = "javascripts/search-worker.js"
MATERIAL_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
MATERIAL_AFTER_PAINT = WEB / "boot" / "material-after-paint.js"
MATERIAL_BUNDLE = re.compile(
    r'<script src="(?P<src>[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>'
)
"""Material's bundle as its template writes it, at the end of ``<body>``."""
SERVICE_WORKER = WEB / "service-worker" / "coi-serviceworker.js"  # at the site's root: its scope is the site
PYODIDE_RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.mjs.map",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)
PACKAGE_SOURCES = ("pyproject.toml", "README.md", "src/scratchgrad")
SETUP_HINT = "run `make setup-web` (npm ci and the .venv-pyodide tool environment)"


def on_config(config):
    """Check the tools are there, read the CDN switch, and add the runner's CSS."""
    for needed in (PYODIDE_PACKAGE / "package.json", NODE_MODULES / ".bin" / "esbuild", TOOLS / "pyodide"):
        if not needed.exists():
            raise PluginError(
                f"hooks/pyodide_runtime.py: {needed.relative_to(ROOT)} is missing: {SETUP_HINT}"
            )
    config.extra["pyodide_index_url"] = pyodide_index_url(config.extra.get("pyodide_cdn", False))
    config.extra_css.append("javascripts/runner.css")  # the CSS web/ imports, bundled beside runner.js
    return config


def pyodide_index_url(setting: object) -> str | None:
    """Where the worker loads Pyodide from: None for the copy on this site, else a CDN URL."""
    if setting is False or setting is None or setting in ("", "false"):
        return None
    if setting is True or setting == "true":
        return f"https://cdn.jsdelivr.net/pyodide/v{pyodide_version()}/full/"
    if isinstance(setting, str) and setting.startswith("https://"):
        return setting if setting.endswith("/") else setting + "/"
    raise PluginError(f"extra.pyodide_cdn must be false, true or an https:// URL, not {setting!r}")


def pyodide_version() -> str:
    return json.loads((PYODIDE_PACKAGE / "package.json").read_text())["version"]


def on_files(files: Files, config) -> Files:
    """Add the runtime, the wheel and lock file, and the bundled runner to the site."""
    build_id, package_dir = package_build()
    for path in sorted(package_dir.rglob("*")):
        if path.is_file():
            files.append(site_file(config, f"pyodide/{path.relative_to(package_dir).as_posix()}", path))
    if config.extra["pyodide_index_url"] is None:
        for name in PYODIDE_RUNTIME_FILES:
            files.append(site_file(config, f"pyodide/{name}", PYODIDE_PACKAGE / name))
    files.append(site_file(config, "coi-serviceworker.js", SERVICE_WORKER))
    for name, content in bundle(config.extra["pyodide_index_url"], build_id).items():
        files.append(File.generated(config, f"javascripts/{name}", content=content))
    return files


def on_post_page(output: str, page, config) -> str:
    """Put the scripts into ``<head>``: the service worker first, the runner last; and ask for
    Material's bundle, at the end of ``<body>``, after the first frame.

    The service worker's script is ``async``: it only registers the worker (for the next page),
    so nothing waits for it.
    Material's search worker is started through the site's (``web/search/held-search.js``).
    """
    output = material_after_paint(hold_search(output, page.url))
    runner = get_relative_url("javascripts/runner.js", page.url)
    output = output.replace("</head>", f'<script type="module" async src="{runner}"></script></head>', 1)
    service_worker = f'<script async src="{get_relative_url("coi-serviceworker.js", page.url)}"></script>'
    return at_top_of_head(output, service_worker)


def material_after_paint(output: str) -> str:
    """Material's bundle asked for after the page's first frame (``web/boot/material-after-paint.js``).

    A page without Material's bundle (none is built without the theme) is left as it is.
    """
    found = MATERIAL_BUNDLE.search(output)
    if not found:
        return output
    loader = f'<script data-material="{found.group("src")}">{material_after_paint_script()}</script>'
    return output[: found.start()] + loader + output[found.end() :]


@functools.cache
def material_after_paint_script() -> str:
    """``web/boot/material-after-paint.js`` bundled as a classic script, to inline into ``<body>``."""
    files = esbuild({"material-after-paint": MATERIAL_AFTER_PAINT}, ["--format=iife"], {})
    return files["material-after-paint.js"].decode().strip()


def hold_search(output: str, page_url: str) -> str:
    """Point Material's configuration at the site's search worker, which loads Material's later.

    Material's ``__config`` names its search worker relative to the page; the site's worker gets
    that address relative to itself, as ``search-worker.js?material=…``. A page without the
    configuration (or without search) is left as it is.
    """
    found = MATERIAL_CONFIG.search(output)
    if not found:
        return output
    material_config = json.loads(found.group(2))
    if not material_config.get("search"):
        return output
    material_worker = posixpath.normpath(
        posixpath.join(posixpath.dirname(page_url), material_config["search"])
    )
    wrapper = get_relative_url(SEARCH_WORKER, page_url)
    material_config["search"] = f"{wrapper}?material={get_relative_url(material_worker, SEARCH_WORKER)}"
    # As Jinja's tojson writes it: no "<", ">" or "&" that could end the script element early.
    as_json = json.dumps(material_config, separators=(",", ":"))
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        as_json = as_json.replace(character, escaped)
    replaced = found.group(1) + as_json + found.group(3)
    return output[: found.start()] + replaced + output[found.end() :]


def on_serve(server, config, builder):
    """`mkdocs serve` rebuilds when the runner's sources or the package change."""
    server.watch(str(WEB))
    server.watch(str(ROOT / "src" / "scratchgrad"))
    return server


def site_file(config, site_path: str, source: Path) -> File:
    if not source.is_file():
        raise PluginError(f"hooks/pyodide_runtime.py: {source} is missing: {SETUP_HINT}")
    return File.generated(config, site_path, abs_src_path=str(source))


def package_build() -> tuple[str, Path]:
    """Build (or reuse) the wheel and lock file for the current package sources.

    Returns the build id and a directory holding ``pyodide-lock.json`` and ``<id>/*.whl``.
    """
    build_id = sources_digest()
    target = CACHE / build_id
    if (target / "pyodide-lock.json").is_file():
        return build_id, target
    CACHE.mkdir(parents=True, exist_ok=True)
    with step("scratchgrad wheel + lock file"), tempfile.TemporaryDirectory(dir=CACHE) as scratch:
        staging = Path(scratch) / build_id
        wheel_dir = staging / build_id
        run([TOOLS / "python", "-m", "build", "--wheel", "--no-isolation", "--outdir", wheel_dir, ROOT])
        wheels = sorted(wheel_dir.glob("scratchgrad-*.whl"))
        if len(wheels) != 1:
            raise PluginError(f"hooks/pyodide_runtime.py: expected one scratchgrad wheel, built {wheels}")
        run([
            TOOLS / "pyodide", "lockfile", "add-wheels",
            "--input", PYODIDE_PACKAGE / "pyodide-lock.json",
            "--output", staging / "pyodide-lock.json",
            "--base-path", staging,
            wheels[0],
        ])  # fmt: skip
        try:
            staging.rename(target)
        except OSError:  # a build running at the same time got there first: same sources, same files
            if not (target / "pyodide-lock.json").is_file():
                raise
    return build_id, target


def sources_digest() -> str:
    """A short digest of every file that goes into the wheel (and of the Pyodide version)."""
    digest = hashlib.sha256(pyodide_version().encode())
    for name in PACKAGE_SOURCES:
        path = ROOT / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def bundle(index_url: str | None, build_id: str) -> dict[str, bytes]:
    """Bundle web/ with esbuild (or reuse the bundle of the same inputs); {file name: content}.

    The bundle depends on web/, the npm packages it imports (package-lock.json), the defines and
    how this hook calls esbuild (this file);
    a build with the same ones — every test site, every `mkdocs serve` rebuild after a docs edit —
    reads the earlier bundle from ``build/web-bundles/<digest>`` instead of running esbuild again.
    """
    values = defines(index_url, build_id)
    digest = hashlib.sha256(json.dumps(values).encode())
    digest.update(Path(__file__).read_bytes())  # a test's mini site runs a copy of this hook
    for file in [ROOT / "package-lock.json", *sorted(WEB.rglob("*"))]:
        if file.is_file():
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes())
    cached = BUNDLES / digest.hexdigest()[:16]
    if not cached.is_dir():
        # The page's runner is split into chunks that each feature loads when a page has it; each
        # worker is one file, so that it starts with one request instead of a round trip more.
        page = esbuild(PAGE_ENTRY_POINTS, ["--format=esm", "--splitting", "--sourcemap"], values)
        files = page | esbuild(WORKER_ENTRY_POINTS, ["--format=esm", "--sourcemap"], values)
        files |= esbuild(CLASSIC_WORKER_ENTRY_POINTS, ["--format=iife", "--sourcemap"], values)
        BUNDLES.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=BUNDLES) as scratch:
            for name, content in files.items():
                (Path(scratch) / name).write_bytes(content)
            try:
                Path(scratch).rename(cached)
            except OSError:  # a build running at the same time got there first: same inputs, same files
                if not cached.is_dir():
                    raise
            Path(scratch).mkdir()  # for TemporaryDirectory's clean-up
    return {path.name: path.read_bytes() for path in sorted(cached.iterdir())}


def defines(index_url: str | None, build_id: str) -> dict[str, object]:
    """The values esbuild writes into the bundle: where Python comes from, and what the page's
    JavaScript needs to know of the package, from the modules that define it (at build time: the
    package as it is now, the same as in the wheel of this build)."""
    return {"PYODIDE_INDEX_URL": index_url, "RUNTIME_BUILD_ID": build_id, **shared_rules()}


def shared_rules() -> dict[str, object]:
    """The rules of the package and the build that the page's JavaScript follows too, by the
    names its modules read them under (each module lists its own in a ``/* global */`` comment).
    Each has one owner, named here; tests/test_shared_rules.py fails if a value is written into
    web/ by hand."""
    blocks = importlib.import_module("scratchgrad.page.blocks")
    graph = importlib.import_module("scratchgrad.graph")
    panel = importlib.import_module("scratchgrad.playground.panel")
    program = importlib.import_module("scratchgrad.playground.program")
    runner = importlib.import_module("scratchgrad.exercises.runner")
    registry = importlib.import_module("scratchgrad.exercises.registry")
    return {
        "BLOCK_DOT_MIME_TYPE": blocks.DOT_MIME_TYPE,
        "BLOCK_STUDY_MIME_TYPE": blocks.STUDY_MIME_TYPE,
        "BLOCK_CURVE_MIME_TYPE": blocks.CURVE_MIME_TYPE,
        "GRAPH_GRAD_FIELD": graph.GRAD_FIELD,
        "GRAPH_FIELD_DIGITS": graph.FIELD_DIGITS,
        "GRAPH_NAME_FORMAT": figures.GRAPH_NAME_FORMAT,
        "GRAPH_NAME_SEPARATOR": figures.GRAPH_NAME_SEPARATOR,
        # The reader's exported work is the module that engine=yours imports.
        "WORK_FILE_NAME": f"{program.YOUR_MODULE}.py",
        "EXERCISE_TIME_LIMIT_S": runner.DEFAULT_TIME_LIMIT,
        # Exercises whose checks need torch: the page never calls one passed (exercises.registry).
        "EXERCISES_ON_THE_COMMAND_LINE": [e.id for e in registry.COMMAND_LINE_ONLY],
        "PLAYGROUND_PAGE": site_urls.page_url("playground.md"),
        # The playground's fields and presets: a panel builds its whole settings form as the page
        # loads, so that it does not grow once Python has started (web/playground/panel.js).
        "PLAYGROUND_DESCRIPTION": json.loads(panel.describe()),
    }


def esbuild(entry_points: dict[str, Path], options: list[str], values: dict[str, object]):
    """Run esbuild on `entry_points` with the runtime's `defines`; returns {file name: content}."""
    with step("esbuild"), tempfile.TemporaryDirectory() as out:
        run([
            NODE_MODULES / ".bin" / "esbuild",
            *(f"{name}={path}" for name, path in entry_points.items()),
            *options, "--bundle", "--target=es2022", "--minify",
            "--log-level=warning", f"--outdir={out}",
            *(f"--define:{name}={json.dumps(value)}" for name, value in values.items()),
        ])  # fmt: skip
        return {path.name: path.read_bytes() for path in sorted(Path(out).iterdir())}


def run(command: list[object]) -> None:
    """Run a build tool; its own error message becomes the build's."""
    result = subprocess.run([str(part) for part in command], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        tool = Path(str(command[0])).name
        raise PluginError(f"hooks/pyodide_runtime.py: {tool} failed:\n{result.stdout}{result.stderr}")
