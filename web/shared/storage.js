// What the site keeps for the reader in the browser (localStorage), with the one rule every keeper
// follows: when the browser keeps nothing (a sandboxed frame, private mode, a full quota) or a key
// holds what this site did not write, the reader gets the default, never an error. Reads give the
// kept value or `fallback`; writes and removals say whether the browser did it.

/** The text kept under `key`, or `fallback` when there is none or no storage. */
export function readText(key, fallback = null) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
}

/** The value kept as JSON under `key`, or `fallback` when there is none, it is not JSON, or no storage. */
export function readJSON(key, fallback = null) {
  const text = readText(key);
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback; // not written by this site
  }
}

/** Keep the text `value` under `key`; false when the browser would not (no storage, a full quota). */
export function writeText(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Keep `value` as JSON under `key`; false when the browser would not. */
export function writeJSON(key, value) {
  return writeText(key, JSON.stringify(value));
}

/** Forget what is kept under `key`; false when there is no storage to forget it from. */
export function remove(key) {
  try {
    localStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

/** The keys kept that start with `prefix`, in the browser's order; none when there is no storage. */
export function keysStartingWith(prefix) {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
  } catch {
    // no storage: nothing kept
  }
  return keys;
}
