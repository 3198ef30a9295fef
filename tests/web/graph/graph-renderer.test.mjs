// Sanitising Graphviz's SVG before it joins the page (web/graph/graph-renderer.js).

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { drawingScale, sanitizedSvg } from "../../../web/graph/graph-renderer.js";
import { installDom } from "../dom.mjs";

before(installDom);

const SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** The sanitised drawing of `inner` (the content of an <svg> element) as markup. */
function sanitized(inner, attributes = "") {
  return sanitizedSvg(`<svg ${SVG} ${attributes}>${inner}</svg>`).outerHTML;
}

describe("sanitizedSvg", () => {
  test("keeps a Graphviz drawing as it is", () => {
    const drawing =
      '<g id="graph0" class="graph"><title>G</title>' +
      '<polygon fill="white" points="-4,4 -4,-40 58,-40 58,4 -4,4"></polygon>' +
      '<g id="node1" class="node"><title>x</title><ellipse cx="27" cy="-18" rx="27" ry="18"></ellipse>' +
      '<text text-anchor="middle" x="27" y="-13.8">data 2.0000 | grad 0.5000</text></g></g>';
    assert.equal(
      sanitized(drawing, 'width="62pt" height="44pt"'),
      `<svg ${SVG} width="62pt" height="44pt">${drawing}</svg>`,
    );
  });

  test("drops every element that is not drawing, with what it holds", () => {
    const markup = sanitized(
      '<script>alert(1)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>' +
        '<a xlink:href="https://example.org"><text>link</text></a><image href="x.png"></image>' +
        '<use href="#node1"></use><SCRIPT>alert(2)</SCRIPT><text>kept</text>',
    );
    assert.equal(markup, `<svg ${SVG}><text>kept</text></svg>`);
  });

  test("drops event handlers, links and styles from the elements it keeps", () => {
    const markup = sanitized(
      '<g onclick="alert(1)" ONMOUSEOVER="alert(2)" style="fill: url(javascript:alert(3))" class="node">' +
        '<text xlink:href="https://example.org" href="https://example.org" x="1">label</text></g>',
      'onload="alert(4)"',
    );
    assert.equal(markup, `<svg ${SVG}><g class="node"><text x="1">label</text></g></svg>`);
  });

  test("keeps the reader's strings as text, never as markup", () => {
    const markup = sanitized("<text>&lt;img src=x onerror=alert(1)&gt;</text>");
    assert.equal(markup, `<svg ${SVG}><text>&lt;img src=x onerror=alert(1)&gt;</text></svg>`);
  });

  test("gives an element of the page's own document", () => {
    assert.equal(sanitizedSvg(`<svg ${SVG}></svg>`).ownerDocument, document);
  });

  test("refuses what is not an SVG drawing", () => {
    const refusal = { message: "Graphviz returned something that is not an SVG drawing" };
    assert.throws(() => sanitizedSvg('<html xmlns="http://www.w3.org/1999/xhtml"></html>'), refusal);
    assert.throws(() => sanitizedSvg(`<svg ${SVG}><g></svg>`), refusal);
  });
});

describe("drawingScale", () => {
  const svg = (width, viewBoxWidth) => ({
    getAttribute: (name) => (name === "width" ? width : null),
    viewBox: { baseVal: { width: viewBoxWidth } },
  });

  test("is the width attribute over the viewBox width", () => {
    assert.equal(drawingScale(svg("75pt", 100)), 0.75);
  });

  test("is 1 when either is unknown", () => {
    assert.equal(drawingScale(null), 1);
    assert.equal(drawingScale(svg(null, 100)), 1);
    assert.equal(drawingScale(svg("75pt", 0)), 1);
  });
});
