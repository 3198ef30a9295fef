"""One Playground step with "Engine: yours", part by part, inside Pyodide in headless Chromium.

`yours_step.py` run where the Playground runs: in a module Worker of headless Chromium (the same
launch as tests/browser), on the Pyodide of ``node_modules/`` (the one the site self-hosts), with
``src/`` and ``benchmarks/`` copied into its file system. A Worker has no CPU clock, so the parts
are timed in wall-clock milliseconds (``time.perf_counter``): run it on a quiet machine.

    .venv/bin/python benchmarks/yours_step_chromium.py [steps] [batch size]

Prints the same line of JSON as ``python benchmarks/yours_step.py``.
"""

from __future__ import annotations

import http.server
import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "browser")]
from harness import launch_chromium, serve, stop  # noqa: E402  (the tests' Chromium and server)

COPIED = ("src", "benchmarks")
"""The folders copied into Pyodide's file system, as `yours_step.mjs` mounts them under Node."""

WORKER = """
import { loadPyodide } from "./node_modules/pyodide/pyodide.mjs";
onmessage = async ({ data: { files, code } }) => {
  const pyodide = await loadPyodide({ indexURL: new URL("./node_modules/pyodide/", location.href).href });
  for (const file of files) {
    pyodide.FS.mkdirTree("/repo/" + file.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/repo/" + file, await (await fetch("./" + file)).text());
  }
  const printed = [];
  pyodide.setStdout({ batched: (line) => printed.push(line) });
  try {
    await pyodide.runPythonAsync(code);
    postMessage({ printed: printed.join("\\n") });
  } catch (error) {
    postMessage({ error: String(error) });
  }
};
"""


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    """The repository's files, and the worker above at /yours-step-worker.mjs; nothing logged."""

    def do_GET(self) -> None:
        if self.path != "/yours-step-worker.mjs":
            return super().do_GET()
        body = WORKER.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args: object) -> None:
        pass


def python_code(steps: int, batch_size: int | None) -> str:
    """What the worker runs: `yours_step.breakdown` on a wall clock."""
    return (
        "import json, sys, time\n"
        "sys.path[:0] = ['/repo/src', '/repo/benchmarks']\n"
        "import yours_step\n"
        "yours_step.cpu_clock = time.perf_counter  # a Worker has no CPU clock\n"
        f"result = yours_step.breakdown(steps={steps}, batch_size={batch_size!r})\n"
        "result['clock'] = 'wall'\n"
        "print(json.dumps(result))\n"
    )


def measure(steps: int = 12, batch_size: int | None = None) -> dict:
    """`yours_step.breakdown` in a Chromium Worker: its result, with ``"clock": "wall"``."""
    files = sorted(
        str(path.relative_to(REPO))
        for folder in COPIED
        for path in (REPO / folder).rglob("*")
        if path.suffix in (".py", ".toml")
    )
    server = serve(QuietFiles, directory=str(REPO))
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/README.md")
            answer = page.evaluate(
                """([files, code]) => new Promise((resolve) => {
                    const worker = new Worker("/yours-step-worker.mjs", { type: "module" });
                    worker.onmessage = ({ data }) => resolve(data);
                    worker.onerror = (event) => resolve({ error: event.message });
                    worker.postMessage({ files, code });
                })""",
                [files, python_code(steps, batch_size)],
            )
            browser.close()
    finally:
        stop(server)
    if "error" in answer:
        raise SystemExit(f"the worker failed: {answer['error']}")
    return json.loads(answer["printed"].strip().splitlines()[-1])


if __name__ == "__main__":
    arguments = sys.argv[1:]
    steps = int(arguments[0]) if arguments else 12
    batch_size = int(arguments[1]) if len(arguments) > 1 else None
    print(json.dumps(measure(steps, batch_size)))
