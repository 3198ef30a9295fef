// The site kept for offline reading, as the reader sees it: a line in every page's footer
// ("Available offline · 28 MB", with a button to turn it off or on again), and a notice when a
// newer build of the site has been published ("It opens on your next page").
//
// The keeping itself is the service worker's (../isolation/coi-serviceworker.js); this module
// asks it to keep the site once per full page load, after the page has loaded (the download must
// not compete with what the reader came for), and again on each page instant navigation brings
// (which is when a reader who stays on the site for hours meets a newer build). The footer's line
// is an element the build writes into every page (hooks/publish.py), so that filling it in never
// moves the page.

import "./offline-status.css";
import { createElement } from "../shared/elements.js";
import { describeOffline, isNewerThanPage } from "./offline-words.js";

const FOOTER_LINE = "[data-sg-offline]";
const ASK_AFTER_LOAD_MS = 2000;
const NOTICE_WORDS = "A new version of this site is out. It opens on your next page; your work stays as it is.";

/**
 * Start showing the offline state; `showPage` is called again for each page instant navigation
 * brings (its footer is new). Does nothing where there is no service worker to keep the site.
 */
export function showOfflineState() {
  const serviceWorkers = navigator.serviceWorker;
  if (!serviceWorkers || !window.isSecureContext || window.coi?.shouldRegister?.() === false) return null;
  let state = null;
  let noticeShown = false;
  let loaded = false;
  const tell = async (task) => (await serviceWorkers.ready).active?.postMessage({ sgOffline: task });
  // The build this page came from: the list beside the worker, as it answers this page (the
  // network's, or the kept copy's when the page came from there).
  const pageBuild = serviceWorkers.ready.then(({ scope }) => buildOf(new URL("offline.json", scope)));

  async function render() {
    const line = document.querySelector(FOOTER_LINE);
    if (line) renderLine(line, describeOffline(state), tell);
    if (!noticeShown && isNewerThanPage(state, await pageBuild)) {
      noticeShown = true;
      document.documentElement.dataset.sgSiteUpdate = "ready"; // the next link loads in full
      showUpdateNotice();
    }
  }

  serviceWorkers.addEventListener("message", (event) => {
    if (event.data?.sgOffline !== "state") return;
    state = event.data;
    render();
  });
  serviceWorkers.startMessages();
  afterLoad(() => {
    loaded = true;
    tell("keep");
  });
  tell("status");
  return {
    showPage() {
      render();
      if (loaded) tell("keep"); // a page instant navigation brought: is there a newer build?
    },
  };
}

/** The version of the build whose offline.json is at `url`, or null (none: nothing is kept). */
async function buildOf(url) {
  try {
    const response = await fetch(url, { cache: "no-cache" });
    return response.ok ? (await response.json()).version : null;
  } catch {
    return null;
  }
}

function afterLoad(callback) {
  const later = () => setTimeout(callback, ASK_AFTER_LOAD_MS);
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

/** The footer line: its words, and the one button they offer (if any). */
function renderLine(line, { text, action }, tell) {
  const children = [createElement("span", "", {}, text)];
  if (action) {
    const button = createElement("button", "sg-offline__button", { type: "button" }, action.label);
    button.addEventListener("click", () => {
      button.disabled = true;
      tell(action.task);
    });
    children.push(button);
  }
  line.replaceChildren(...children);
}

function showUpdateNotice() {
  const notice = createElement("div", "sg-update", { role: "status" });
  const now = createElement("button", "", { type: "button" }, "Open it now");
  now.addEventListener("click", () => location.reload());
  const close = createElement("button", "", { type: "button" }, "Later");
  close.addEventListener("click", () => notice.remove());
  notice.append(createElement("p", "", {}, NOTICE_WORDS), now, close);
  document.body.append(notice);
}
