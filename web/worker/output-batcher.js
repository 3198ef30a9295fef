// Collects what Python prints and sends it to the page in batches.
//
// Python runs synchronously inside the worker, so no timer can fire while it runs: the
// batcher decides on every write whether enough time has passed to send what it holds.
// The first write of a run goes out at once (print(1) appears without delay); after that
// the page gets at most one message per stream every FLUSH_INTERVAL_MS, which keeps the
// main thread free even when a training loop prints thousands of lines.

export const FLUSH_INTERVAL_MS = 50;
const MAX_PENDING_CHARS = 1 << 16;

export function createOutputBatcher(send, now = () => performance.now()) {
  const decoders = new Map();
  let pending = []; // [stream, text] pairs in the order they were written
  let pendingChars = 0;
  let lastFlush = -Infinity;

  function decoderFor(stream) {
    if (!decoders.has(stream)) decoders.set(stream, new TextDecoder());
    return decoders.get(stream);
  }

  function flush() {
    for (const [stream, text] of pending) send(stream, text);
    pending = [];
    pendingChars = 0;
    lastFlush = now();
  }

  function write(stream, bytes) {
    const text = decoderFor(stream).decode(bytes, { stream: true });
    const last = pending.at(-1);
    if (last && last[0] === stream) last[1] += text;
    else pending.push([stream, text]);
    pendingChars += text.length;
    if (now() - lastFlush >= FLUSH_INTERVAL_MS || pendingChars >= MAX_PENDING_CHARS) flush();
    return bytes.length;
  }

  function startRun() {
    lastFlush = -Infinity;
  }

  return { write, flush, startRun };
}
