// ESLint for the site's JavaScript (`make lint`): web/ (page and workers, bundled by esbuild),
// hooks/helpers/*.js (Node scripts the build runs) and tests/web/ (Node's test runner).
// Formatting is Prettier's (.prettierrc.json); these rules catch mistakes, not style.

import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["web/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["hooks/helpers/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
  {
    files: ["tests/web/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
];
