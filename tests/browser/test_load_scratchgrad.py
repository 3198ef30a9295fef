"""How a worker loads Pyodide and the package (web/worker/load-scratchgrad.js), run in Node.

Node is a worker's world without Cache Storage (so no snapshot: Pyodide boots from its files)
and with the same fetch: the loader reads the site's lock file over HTTP, fetches the wheel it
names with the SHA-256 it gives, and unpacks it into site-packages. The lock file and the wheel
come from the built site; Pyodide from node_modules.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness import serve_site, stop

from docs_pages import ROOT

LOADER = (ROOT / "web" / "worker" / "load-scratchgrad.js").as_uri()
INDEX_URL = f"{ROOT / 'node_modules' / 'pyodide'}/"
LOAD_IN_NODE = """
const [loader, indexURL, lockFileURL] = process.argv.slice(1);
const { loadScratchgrad } = await import(loader);
try {
  const { pyodide, bootedFrom } = await loadScratchgrad({ indexURL, lockFileURL });
  const value = pyodide.runPython("from scratchgrad import Value; str(Value(2.0) * 3)");
  const inSitePackages = pyodide.runPython(
    "import scratchgrad, site; scratchgrad.__file__.startswith(site.getsitepackages()[0])"
  );
  const hasCaches = typeof caches !== "undefined";
  console.log(JSON.stringify({ bootedFrom, hasCaches, value, inSitePackages }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message }));
}
"""
WRONG_DIGEST = "0" * 64


@pytest.fixture(scope="module")
def served(site_dir: Path):
    """The site, plus a copy of its lock file that gives the wheel a wrong SHA-256."""
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    lock["packages"]["scratchgrad"]["sha256"] = WRONG_DIGEST
    server = serve_site(site_dir, extra_pages={"/pyodide/tampered-lock.json": json.dumps(lock)})
    yield f"http://127.0.0.1:{server.server_port}/"
    stop(server)


def load_in_node(lock_file_url: str) -> dict:
    command = ["node", "--input-type=module", "-e", LOAD_IN_NODE, LOADER, INDEX_URL, lock_file_url]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_cache_storage_python_boots_from_its_files_and_installs_the_package(served):
    answer = load_in_node(f"{served}pyodide/pyodide-lock.json")
    assert answer == {
        "bootedFrom": "files",
        "hasCaches": False,
        "value": "Value(data=6.0000, grad=0.0000)",
        "inSitePackages": True,
    }


def test_a_wheel_that_is_not_the_one_in_the_lock_file_is_refused_with_its_address(served, site_dir):
    wheel = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())["packages"]["scratchgrad"]
    answer = load_in_node(f"{served}pyodide/tampered-lock.json")
    assert answer == {
        "error": f"the scratchgrad package did not load from {served}pyodide/{wheel['file_name']} "
        "(it could not be fetched, or its SHA-256 is not the one in the lock file)"
    }


def test_a_lock_file_that_is_missing_is_named(served):
    missing = f"{served}pyodide/no-such-lock.json"
    assert load_in_node(missing) == {"error": f"the lock file did not load from {missing} (HTTP 404)"}
