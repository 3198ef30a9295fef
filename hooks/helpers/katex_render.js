// Typesets formulas for hooks/formulas.py: reads [{tex, display}] as JSON on stdin and writes
// [{html} or {error}] as JSON on stdout, one answer per formula, in order.
// Usage: node hooks/helpers/katex_render.js path/to/node_modules/katex
"use strict";

const katex = require(process.argv[2]);

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const answers = JSON.parse(input).map(({ tex, display }) => {
    try {
      return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error" }) };
    } catch (error) {
      return { error: String(error.message || error) };
    }
  });
  process.stdout.write(JSON.stringify(answers));
});
