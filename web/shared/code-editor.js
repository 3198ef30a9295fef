// The code editor of a runnable block: CodeMirror 6 with Python support, nothing more. A page
// loads this module (and CodeMirror with it) the first time a reader needs an editor
// (web/shared/editor.js); until then the build's code stands in.
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

import {
  defaultKeymap,
  deleteCharBackward,
  history,
  historyKeymap,
  indentWithTab,
  insertNewlineAndIndent,
} from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, drawSelection, keymap } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

/** Where Material's layout turns to phone width: there long lines wrap instead of running off. */
const NARROW = "(max-width: 44.984375em)";
/** How long Tab keeps moving focus when it arrived by keyboard: until another key, in practice. */
const PASS_THROUGH_MS = 24 * 60 * 60 * 1000;

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
 * Create an editor holding `code` inside `parent`, labelled `label` and described by the element
 * whose id is `describedBy`. onRun() is called for Ctrl/Cmd+Enter; onChange(code) after every edit.
 * Returns {view, getCode(), setCode(code), focus(), focusAt(x, y), type(keys), markLines(numbers)}:
 * type() replays keys pressed before the editor existed (web/shared/editor.js: a character, "Enter"
 * or "Backspace", as typing them would); markLines highlights lines (counted from 1; none for []),
 * as the backward stepper does for the line that ran.
 */
export function createEditor(parent, code, { label, describedBy, onRun, onChange }) {
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
          "aria-describedby": describedBy,
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
    type(keys) {
      view.setTabFocusMode(0); // the reader typed: they came to edit, Tab indents
      for (const key of keys) {
        if (key === "Enter") insertNewlineAndIndent(view);
        else if (key === "Backspace") deleteCharBackward(view);
        else view.dispatch(view.state.replaceSelection(key), { userEvent: "input.type", scrollIntoView: true });
      }
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
