// Keeps what the reader typed in a block, per page and block, in localStorage.
//
// Each record holds the edited code and the original it was made from: if the page's
// block changes in a new version of the site, the reader's code still comes back (nothing
// typed is lost) and the block can say that the original changed. Spaces at the end of a
// line or of the code mean nothing to Python or to the reader: code that differs from the
// original only there is not an edit, and is neither kept nor marked "edited".

import { readJSON, remove, writeJSON } from "../shared/storage.js";

const PREFIX = "scratchgrad:edit:";

function keyFor(page, block) {
  return `${PREFIX}${page}#${block}`;
}

/** The code without what nobody means: spaces at line ends, blank lines at the end. */
function meaningful(code) {
  return code.replace(/[ \t]+$/gm, "").replace(/\n+$/, "");
}

/** True when `code` says what `original` says (it differs at most in trailing whitespace). */
export function isUnedited(code, original) {
  return meaningful(code) === meaningful(original);
}

/** The reader's saved edit of this block: {code, original} or null. */
export function loadEdit(page, block) {
  const record = readJSON(keyFor(page, block));
  return typeof record?.code === "string" && typeof record?.original === "string" ? record : null;
}

/**
 * Remember `code`; forget the record when it says what the original says again. False when the
 * browser keeps nothing (private mode, a full quota): the edit lives only until the page closes.
 */
export function saveEdit(page, block, code, original) {
  if (isUnedited(code, original)) return remove(keyFor(page, block));
  return writeJSON(keyFor(page, block), { code, original });
}
