// The code editor of a runnable block: CodeMirror 6 with Python support, nothing more.
//
// Tokens get class names (classHighlighter) instead of inline colours, so runner.css can
// paint them with Material's own code-highlighting variables: the editor looks like the
// site's code blocks in light and dark mode without a theme of its own.
//
// Keyboard: Ctrl/Cmd+Enter runs the block; Tab indents, and (CodeMirror's accessible
// convention) Escape then Tab moves focus out of the editor.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, drawSelection, keymap } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

/**
 * Create an editor holding `code` inside `parent`.
 * onRun() is called for Ctrl/Cmd+Enter; onChange(code) after every edit.
 * Returns {view, getCode(), setCode(code), focus()}.
 */
export function createEditor(parent, code, { label, onRun, onChange }) {
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
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ "aria-label": label }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(newCode) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: newCode } });
    },
    focus: () => view.focus(),
  };
}
