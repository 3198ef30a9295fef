// Writes one check's report into an exercise: one line per hidden check, then the verdict.
//
// The report is the package's (scratchgrad/exercises/report.py, to_json): this module only
// lays it out. Every text from the report — the reader's printed output too — goes in as text
// nodes, never as HTML. A failed check that sends the reader's graph gets a place for its drawing
// under its line; the caller draws it (Graphviz runs in a worker) and checks its nodes.

const PIECE_SOURCE = {
  yours: "yours",
  reference: "ours (the reference solution)",
};

/**
 * Replace the contents of `area` with `report`; `titles` maps exercise ids to their titles.
 * Returns the graphs to draw: [{figure, dot}], a figure (with its study) for each failed check's graph.
 */
export function showReport(area, report, titles) {
  area.replaceChildren();
  const graphs = [];
  if (report.pieces.length) area.append(piecesLine(report.pieces, titles));
  const list = element("ul", "sg-checks");
  for (const check of report.checks) {
    const item = element("li", `sg-check sg-check--${check.passed ? "pass" : "fail"}`);
    const text = element("span", "sg-check__text");
    text.append(element("strong", "sg-check__title", check.title), `: ${check.message}`);
    item.append(element("span", "sg-check__mark", check.passed ? "pass" : "fail"), text);
    if (!check.passed && check.graph) {
      const figure = element("div", "sg-figure sg-graph sg-check-graph", "Drawing your graph…");
      figure.dataset.sgStudy = check.graph.study;
      figure.setAttribute("aria-busy", "true");
      item.append(figure);
      graphs.push({ figure, dot: check.graph.dot });
    }
    list.append(item);
  }
  if (report.checks.length) area.append(list);
  if (report.error && !report.checks.length) {
    const { type, message, where, line } = report.error;
    area.append(element("p", "sg-check-error", `${type}: ${message} (${where}${line ? `, line ${line}` : ""})`));
  }
  area.append(verdictLine(report.verdict, report.headline));
  if (report.output) {
    const printed = element("pre", "sg-output sg-check-output", report.output);
    if (report.output_dropped) printed.append(`\n… and ${report.output_dropped.toLocaleString("en")} more characters`);
    const details = element("details", "sg-check-printed");
    details.append(element("summary", "", "What your code printed"), printed);
    area.append(details);
  }
  return graphs;
}

/** A verdict without a report (stopped from the page, Python unavailable). */
export function showVerdict(area, verdict, text) {
  area.replaceChildren(verdictLine(verdict, text));
}

function verdictLine(verdict, headline) {
  const line = element("p", `sg-verdict sg-verdict--${verdict}`);
  line.append(element("strong", "", verdict === "pass" ? "Passed" : "Not yet"), ` — ${headline}`);
  return line;
}

function piecesLine(pieces, titles) {
  const line = element("p", "sg-pieces", "Built on: ");
  pieces.forEach((piece, n) => {
    if (n) line.append("; ");
    line.append(element("span", `sg-piece sg-piece--${piece.source}`, titles[piece.exercise] ?? piece.exercise));
    line.append(` — ${PIECE_SOURCE[piece.source] ?? piece.source}${piece.note ? ` (${piece.note})` : ""}`);
  });
  return line;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
