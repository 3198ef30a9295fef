// What keyboard and screen-reader users need from a page that Material and the build leave out.
//
// Scrolling regions: keyboard users scroll a region that holds no link or button only if it can
// take focus. Outputs, drawings, notebook cells and wide formulas scroll sideways when they do not fit
// (on a phone, most do), and so does the build's code standing in for an editor not made yet
// (hooks/stand_in.py) when a line is too long. Each one that overflows gets tabindex="0", so Tab
// reaches it and the arrow keys scroll it; one that fits gets none, so Tab does not stop at every output. Material
// does the same for its own code blocks (pre > code). A region is checked again when it changes
// (a run writes its output), and all of them when the window is resized and when the page's
// fonts have loaded.
//
// Whether a region overflows is a question about its layout, and asking it lays the region out
// at once. Asked of a chapter's ~60 regions in one go, it was the longest task of the page's
// loading (about 0.4 s on a CPU slowed 4× as Lighthouse slows it), and it defeated
// `content-visibility`, which leaves the layout of what is off-screen for later (site.css).
// So regions are checked a few at a time, each slice a few milliseconds long, between the
// browser's other work: every region is checked within moments of the page showing, without one
// long task. While some wait, the root carries data-sg-checking (tests wait for it to go).
//
// Code-block buttons: Material puts each code block's Copy button in a <nav> of its own, many
// unnamed navigation landmarks on one page that a screen reader lists as identical. They belong
// to their block, not a way around the site: the <nav> loses its landmark (role="none", one of the
// few roles a <nav> may take; "toolbar", used before, is not one, and Lighthouse counted it), and
// the button stays where it is.

const REGIONS = [
  ".sg-stand-in > code",
  ".sg-output",
  ".sg-figure",
  ".md-typeset div.arithmatex",
  ".jupyter-wrapper .highlight-ipynb",
  ".jupyter-wrapper .jp-OutputArea-output",
].join(", ");

const CODE_TOOLS = "nav.md-code__nav:not([role])";

/** How long one slice of checks may take: well under the 50 ms that make a task "long". */
const SLICE_MS = 5;

const SCROLLS = new Set(["auto", "scroll"]);

/** Whether the reader can scroll `element` (its content overflows where its style lets it scroll). */
function overflows(element) {
  const { overflowX, overflowY } = window.getComputedStyle(element);
  return (
    (SCROLLS.has(overflowX) && element.scrollWidth > element.clientWidth + 1) ||
    (SCROLLS.has(overflowY) && element.scrollHeight > element.clientHeight + 1)
  );
}

/** What a keyboard reader can stop on inside a region, and so scroll it by. */
const FOCUSABLE = "a, button, input, select, textarea";

/** Give `region` a tab stop if it scrolls and nothing inside it can take focus; else none. */
function check(region) {
  const scrolls = overflows(region) && !region.querySelector(FOCUSABLE);
  if (scrolls && !region.hasAttribute("tabindex")) region.setAttribute("tabindex", "0");
  if (!scrolls && region.getAttribute("tabindex") === "0") region.removeAttribute("tabindex");
}

/** Take the navigation landmark away from Material's code-block <nav>s in `navs`. */
function dropLandmarks(navs) {
  for (const nav of navs) nav.setAttribute("role", "none");
}

/** `node` and the elements under it that match `selector`. */
function matching(node, selector) {
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  return [...(node.matches(selector) ? [node] : []), ...node.querySelectorAll(selector)];
}

/** Keep `root` so while it is shown (it changes with runs and resizes); returns a function that stops. */
export function keepAccessible(root) {
  const waiting = new Set();
  let slice = 0;

  const checkSome = () => {
    slice = 0;
    const until = performance.now() + SLICE_MS;
    for (const region of waiting) {
      waiting.delete(region);
      if (region.isConnected) check(region);
      if (performance.now() > until) break;
    }
    if (waiting.size) slice = setTimeout(checkSome);
    else delete root.dataset.sgChecking;
  };
  const queue = (regions) => {
    for (const region of regions) waiting.add(region);
    if (!waiting.size) return;
    root.dataset.sgChecking = "";
    slice ||= setTimeout(checkSome);
  };

  const changes = new MutationObserver((records) => {
    for (const { target, addedNodes } of records) {
      const around = target.closest(REGIONS);
      if (around) queue([around]);
      for (const node of addedNodes) {
        queue(matching(node, REGIONS));
        dropLandmarks(matching(node, CODE_TOOLS));
      }
    }
  });
  const checkAll = () => queue(root.querySelectorAll(REGIONS));
  changes.observe(root, { childList: true, subtree: true });
  window.addEventListener("resize", checkAll);
  dropLandmarks(root.querySelectorAll(CODE_TOOLS));
  checkAll();
  let stopped = false;
  // Text first laid out in a fallback font is wider or narrower once the page's own font arrives.
  document.fonts?.ready.then(() => stopped || checkAll());
  return () => {
    stopped = true;
    changes.disconnect();
    window.removeEventListener("resize", checkAll);
    clearTimeout(slice);
    delete root.dataset.sgChecking;
  };
}
