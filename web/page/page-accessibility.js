// What keyboard and screen-reader users need from a page that Material and the build leave out.
//
// Scrolling regions: keyboard users scroll a region that holds no link or button only if it can
// take focus. Outputs, drawings, notebook cells and wide formulas scroll sideways when they do not fit
// (on a phone, most do). Each one that overflows gets tabindex="0", so Tab reaches it and the
// arrow keys scroll it; one that fits gets none, so Tab does not stop at every output. Material
// does the same for its own code blocks (pre > code). Outputs change with every run and the
// page with every resize: the regions are checked again after either.
//
// Code-block toolbars: Material puts each code block's Copy button in a <nav> of its own, many
// unnamed navigation landmarks on one page that a screen reader lists as identical. They are a
// toolbar of their block, not a way around the site, and say so.

const REGIONS = [
  ".sg-output",
  ".sg-figure",
  ".md-typeset div.arithmatex",
  ".jupyter-wrapper .highlight-ipynb",
  ".jupyter-wrapper .jp-OutputArea-output",
].join(", ");

function overflows(element) {
  return element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
}

function update(root) {
  for (const tools of root.querySelectorAll("nav.md-code__nav:not([role])")) tools.setAttribute("role", "toolbar");
  for (const region of root.querySelectorAll(REGIONS)) {
    const scrolls = overflows(region) && !region.querySelector("a, button, input, select, textarea");
    if (scrolls && !region.hasAttribute("tabindex")) region.setAttribute("tabindex", "0");
    if (!scrolls && region.getAttribute("tabindex") === "0") region.removeAttribute("tabindex");
  }
}

/** Keep `root` so while it is shown (it changes with runs and resizes); returns a function that stops. */
export function keepAccessible(root) {
  let frame = 0;
  const soon = () => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      update(root);
    });
  };
  const changes = new MutationObserver(soon);
  changes.observe(root, { childList: true, subtree: true });
  addEventListener("resize", soon);
  update(root);
  return () => {
    changes.disconnect();
    removeEventListener("resize", soon);
    cancelAnimationFrame(frame);
  };
}
