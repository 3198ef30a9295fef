// Export the reader's work as one .py file, and import such a file back.
//
// The file's format has one owner, scratchgrad.exercises (export / parse in workfile.py): this
// module asks Python for it through the runtime's ordinary run(), in a namespace of its own,
// and reads the JSON that Python prints. Importing also runs every imported piece's checks
// (check_all), so the progress comes back with the code.

import { allWork, checkedOnTheCommandLine, exportedCode, saveWork } from "../shared/exercise-work.js";

// The file's name is the module the Playground's engine=yours imports
// (scratchgrad.playground.program.YOUR_MODULE), written into the bundle by hooks/pyodide_runtime.py.
/* global WORK_FILE_NAME */
export const FILE_NAME = WORK_FILE_NAME;
const NAMESPACE = "__scratchgrad_work_file__";

/** The reader's code of every exercise they touched (its latest checked code: exportedCode), as one .py text. */
export async function exportWork(runtime) {
  const pieces = Object.fromEntries(Object.entries(allWork()).map(([id, record]) => [id, exportedCode(record)]));
  return pythonCall(
    runtime,
    `print(json.dumps({"text": exercises.export(json.loads(${pythonString(JSON.stringify(pieces))}))}))`,
  ).then((answer) => answer.text);
}

/**
 * Read an exported file back: every piece's code goes into its exercise (replacing what was
 * there) and is checked, so passed pieces count again; a piece checked on the command line only is
 * kept unchecked (the page's Python cannot check it). Resolves with {imported, passed, apart}.
 */
export async function importWork(runtime, text) {
  const answer = await pythonCall(
    runtime,
    `pieces = exercises.parse(${pythonString(text)})
reports = exercises.check_all(pieces)
print(json.dumps({"pieces": pieces, "passed": [key for key, report in reports.items() if report.passed]}))`,
  );
  const apart = Object.keys(answer.pieces).filter(checkedOnTheCommandLine);
  for (const [id, code] of Object.entries(answer.pieces)) {
    if (apart.includes(id)) {
      saveWork(id, { code, stub: "", checked: false, passed: null, lastChecked: null });
      continue;
    }
    const passed = answer.passed.includes(id) ? code : null;
    saveWork(id, { code, stub: "", checked: true, passed, lastChecked: code });
  }
  return { imported: Object.keys(answer.pieces).length, passed: answer.passed.length, apart: apart.length };
}

/** Offer `text` to the reader as a download named FILE_NAME. */
export function download(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/x-python" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: FILE_NAME });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Run `body` with `json` and `exercises` imported; resolve with the JSON it printed, or throw its error. */
async function pythonCall(runtime, body) {
  let printed = "";
  const code = `import json
import scratchgrad.exercises as exercises
try:
${body.replace(/^/gm, "    ")}
except exercises.WorkFileError as error:
    print(json.dumps({"error": str(error)}))
`;
  const result = await runtime.run(code, {
    namespace: NAMESPACE,
    filename: "<work file>",
    onOutput: (stream, text) => {
      if (stream === "stdout") printed += text;
    },
  });
  if (result.outcome !== "ok") {
    throw new Error(result.message ?? result.traceback?.trimEnd().split("\n").at(-1) ?? result.outcome);
  }
  const answer = JSON.parse(printed);
  if (answer.error) throw new Error(answer.error);
  return answer;
}

/** A JSON string literal is also a Python string literal: the text reaches Python unchanged. */
function pythonString(text) {
  return JSON.stringify(text);
}
