// What keyboard and screen-reader users need from a page that Material and the build leave out.
//
// Scrolling regions: keyboard users scroll a region that holds no link or button only if it can
// take focus. Outputs, drawings, notebook cells and wide formulas scroll sideways when they do not fit
// (on a phone, most do), and so does the build's code standing in for an editor not made yet
// (hooks/helpers/stand_in.py) when a line is too long. Each one that overflows gets tabindex="0", so Tab
// reaches it and the arrow keys scroll it; one that fits gets none, so Tab does not stop at every
// output. Material does the same for its own code blocks (pre > code).
//
// Whether a region overflows is a question about its layout, and asking it lays the region out
// at once. Asked of a chapter's ~60 regions as the page loads, it laid out the whole article
// (content-visibility, in site.css, leaves what is off-screen for later), restyling and laying out
// 5,000 to 6,000 elements a phone would otherwise never have touched until the reader scrolled.
// So a region is asked only when it comes near the screen, when it is laid out anyway, a few at
// a time between the browser's other work (data-sg-checking on the root while some wait; tests
// wait for it to go). Until it has been asked, a region keeps a tab stop: one Tab too many is
// better than a region a keyboard cannot scroll. And the first Tab that finds regions not asked
// yet asks all of them before the focus moves, so a keyboard reader never meets a wrong stop.
// A region asked before is asked again when it changes (a run writes its output), and all of them
// when the window is resized and when the page's fonts have loaded.

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

/** How near the screen a region is asked: a screen above and below it, as the reader scrolls there. */
const NEAR_SCREEN = "100% 0px";

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

/** Give `region` a tab stop when `scrolls` and nothing inside it can take focus; else none. */
function giveTabStop(region, scrolls) {
  const stop = scrolls && !region.querySelector(FOCUSABLE);
  if (stop && !region.hasAttribute("tabindex")) region.setAttribute("tabindex", "0");
  if (!stop && region.getAttribute("tabindex") === "0") region.removeAttribute("tabindex");
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
  const unasked = new Set(); // regions whose tab stop is assumed, not measured
  const nearScreen = new Set(); // regions near the screen now
  const waiting = new Set(); // near the screen and to be asked, in slices
  const observed = new WeakSet();
  const unreported = new Set(); // regions observed, of which the observer has not said yet where they are
  let slice = 0;

  const settled = () => {
    if (!waiting.size && !unreported.size) delete root.dataset.sgChecking;
  };
  const ask = (region) => {
    waiting.delete(region);
    unasked.delete(region);
    if (region.isConnected) giveTabStop(region, overflows(region));
  };
  const askSome = () => {
    slice = 0;
    const until = performance.now() + SLICE_MS;
    for (const region of waiting) {
      ask(region);
      if (performance.now() > until) break;
    }
    if (waiting.size) slice = setTimeout(askSome);
    settled();
  };
  /** `regions` need asking (again): near the screen they are asked soon, the others when shown. */
  const forget = (regions) => {
    for (const region of regions) {
      unasked.add(region);
      if (nearScreen.has(region)) waiting.add(region);
      else giveTabStop(region, true);
    }
    if (waiting.size) {
      root.dataset.sgChecking = "";
      slice ||= setTimeout(askSome);
    }
  };

  const screen = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) {
        unreported.delete(target);
        if (!isIntersecting) nearScreen.delete(target);
        else if (!nearScreen.has(target)) {
          nearScreen.add(target);
          if (unasked.has(target)) forget([target]);
        }
      }
      settled();
    },
    { rootMargin: NEAR_SCREEN },
  );
  /** Regions new to the page: observed, and their tab stop assumed until asked. */
  const watch = (regions) => {
    for (const region of regions) {
      if (observed.has(region)) continue; // observed again, a region would not be reported again
      observed.add(region);
      unreported.add(region);
      screen.observe(region);
    }
    if (unreported.size) root.dataset.sgChecking = "";
    forget(regions);
  };

  const changes = new MutationObserver((records) => {
    for (const { target, addedNodes } of records) {
      const around = target.closest(REGIONS);
      if (around) forget([around]);
      for (const node of addedNodes) {
        watch(matching(node, REGIONS));
        dropLandmarks(matching(node, CODE_TOOLS));
      }
    }
  });
  const forgetAll = () => forget(root.querySelectorAll(REGIONS));
  /** Before Tab moves the focus, every region it could stop on has been asked. */
  const beforeTab = (event) => {
    if (event.key === "Tab") for (const region of unasked) ask(region);
    settled();
  };
  changes.observe(root, { childList: true, subtree: true });
  window.addEventListener("resize", forgetAll);
  document.addEventListener("keydown", beforeTab, true);
  dropLandmarks(root.querySelectorAll(CODE_TOOLS));
  watch(root.querySelectorAll(REGIONS));
  let stopped = false;
  // Text first laid out in a fallback font is wider or narrower once the page's own font arrives.
  document.fonts?.ready.then(() => stopped || forgetAll());
  return () => {
    stopped = true;
    changes.disconnect();
    screen.disconnect();
    window.removeEventListener("resize", forgetAll);
    document.removeEventListener("keydown", beforeTab, true);
    clearTimeout(slice);
    delete root.dataset.sgChecking;
  };
}
