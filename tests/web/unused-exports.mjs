// Every export of web/ is imported somewhere: `make lint` runs this file, and fails on an export
// that nothing imports (dead code, or a constant that should not be public).
//
// ESLint checks one file at a time and cannot see this. The imports of web/ and tests/web/ are
// plain enough to read as text: `import { a, b as c } from "./x.js"` and `import("./x.js")`, whose
// module's names count as used when its importer names them at all.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const EXPORTED = /^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)/gm;
const STATIC_IMPORT = /import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g;
const DYNAMIC_IMPORT = /import\(\s*"([^"]+)"\s*\)/g;

/**
 * The exports that no other file imports, as "file: name", from `files` ({path: source text},
 * paths relative to one root, "/"-separated).
 */
export function unusedExports(files) {
  const used = new Set(); // "file\0name"
  for (const [importer, text] of Object.entries(files)) {
    const target = (specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
    for (const [, names, specifier] of text.matchAll(STATIC_IMPORT)) {
      for (const name of names.split(",")) {
        const imported = name.trim().split(/\s+as\s+/)[0];
        if (imported) used.add(`${target(specifier)}\0${imported}`);
      }
    }
    for (const [, specifier] of text.matchAll(DYNAMIC_IMPORT)) {
      const module = target(specifier);
      for (const [, name] of (files[module] ?? "").matchAll(EXPORTED)) {
        if (new RegExp(`\\b${name.replace("$", "\\$")}\\b`).test(text)) used.add(`${module}\0${name}`);
      }
    }
  }
  const unused = [];
  for (const [file, text] of Object.entries(files)) {
    for (const [, name] of text.matchAll(EXPORTED)) {
      if (!used.has(`${file}\0${name}`)) unused.push(`${file}: ${name}`);
    }
  }
  return unused.sort();
}

/** The .js and .mjs files under `folders` of `root`, as {relative path: text}. */
function readSources(root, folders) {
  const files = {};
  for (const folder of folders) {
    for (const entry of readdirSync(path.join(root, folder), { recursive: true })) {
      if (/\.m?js$/.test(entry))
        files[path.posix.join(folder, entry.split(path.sep).join("/"))] = readFileSync(
          path.join(root, folder, entry),
          "utf8",
        );
    }
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const files = readSources(root, ["web", "tests/web"]);
  const unused = unusedExports(files).filter((entry) => entry.startsWith("web/"));
  if (unused.length) {
    console.error(`Exported but never imported (drop the export, or the code):\n  ${unused.join("\n  ")}`);
    process.exit(1);
  }
}
