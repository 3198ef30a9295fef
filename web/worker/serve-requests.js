// The answering side of Pyodide's worker pattern, shared by every worker of the site (the page's
// side is ../runtime/worker-client.js).
//
// The page sends {id, type, ...}; the handler named `type` runs and its result comes back as
// {id, type: "done", ...result}, or its error as {id, type: "failed", message, fatal}
// (`fatal`: the error's own flag, for errors that leave the worker unusable).

import { DONE, FAILED } from "../runtime/worker-messages.js";

/** Answer every request this worker receives with `handlers[type](request)`. */
export function serveRequests(handlers) {
  self.onmessage = async ({ data }) => {
    const { id, type } = data;
    try {
      const handler = handlers[type];
      if (!handler) throw new Error(`unknown request type ${JSON.stringify(type)}`);
      self.postMessage({ id, type: DONE, ...(await handler(data)) });
    } catch (error) {
      const message = String(error?.message ?? error);
      self.postMessage({ id, type: FAILED, message, fatal: Boolean(error?.fatal) });
    }
  };
}
