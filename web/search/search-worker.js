// The search worker Material's page script creates on this site (hooks/pyodide_runtime.py points
// Material's configuration here): Material's own worker, loaded once the page lets search start
// (held-search.js). Bundled as a classic script: Material creates it with `new Worker(url)`.
//
// Its address carries Material's worker, relative to this file: search-worker.js?material=….

import { holdSearch } from "./held-search.js";
import { SEARCH_CHANNEL } from "./search-channel.js";

const material = new URL(new URLSearchParams(self.location.search).get("material"), self.location.href);

holdSearch({
  scope: self,
  channel: new BroadcastChannel(SEARCH_CHANNEL),
  loadMaterial: () => importScripts(material.href),
});
