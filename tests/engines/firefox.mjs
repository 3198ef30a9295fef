// Firefox ESR (Debian's /usr/bin/firefox-esr) over WebDriver BiDi, for tests/engines/engines.py.
//
// Puppeteer is JavaScript only, so the Python tests talk to it through this small bridge: one JSON
// command per line on stdin, one JSON answer per line on stdout ({ok: true, value} or {ok: false,
// error}). Commands: launch {profile}, goto {url}, reload, evaluate {expression} (awaited),
// errors (the console errors and uncaught exceptions since the last call), pid, close.
// PUPPETEER_SKIP_DOWNLOAD=1 keeps npm from fetching a browser: only the Debian one is used.

import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const FIREFOX = "/usr/bin/firefox-esr";
let browser = null;
let page = null;
let errors = [];

function watch(newPage) {
  newPage.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()} (${message.location()?.url ?? ""})`);
  });
  newPage.on("pageerror", (error) => errors.push(`uncaught: ${error.message ?? error}`));
}

const commands = {
  async launch({ profile }) {
    await commands.close();
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: FIREFOX,
      headless: true,
      protocol: "webDriverBiDi",
      userDataDir: profile,
      extraPrefsFirefox: { "browser.shell.checkDefaultBrowser": false },
    });
    [page] = await browser.pages();
    page ??= await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    watch(page);
    errors = [];
    return browser.process().pid;
  },
  goto: ({ url }) => page.goto(url, { waitUntil: "load" }).then(() => null),
  reload: () => page.reload({ waitUntil: "load" }).then(() => null),
  evaluate: ({ expression }) => page.evaluate(expression),
  errors() {
    const seen = errors;
    errors = [];
    return seen;
  },
  async close() {
    await browser?.close();
    browser = null;
    return null;
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { command, ...args } = JSON.parse(line);
  let answer;
  try {
    answer = { ok: true, value: (await commands[command](args)) ?? null };
  } catch (error) {
    answer = { ok: false, error: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await commands.close();
