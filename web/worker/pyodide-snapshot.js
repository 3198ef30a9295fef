// Booting Pyodide from a memory snapshot that this browser saved on an earlier visit.
//
// A plain boot runs CPython's whole start-up inside WebAssembly: ~190 modules imported, ~1.1 s
// of CPU on every full page load, whatever the cache holds. That state is nothing but the
// WebAssembly memory (~31 MB), so the first boot in a browser copies it right after start-up,
// before any package or reader's code is loaded, and keeps it in Cache Storage. Every later
// load restores it instead (~0.3 s), then installs the package as a plain boot does.
//
// Pyodide's snapshot options are experimental (`_makeSnapshot`, `_loadSnapshot`), so each
// snapshot belongs to one Pyodide build and one lock file (its key names both), and anything
// that goes wrong with one — no Cache Storage, a restore that throws — ends in a plain boot.
// A restore also brings back what CPython drew at start-up: the hash secret of str and the seed
// of `random` are the same on every load in this browser. No output depends on them: a page's
// namespace seeds `random` itself (scratchgrad/page/blocks.py) and every playground setting has its seed.

const CACHE_NAME = "scratchgrad-pyodide-snapshot";

/**
 * The snapshot kept for this Pyodide and lock file: {load, save, forget}, or null where the
 * browser offers no Cache Storage (a page not served over https or from localhost).
 * load() resolves with the snapshot's bytes (an ArrayBuffer) or null; save(bytes) replaces
 * whatever snapshot was kept before; forget() drops this one.
 */
export async function snapshotStore({ version, indexURL, lockFileURL }) {
  if (typeof caches === "undefined") return null;
  let cache;
  try {
    cache = await caches.open(CACHE_NAME);
  } catch {
    return null; // storage switched off, e.g. in some private windows
  }
  const key = snapshotKey({ version, indexURL, lockFileURL });
  return {
    load: async () => (await cache.match(key))?.arrayBuffer() ?? null,
    save: async (bytes) => {
      for (const request of await cache.keys()) await cache.delete(request);
      await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    },
    forget: () => cache.delete(key),
  };
}

/** The cache key: an address that changes with anything a booted Pyodide depends on. */
function snapshotKey({ version, indexURL, lockFileURL }) {
  const key = new URL("booted-pyodide.snapshot", lockFileURL);
  key.search = new URLSearchParams({ pyodide: version, indexURL, lockFileURL }).toString();
  return key.href;
}
