"""Firefox and WebKit, driven the same way: open a page, evaluate JavaScript in it, read its errors.

Both engines come from Debian packages only (``.ci/run`` installs them):

- Firefox ESR (``firefox-esr``) over WebDriver BiDi with npm ``puppeteer-core``, through the small
  bridge ``firefox.mjs`` (Puppeteer is JavaScript only). It reports console errors and uncaught
  exceptions of the page.
- WebKitGTK's MiniBrowser (``webkit2gtk-driver``) under Xvfb, with Selenium from PyPI through
  ``/usr/bin/WebKitWebDriver``. ``SE_MANAGER_PATH=/bin/false``: Selenium never downloads a driver.
  WebDriver gives no console here, so `errors()` reads the failures the page itself shows (a
  status line that says Python could not start, a playground that failed).

Every session starts from a fresh profile: nothing cached, no service worker yet.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
XVFB = Path("/usr/bin/Xvfb")
NODE_MODULES = ROOT / "node_modules"
POLL_S = 0.1

PAGE_FAILURES = """
[...document.querySelectorAll(
  '.sg-status[data-status="failed"], .sg-playground[data-sg-state="failed"] .sg-pg-status'
)].map((element) => `the page says: ${element.textContent}`)
"""
"""What a page shows when something broke: the engines without a console are read this way."""


class MissingEngineError(Exception):
    """The engine (or its driver) is not installed: the tests skip, or fail with CI=true."""


class Engine:
    """One browser engine with one page; `fresh()` starts it anew on an empty profile."""

    name = ""

    def fresh(self) -> None:
        raise NotImplementedError

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self, timeout_s: float) -> None:
        """Load the page again; return once the new page has loaded.

        The drivers' own reload is not enough: Puppeteer's over BiDi ends at the first
        `historyUpdated` event, and WebKit's WebDriver refresh (as measured) at a history change
        too, while Material's instant navigation records the scroll offset with
        history.replaceState 100 ms after every scroll. A reload sent in that window returned with
        the old page still shown, or the new one half-loaded: a test then read the old page's
        state, then a page whose blocks were not there yet.
        """
        loaded_at = self.evaluate("performance.timeOrigin")
        self._reload()
        self.wait_across_pages(f"performance.timeOrigin > {loaded_at} && document.readyState === 'complete'",
                               timeout_s, "the page loading again")  # fmt: skip

    def _reload(self) -> None:
        """The driver's reload."""
        raise NotImplementedError

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        raise NotImplementedError

    def errors(self) -> list[str]:
        """The errors since the last call (console and uncaught, or what the page shows)."""
        raise NotImplementedError

    def root_pid(self) -> int:
        """A process whose descendants are all of this browser's processes (for CPU readings)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def wait_for(self, expression: str, timeout_s: float, what: str = "") -> object:
        """Poll `expression` until it is truthy; return it, or fail saying what did not happen."""
        return self._poll(lambda: self.evaluate(expression), timeout_s, what or expression)

    def wait_across_pages(self, expression: str, timeout_s: float, what: str) -> object:
        """wait_for() while one page replaces another: an evaluation that fails counts as not yet."""

        def read() -> object:
            try:
                return self.evaluate(expression)
            except Exception:  # the old page went while the engine answered
                return None

        return self._poll(read, timeout_s, what)

    def _poll(self, read, timeout_s: float, what: str) -> object:
        deadline = time.monotonic() + timeout_s
        while True:
            value = read()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: {what} did not happen in {timeout_s:.0f} s")
            time.sleep(POLL_S)


class Firefox(Engine):
    name = "firefox"

    def __init__(self) -> None:
        if not FIREFOX.exists():
            raise MissingEngineError(f"{FIREFOX} is not installed (apt-get install firefox-esr)")
        if not (NODE_MODULES / "puppeteer-core").is_dir():
            raise MissingEngineError("npm puppeteer-core is not installed (make setup-web)")
        env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}
        self._bridge = subprocess.Popen(
            ["node", str(HERE / "firefox.mjs")],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self._profile: str | None = None
        self._pid = 0

    def _send(self, command: str, **args: object):
        self._bridge.stdin.write(json.dumps({"command": command, **args}) + "\n")
        self._bridge.stdin.flush()
        line = self._bridge.stdout.readline()
        if not line:
            raise RuntimeError(f"the Firefox bridge exited (code {self._bridge.wait()})")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"firefox: {command} failed: {answer['error']}")
        return answer["value"]

    def fresh(self) -> None:
        self._drop_profile()
        self._profile = tempfile.mkdtemp(prefix="scratchgrad-firefox-")
        self._pid = self._send("launch", profile=self._profile)

    def goto(self, url: str) -> None:
        self._send("goto", url=url)

    def _reload(self) -> None:
        self._send("reload")

    def evaluate(self, expression: str):
        return self._send("evaluate", expression=expression)

    def errors(self) -> list[str]:
        return self._send("errors")

    def root_pid(self) -> int:
        return self._pid

    def close(self) -> None:
        if self._bridge.poll() is None:
            self._send("close")
            self._bridge.stdin.close()
            self._bridge.wait(timeout=30)
            self._bridge.stdout.close()
        self._drop_profile()

    def _drop_profile(self) -> None:
        if self._profile:
            shutil.rmtree(self._profile, ignore_errors=True)


class WebKit(Engine):
    name = "webkit"

    def __init__(self) -> None:
        needs = ((WEBKIT_DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "webkit2gtk-driver"), (XVFB, "xvfb"))
        for needed, package in needs:
            if not needed.exists():
                raise MissingEngineError(f"{needed} is not installed (apt-get install {package})")
        try:
            import selenium  # noqa: F401
        except ImportError as error:
            raise MissingEngineError("Selenium is not installed (pip install selenium)") from error
        os.environ["SE_MANAGER_PATH"] = "/bin/false"  # Selenium Manager would download drivers
        self._display = _free_display()
        self._xvfb = subprocess.Popen(
            [str(XVFB), self._display, "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._driver = None
        self._service = None

    def fresh(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self._quit()
        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")  # without it: "Failed to match capabilities"
        self._service = Service(str(WEBKIT_DRIVER), env={**os.environ, "DISPLAY": self._display})
        self._driver = webdriver.WebKitGTK(options=options, service=self._service)  # an ephemeral profile
        self._driver.set_window_size(1280, 900)
        self._driver.set_script_timeout(600)

    def goto(self, url: str) -> None:
        self._driver.get(url)

    def _reload(self) -> None:
        self._driver.refresh()

    def evaluate(self, expression: str):
        answer = self._driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({expression}))"
            ".then((value) => done({value}),"
            " (error) => done({error: `${error}\\n${error?.stack ?? ''}`}));"
        )
        if "error" in answer:
            raise RuntimeError(f"webkit: {answer['error']}")
        return answer.get("value")

    def errors(self) -> list[str]:
        return self.evaluate(PAGE_FAILURES)

    def root_pid(self) -> int:
        return self._service.process.pid

    def close(self) -> None:
        self._quit()
        self._xvfb.terminate()
        self._xvfb.wait(timeout=30)

    def _quit(self) -> None:
        if self._driver is not None:
            self._driver.quit()
            self._driver = None


def _free_display() -> str:
    """An X display number no server uses yet (Xvfb's lock files say which are taken)."""
    number = 99
    while Path(f"/tmp/.X{number}-lock").exists():
        number += 1
    return f":{number}"


ENGINES = {"firefox": Firefox, "webkit": WebKit}
