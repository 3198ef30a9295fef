// The search worker Material's page script creates on this site (hooks/pyodide_runtime.py points
// Material's configuration here): Material's own worker, loaded once the page lets search start
// (held-search.js). Bundled as a classic script: Material creates it with `new Worker(url)`.
//
// Its address carries Material's worker, relative to this file: search-worker.js?material=….

import { holdSearch } from "./held-search.js";
import { SEARCH_CHANNEL } from "./search-channel.js";

const material = new URL(new URLSearchParams(self.location.search).get("material"), self.location.href);

/** Material's worker, into this one. */
function loadMaterial() {
  try {
    importScripts(material.href);
  } catch {
    // Leaving the page while Material's worker loads aborts the import (Firefox throws
    // NS_BINDING_ABORTED, uncaught it shows as the page's error): nothing failed, and this
    // worker ends with its page. A download that does fail shows in the browser's network
    // panel, as Material's worker would on its own, and the search box keeps saying
    // "Initializing search".
  }
}

holdSearch({ scope: self, channel: new BroadcastChannel(SEARCH_CHANNEL), loadMaterial });
