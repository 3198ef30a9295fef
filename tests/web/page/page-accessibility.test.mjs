// What the page adds for keyboard and screen-reader users (web/page/page-accessibility.js).
// jsdom lays nothing out: each region's sizes are set by hand, as a browser would measure them.

import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { keepAccessible } from "../../../web/page/page-accessibility.js";
import { installDom } from "../dom.mjs";

let stop;
beforeEach(() => installDom());
afterEach(() => stop?.());

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

/** Wait until no region waits to be checked. */
async function checked(root) {
  while (root.hasAttribute("data-sg-checking")) await new Promise((resolve) => setTimeout(resolve));
}

test("a region that scrolls gets a tab stop, one that fits or holds a link gets none", async () => {
  const root = document.body;
  const wide = region("sg-output", 300);
  const fits = region("sg-output", 100);
  const linked = region("sg-figure", 300, '<a href="#x">a link</a>');
  root.append(wide, fits, linked);
  stop = keepAccessible(root);
  assert.ok(root.hasAttribute("data-sg-checking"), "checked later, not in the task that showed the page");
  assert.equal(wide.getAttribute("tabindex"), null);
  await checked(root);
  assert.equal(wide.getAttribute("tabindex"), "0");
  assert.equal(fits.getAttribute("tabindex"), null);
  assert.equal(linked.getAttribute("tabindex"), null);
});

test("a region whose style does not let it scroll gets no tab stop, however wide its content", async () => {
  const root = document.body;
  const clipped = region("sg-output", 300);
  clipped.style.overflowX = clipped.style.overflowY = "hidden"; // content cut off, not scrolled
  root.append(clipped);
  stop = keepAccessible(root);
  await checked(root);
  assert.equal(clipped.getAttribute("tabindex"), null);
});

test("a region that stops scrolling loses its tab stop when it changes", async () => {
  const root = document.body;
  const output = region("sg-output", 300);
  root.append(output);
  stop = keepAccessible(root);
  await checked(root);
  assert.equal(output.getAttribute("tabindex"), "0");
  Object.defineProperty(output, "scrollWidth", { value: 100 });
  output.textContent = "short"; // a run writes its output
  await new Promise((resolve) => setTimeout(resolve)); // the mutation observer's turn
  await checked(root);
  assert.equal(output.getAttribute("tabindex"), null);
});

test("regions added later are checked, and Material's code-block navs are no landmarks", async () => {
  const root = document.body;
  root.innerHTML = '<pre><nav class="md-code__nav"></nav><code>x</code></pre>';
  stop = keepAccessible(root);
  assert.equal(root.querySelector("nav").getAttribute("role"), "none");
  const later = document.createElement("pre");
  later.innerHTML = '<nav class="md-code__nav"></nav><code>y</code>';
  const output = region("sg-output", 300);
  root.append(later, output);
  await new Promise((resolve) => setTimeout(resolve));
  await checked(root);
  assert.equal(later.querySelector("nav").getAttribute("role"), "none");
  assert.equal(output.getAttribute("tabindex"), "0");
});

test("many regions are checked in slices, not in one task", async () => {
  const root = document.body;
  const slow = [];
  for (let index = 0; index < 40; index += 1) {
    const each = region("sg-output", 300);
    Object.defineProperty(each, "scrollWidth", {
      get() {
        const until = performance.now() + 1; // a millisecond of layout each
        while (performance.now() < until);
        return 300;
      },
    });
    slow.push(each);
  }
  root.append(...slow);
  stop = keepAccessible(root);
  await new Promise((resolve) => setTimeout(resolve)); // one slice
  const first = slow.filter((each) => each.hasAttribute("tabindex")).length;
  assert.ok(first > 0 && first < slow.length, `one slice checked ${first} of ${slow.length}`);
  await checked(root);
  assert.ok(slow.every((each) => each.getAttribute("tabindex") === "0"));
});

test("stopping leaves no check waiting", () => {
  const root = document.body;
  root.append(region("sg-output", 300));
  stop = keepAccessible(root);
  stop();
  stop = null;
  assert.equal(root.hasAttribute("data-sg-checking"), false);
});
