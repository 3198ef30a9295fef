// Does a block's code define a name? A reading of the source text, good enough for a hint.
//
// When a block fails with `NameError: name 'Value' is not defined`, the page looks for a block
// above that binds `Value` and offers to run from the top. Python's own parser is in the
// worker, busy with the reader's code; the bindings a tutorial block makes are few and plain
// (def, class, import, assignment, for, with … as), and a wrong guess costs only a hint.

const IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]*";

/** True when some line of `code` binds `name` at the start of a statement or in an import. */
export function definesName(code, name) {
  if (!new RegExp(`^${IDENTIFIER}$`).test(name)) return false;
  const n = name;
  const patterns = [
    `^\\s*(?:async\\s+)?(?:def|class)\\s+${n}\\b`, // def n(...), class n:
    `^\\s*(?:${IDENTIFIER}\\s*,\\s*)*${n}\\s*(?:,\\s*${IDENTIFIER}\\s*)*(?::[^=\\n]*)?=(?!=)`, // n = …, a, n = …
    `^\\s*(?:for|with)\\b[^\\n]*\\b(?:as\\s+)?${n}\\b[^\\n]*:`, // for n in …:, with … as n:
    `^\\s*import\\s+[^\\n]*\\b${n}\\b`, // import n, import x as n
    `^\\s*from\\s+\\S+\\s+import\\s+[^\\n]*\\b${n}\\b`, // from m import n
  ];
  return patterns.some((pattern) => new RegExp(pattern, "m").test(code));
}
