// Inlined where Material's bundle was, at the end of <body> (hooks/pyodide_runtime.py): Material's
// bundle runs after the page's first frame, not before it.
//
// As a plain script at the end of <body>, the bundle ran as soon as the parser reached it, and
// when the chapter's HTML arrived in pieces the bundle was already there: its 80-250 ms (mounting
// the header, search, palette and code blocks, each forcing style and layout) came before the
// reader saw anything, and Lighthouse's first and largest paint on a phone swung between 1.5 s and
// 4.4 s with that race. Asked for one frame later, it always comes after the first paint.
//
// Material mounts the page when it sees DOMContentLoaded. Loaded after that event, it is sent one
// of its own; loaded before it (a quick parse), it sees the real one. Either way MATERIAL_STARTED
// is sent once the bundle has run, for the runner, which subscribes to Material's document$ then.
//
// The script element carries the bundle's address, relative to the page, in data-material.

import { MATERIAL_STARTED } from "./material-started.js";

const bundle = document.currentScript.dataset.material;

requestAnimationFrame(() =>
  setTimeout(() => {
    const script = document.createElement("script");
    script.src = bundle;
    // Mounting in a task of its own: the bundle's evaluation and the mount are two shorter tasks.
    script.onload = () =>
      setTimeout(() => {
        if (document.readyState !== "loading") document.dispatchEvent(new Event("DOMContentLoaded"));
        document.dispatchEvent(new Event(MATERIAL_STARTED));
      });
    document.body.append(script);
  }),
);
