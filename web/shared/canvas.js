// What both views need from a canvas: a sharp backing store at any size, and the theme's colours.

/** Size the canvas's pixels to its CSS box × devicePixelRatio; returns the context, scaled to CSS px. */
export function fitCanvas(canvas) {
  const ratio = globalThis.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width: canvas.clientWidth, height: canvas.clientHeight };
}

let probe = null;
const read = new Map(); // colour → rgba(colour): a theme has a handful, and every draw asks for them

/**
 * A CSS colour (any syntax, e.g. a Material variable's value) as [r, g, b, a] with r, g, b in 0…255.
 * Each colour is read off a 1-pixel canvas once (the same text is the same colour); the views
 * ask again at every draw, dozens of times a second while training.
 */
export function rgba(color) {
  if (!read.has(color)) {
    probe ??= new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = "#000";
    probe.fillStyle = color;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    read.set(color, Object.freeze([r, g, b, a / 255]));
  }
  return read.get(color);
}

/** The colours the views draw with, read from CSS custom properties so light and dark themes apply. */
export function themeColors(element) {
  const style = getComputedStyle(element);
  const read = (name) => style.getPropertyValue(name).trim();
  return {
    classes: [0, 1, 2].map((k) => read(`--sg-pg-class-${k}`)),
    background: read("--md-default-bg-color") || "#fff",
    foreground: read("--md-default-fg-color") || "#000",
    light: read("--md-default-fg-color--light") || "#666",
    lightest: read("--md-default-fg-color--lightest") || "#ddd",
    loss: read("--sg-pg-loss"),
    accuracy: read("--sg-pg-accuracy"),
  };
}
