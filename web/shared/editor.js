// A block's editor, made the first time the reader needs it. Until then the build's highlighted
// code (hooks/helpers/stand_in.py) stands in for it, and the page has not loaded CodeMirror at all: its
// module (code-editor.js, a third of a chapter's script) is fetched and run on first use.
// CodeMirror also lays out every editor it makes: the 15 of a chapter, made as it loaded, were one
// task of 3.4 s on Lighthouse's simulated phone.

const KEYBOARD_HELP =
  "Ctrl+Enter runs the code. Tab moves on until you type in the editor; after that Tab indents: " +
  "press Escape then Tab to leave the editor, or Ctrl+M to switch Tab between indenting and moving on.";
const DESCRIPTION_ID = "sg-editor-keyboard-help";

/** The one hidden element of the page that describes every editor's keys (aria-describedby). */
function keyboardHelp(document) {
  let help = document.getElementById(DESCRIPTION_ID);
  if (!help) {
    help = document.createElement("p");
    help.id = DESCRIPTION_ID;
    help.hidden = true; // aria-describedby reads hidden text; it needs no place on the screen
    help.textContent = KEYBOARD_HELP;
    (document.querySelector(".md-content") ?? document.body).append(help);
  }
  return help.id;
}

let codeEditor = null;
/**
 * CodeMirror and the editor built on it, fetched once per page, the first time one is needed. A
 * failed fetch (the network gone before the site was kept offline) is tried again on the next use.
 */
function loadCodeEditor() {
  codeEditor ??= import("./code-editor.js").catch((error) => {
    codeEditor = null;
    throw error;
  });
  return codeEditor;
}

/** Whether a key pressed on a stand-in is one the editor will type: text, a new line, a deletion. */
function typed(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return event.key.length === 1 || event.key === "Enter" || event.key === "Backspace";
}

/**
 * An editor made the first time the reader needs it, with createEditor()'s interface from the
 * start (code-editor.js). Until then `source`, the build's highlighted copy of the same code,
 * stands in for it: Tab stops on it and a press lands on it as on the editor, which is then made
 * and takes over (focused, the cursor where the press was). Keys typed while CodeMirror loads are
 * kept and typed into the editor once it is there, and Ctrl/Cmd+Enter runs the code then: nothing
 * typed is lost. Pointing at the code starts loading CodeMirror, ahead of the press. `shows` is the
 * code `source` shows: when `code` (the reader's saved edit) differs, the editor is made at once.
 * `host` (empty, after `source`) receives the editor.
 */
export function createEditorWhenNeeded({ source, shows }, host, code, options) {
  const describedBy = keyboardHelp(source.ownerDocument);
  let editor = null;
  let making = null;
  let wanted = null; // the code setCode() asked for, until the editor holds it
  let pressedAt = null; // where a press on the stand-in landed
  const keys = []; // typed on the stand-in while the editor was being made
  let runWhenMade = false;

  const takeOver = () => {
    const focused = source.ownerDocument.activeElement === source;
    for (const name of Object.keys(standIn)) source.removeAttribute(name);
    source.removeEventListener("focus", make);
    source.removeEventListener("mousedown", pressed);
    source.removeEventListener("keydown", keyDown);
    source.hidden = true;
    host.hidden = false;
    if (pressedAt && focused) editor.focusAt(pressedAt.clientX, pressedAt.clientY);
    else if (focused) editor.focus();
    if (keys.length) editor.type(keys.splice(0));
    if (runWhenMade) options.onRun();
  };
  const make = () =>
    (making ??= loadCodeEditor().then(
      ({ createEditor }) => {
        editor = createEditor(host, code, { ...options, describedBy });
        takeOver();
        return editor;
      },
      (error) => {
        making = null; // the next use tries again; the stand-in stays, and so do the keys typed
        throw error;
      },
    ));
  const pressed = (event) => {
    event.preventDefault(); // the press's own focusing would come after the editor took over
    pressedAt = { clientX: event.clientX, clientY: event.clientY };
    source.focus({ preventScroll: true }); // keys typed while CodeMirror loads come here
    make(); // also where focusing sends no focus event (a window without focus)
  };
  const keyDown = (event) => {
    const run = event.key === "Enter" && (event.ctrlKey || event.metaKey);
    if (!run && !typed(event)) return; // Tab moves on; other keys mean nothing to the stand-in
    event.preventDefault(); // a space would scroll the page
    if (run) runWhenMade = true;
    else keys.push(event.key);
    make();
  };

  host.hidden = true;
  const standIn = {
    tabindex: "0",
    role: "textbox",
    "aria-multiline": "true",
    "aria-label": options.label,
    "aria-describedby": describedBy,
  };
  for (const [name, value] of Object.entries(standIn)) source.setAttribute(name, value);
  source.addEventListener("focus", make);
  source.addEventListener("mousedown", pressed);
  source.addEventListener("keydown", keyDown);
  source.addEventListener("pointerenter", () => loadCodeEditor().catch(() => {}), { once: true }); // ahead of a press
  if (code !== shows) make();
  return {
    getCode: () => (editor ? editor.getCode() : (wanted ?? code)),
    setCode(newCode) {
      wanted = newCode;
      make().then((made) => made.setCode(newCode)); // an edit, as typed: onChange saves it
    },
    focus: () => make().then((made) => made.focus()),
    markLines: (numbers) => make().then((made) => made.markLines(numbers)),
  };
}
