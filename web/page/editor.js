// The code editor of a runnable block: CodeMirror 6 with Python support, nothing more.
//
// Tokens get class names (classHighlighter) instead of inline colours, so runner.css can
// paint them with Material's own code-highlighting variables: the editor looks like the
// site's code blocks in light and dark mode without a theme of its own.
//
// Keyboard, the pattern CodeMirror documents for Tab (codemirror.net/examples/tab): an editor
// must never trap focus. A reader who arrives with Tab passes through with Tab (tab-focus mode,
// until they press another key); once they type or click in it, Tab indents, and Escape then
// Tab (or Ctrl+M, which toggles the mode) moves on. The editor's accessible description says
// so. Ctrl/Cmd+Enter runs the block.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, drawSelection, keymap } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

const KEYBOARD_HELP =
  "Ctrl+Enter runs the code. Tab moves on until you type in the editor; after that Tab indents: " +
  "press Escape then Tab to leave the editor, or Ctrl+M to switch Tab between indenting and moving on.";
const DESCRIPTION_ID = "sg-editor-keyboard-help";
/** Where Material's layout turns to phone width: there long lines wrap instead of running off. */
const NARROW = "(max-width: 44.984375em)";
/** How long Tab keeps moving focus when it arrived by keyboard: until another key, in practice. */
const PASS_THROUGH_MS = 24 * 60 * 60 * 1000;

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

/** Tab moves focus when it brought the reader in; a click means the reader came to edit. */
function noKeyboardTrap() {
  let pointing = false;
  return EditorView.domEventHandlers({
    pointerdown(_event, view) {
      pointing = true;
      view.setTabFocusMode(0); // ends a pass-through, keeps a mode the reader set with Ctrl+M
    },
    focus(_event, view) {
      if (!pointing) view.setTabFocusMode(PASS_THROUGH_MS);
      pointing = false;
    },
  });
}

/** Wrap long lines while the screen is narrow (lines cut off at the edge hide code on a phone). */
function wrapWhenNarrow(view, wrapping) {
  const narrow = matchMedia(NARROW);
  const follow = () => {
    if (!view.dom.isConnected) return narrow.removeEventListener("change", follow); // the page is gone
    view.dispatch({ effects: wrapping.reconfigure(narrow.matches ? EditorView.lineWrapping : []) });
  };
  narrow.addEventListener("change", follow);
  return narrow.matches ? EditorView.lineWrapping : [];
}

/**
 * An editor made the first time the reader needs it, with createEditor()'s interface from the
 * start. Until then `source`, the build's highlighted copy of the same code, stands in for it:
 * Tab stops on it and a click lands on it as on the editor, which then takes over at once (made,
 * focused, the cursor where the click was: the next key goes into it, nothing typed is lost).
 * Scrolling makes it too, a screen ahead. CodeMirror lays out every editor it makes: the 15 of a
 * chapter, made as it loaded, were one task of 3.4 s on Lighthouse's simulated phone; now a page
 * makes the editors of its first screens only. `shows` is the code `source` shows: when `code` (the
 * reader's saved edit) differs, the editor is made at once. `host` (empty, after `source`)
 * receives the editor.
 */
export function createEditorWhenNeeded({ source, shows }, host, code, options) {
  let editor = null;
  const make = () => {
    if (editor) return editor;
    nearScreen.disconnect();
    source.removeEventListener("focus", madeByKeyboard);
    source.removeEventListener("mousedown", madeByPointer);
    editor = createEditor(host, code, options);
    for (const name of Object.keys(standIn)) source.removeAttribute(name);
    source.hidden = true;
    host.hidden = false;
    return editor;
  };
  const madeByKeyboard = () => make().focus();
  const madeByPointer = (event) => {
    event.preventDefault(); // the focus goes to the editor, not to the element the click hid
    make().focusAt(event.clientX, event.clientY);
  };
  host.hidden = true;
  const standIn = { tabindex: "0", role: "textbox", "aria-multiline": "true", "aria-label": options.label };
  standIn["aria-describedby"] = keyboardHelp(source.ownerDocument);
  for (const [name, value] of Object.entries(standIn)) source.setAttribute(name, value);
  source.addEventListener("focus", madeByKeyboard);
  source.addEventListener("mousedown", madeByPointer);
  const nearScreen = new IntersectionObserver((entries) => entries.some((each) => each.isIntersecting) && make(), {
    rootMargin: "100% 0px",
  });
  nearScreen.observe(source);
  if (code !== shows) make();
  return {
    getCode: () => (editor ? editor.getCode() : code),
    setCode: (newCode) => make().setCode(newCode),
    focus: () => make().focus(),
    markLines: (numbers) => make().markLines(numbers),
  };
}

/**
 * Create an editor holding `code` inside `parent`.
 * onRun() is called for Ctrl/Cmd+Enter; onChange(code) after every edit.
 * Returns {view, getCode(), setCode(code), focus(), focusAt(x, y), markLines(numbers)}: markLines highlights
 * lines (counted from 1; none for []), as the backward stepper does for the line that ran.
 */
function createEditor(parent, code, { label, onRun, onChange }) {
  const wrapping = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: code,
      extensions: [
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        python(),
        syntaxHighlighting(classHighlighter),
        keymap.of([
          { key: "Mod-Enter", run: () => (onRun(), true) },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        noKeyboardTrap(),
        markedLines,
        wrapping.of([]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
        belowTheHeader,
        EditorView.contentAttributes.of({
          "aria-label": label,
          tabindex: "0", // focusable already (contenteditable); said outright, checkers see it too
          "aria-describedby": keyboardHelp(parent.ownerDocument),
        }),
      ],
    }),
  });
  view.dispatch({ effects: wrapping.reconfigure(wrapWhenNarrow(view, wrapping)) });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(newCode) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: newCode } });
    },
    focus: () => view.focus(),
    /** Focus with the cursor at the point (x, y) of the screen: where a reader clicked. */
    focusAt(x, y) {
      view.focus();
      view.setTabFocusMode(0); // a click: the reader came to edit, Tab indents
      const at = view.posAtCoords({ x, y });
      if (at !== null) view.dispatch({ selection: { anchor: at } });
    },
    markLines(numbers) {
      const lines = numbers.filter((n) => n >= 1 && n <= view.state.doc.lines);
      view.dispatch({ effects: setMarkedLines.of(lines) });
      if (lines.length) {
        const { from } = view.state.doc.line(lines[0]);
        view.dispatch({ effects: EditorView.scrollIntoView(from, { y: "nearest" }) });
      }
    },
  };
}

// Material's header is fixed over the page: a line the editor brings into view (a marked line,
// the cursor) stops below it rather than under it (the stylesheet does the same for the page's own
// scrolling: site.css, scroll-margin-top).
const belowTheHeader = EditorView.scrollMargins.of((view) => {
  const header = view.dom.ownerDocument.querySelector(".md-header");
  return { top: header ? header.getBoundingClientRect().bottom + 8 : 0 };
});

const setMarkedLines = StateEffect.define();
const markedLine = Decoration.line({ class: "sg-editor-line--marked" });
/** The lines markLines() highlights: a set of line decorations, replaced as a whole. */
const markedLines = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    for (const effect of transaction.effects) {
      if (effect.is(setMarkedLines)) {
        const starts = [...new Set(effect.value)].sort((a, b) => a - b);
        return Decoration.set(starts.map((n) => markedLine.range(transaction.state.doc.line(n).from)));
      }
    }
    return transaction.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});
