// What the page adds for keyboard and screen-reader users (web/page/page-accessibility.js).
// jsdom lays nothing out: each region's sizes are set by hand, as a browser would measure them.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { keepAccessible } from "../../../web/page/page-accessibility.js";
import { installDom } from "../dom.mjs";

let stop;
beforeEach(() => {
  installDom();
  globalThis.IntersectionObserver = FakeObserver;
  FakeObserver.all = [];
});
afterEach(() => stop?.());

/** An IntersectionObserver whose reports the test makes: jsdom has none, and lays nothing out. */
class FakeObserver {
  static all = [];

  constructor(callback, options) {
    this.callback = callback;
    this.options = options;
    this.targets = new Set();
    FakeObserver.all.push(this);
  }

  observe(target) {
    this.targets.add(target);
  }

  disconnect() {
    this.targets.clear();
  }
}

/** The page's observer reports each of `regions` near the screen (`near`) or away from it. */
function report(regions, near = true) {
  for (const observer of FakeObserver.all) {
    const entries = regions.filter((region) => observer.targets.has(region));
    if (entries.length) observer.callback(entries.map((target) => ({ target, isIntersecting: near })));
  }
}

/** `element` as a browser would measure it: 100 px wide on screen, `contentWidth` wide inside,
 * scrolling where it overflows. */
function sized(element, contentWidth) {
  element.style.overflowX = element.style.overflowY = "auto";
  Object.defineProperties(element, {
    clientWidth: { value: 100 },
    clientHeight: { value: 20 },
    scrollWidth: { value: contentWidth, configurable: true },
    scrollHeight: { value: 20 },
  });
  return element;
}

/** A region of `className` holding `inner`, measured as sized() says. */
function region(className, contentWidth, inner = "output") {
  const element = document.createElement("div");
  element.className = className;
  element.innerHTML = inner;
  return sized(element, contentWidth);
}

/** Wait until no region waits to be asked. */
async function checked(root) {
  while (root.hasAttribute("data-sg-checking")) await new Promise((resolve) => setTimeout(resolve));
}

test("near the screen, a region that scrolls gets a tab stop, one that fits or holds a link gets none", async () => {
  const root = document.body;
  const wide = region("sg-output", 300);
  const fits = region("sg-output", 100);
  const linked = region("sg-figure", 300, '<a href="#x">a link</a>');
  root.append(wide, fits, linked);
  stop = keepAccessible(root);
  assert.ok(root.hasAttribute("data-sg-checking"), "not known yet where the regions are");
  report([wide, fits, linked]);
  assert.ok(root.hasAttribute("data-sg-checking"), "asked later, not in the task that reported them");
  await checked(root);
  assert.equal(wide.getAttribute("tabindex"), "0");
  assert.equal(fits.getAttribute("tabindex"), null);
  assert.equal(linked.getAttribute("tabindex"), null);
});

test("a region away from the screen is not measured, and keeps a tab stop until it comes near", async () => {
  const root = document.body;
  let measured = 0;
  const fits = region("sg-output", 100);
  Object.defineProperty(fits, "scrollWidth", {
    get() {
      measured += 1;
      return 100;
    },
  });
  root.append(fits);
  stop = keepAccessible(root);
  report([fits], false);
  await checked(root);
  assert.equal(measured, 0, "measuring it would lay it out");
  assert.equal(fits.getAttribute("tabindex"), "0", "assumed to scroll until asked");
  report([fits]);
  await checked(root);
  assert.equal(measured, 1);
  assert.equal(fits.getAttribute("tabindex"), null);
});

test("the first Tab asks every region not asked yet, before the focus moves", () => {
  const root = document.body;
  const wide = region("sg-output", 300);
  const fits = region("sg-output", 100);
  root.append(wide, fits);
  stop = keepAccessible(root);
  report([wide, fits], false);
  document.dispatchEvent(new window.KeyboardEvent("keydown", { key: "a" }));
  assert.equal(fits.getAttribute("tabindex"), "0", "only Tab asks");
  document.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Tab" }));
  assert.equal(wide.getAttribute("tabindex"), "0");
  assert.equal(fits.getAttribute("tabindex"), null);
});

test("a region whose style does not let it scroll gets no tab stop, however wide its content", async () => {
  const root = document.body;
  const clipped = region("sg-output", 300);
  clipped.style.overflowX = clipped.style.overflowY = "hidden"; // content cut off, not scrolled
  root.append(clipped);
  stop = keepAccessible(root);
  report([clipped]);
  await checked(root);
  assert.equal(clipped.getAttribute("tabindex"), null);
});

test("a region that stops scrolling loses its tab stop when it changes", async () => {
  const root = document.body;
  const output = region("sg-output", 300);
  root.append(output);
  stop = keepAccessible(root);
  report([output]);
  await checked(root);
  assert.equal(output.getAttribute("tabindex"), "0");
  Object.defineProperty(output, "scrollWidth", { value: 100 });
  output.textContent = "short"; // a run writes its output
  await new Promise((resolve) => setTimeout(resolve)); // the mutation observer's turn
  await checked(root);
  assert.equal(output.getAttribute("tabindex"), null);
});

test("regions added later are asked, and Material's code-block navs are no landmarks", async () => {
  const root = document.body;
  root.innerHTML = '<pre><nav class="md-code__nav"></nav><code>x</code></pre>';
  stop = keepAccessible(root);
  assert.equal(root.querySelector("nav").getAttribute("role"), "none");
  const later = document.createElement("pre");
  later.innerHTML = '<nav class="md-code__nav"></nav><code>y</code>';
  const output = region("sg-output", 100);
  root.append(later, output);
  await new Promise((resolve) => setTimeout(resolve)); // the mutation observer's turn
  assert.equal(later.querySelector("nav").getAttribute("role"), "none");
  assert.ok(root.hasAttribute("data-sg-checking"));
  report([output]);
  await checked(root);
  assert.equal(output.getAttribute("tabindex"), null);
});

test("many regions are asked in slices, not in one task", async () => {
  const root = document.body;
  const slow = [];
  for (let index = 0; index < 40; index += 1) {
    const each = region("sg-output", 100);
    Object.defineProperty(each, "scrollWidth", {
      get() {
        const until = performance.now() + 1; // a millisecond of layout each
        while (performance.now() < until);
        return 100;
      },
    });
    slow.push(each);
  }
  root.append(...slow);
  stop = keepAccessible(root);
  report(slow);
  await new Promise((resolve) => setTimeout(resolve)); // one slice
  const first = slow.filter((each) => !each.hasAttribute("tabindex")).length;
  assert.ok(first > 0 && first < slow.length, `one slice asked ${first} of ${slow.length}`);
  await checked(root);
  assert.ok(slow.every((each) => !each.hasAttribute("tabindex")));
});

test("stopping leaves no check waiting", () => {
  const root = document.body;
  root.append(region("sg-output", 300));
  stop = keepAccessible(root);
  stop();
  stop = null;
  assert.equal(root.hasAttribute("data-sg-checking"), false);
});
