// Typesets formulas for hooks/formulas.py, one request per line for as long as the build runs: reads
// a line [{tex, display}] as JSON on stdin and writes a line [{html} or {error}] as JSON on stdout,
// one answer per formula, in order. Ends when stdin closes.
// Usage: node hooks/helpers/katex_render.js path/to/node_modules/katex
"use strict";

const readline = require("node:readline");
const katex = require(process.argv[2]);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const answers = JSON.parse(line).map(({ tex, display }) => {
    try {
      return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error" }) };
    } catch (error) {
      return { error: String(error.message || error) };
    }
  });
  process.stdout.write(JSON.stringify(answers) + "\n");
});
