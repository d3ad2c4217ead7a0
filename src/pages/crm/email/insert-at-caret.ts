/**
 * "Insert field" puts a merge field where the person's caret is and gives them the text back
 * with the caret just after it, so they type on ("Hello ", insert, ", your tier is "). One piece
 * for every text that takes merge fields: the email dialog's subject and rich-text message, the
 * SMS dialog, a sequence's steps and an automation's actions.
 *
 * The focus is given back at once, inside the menu's click or Enter: a later frame (the rich-text
 * editor's own `focus()` waits for one) lets the first keys typed fall on the closing menu.
 */
import type { Editor } from "@tiptap/react";
import { flushSync } from "react-dom";

/**
 * `text` with `token` over the selection from `start` to `end` (the caret when they are equal),
 * and the caret just after the token. A selection outside the text is read as its end.
 *
 * @example
 * spliceAtCaret("Hello , bye", "{{client.name}}", 6, 6);
 * // { text: "Hello {{client.name}}, bye", caret: 21 }
 */
export function spliceAtCaret(
  text: string,
  token: string,
  start: number | null | undefined,
  end: number | null | undefined = start,
): { text: string; caret: number } {
  const clamp = (n: number | null | undefined) => Math.max(0, Math.min(n ?? text.length, text.length));
  const from = clamp(start);
  const to = Math.max(from, clamp(end));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

/**
 * Focus back now; and on the next frame, once more if the closing menu took it meanwhile (a
 * menu item focused by the pointer keeps it while the menu fades out).
 */
function giveBack(focus: () => void, hasFocus: () => boolean): void {
  focus();
  requestAnimationFrame(() => {
    if (!hasFocus()) focus();
  });
}

type TextField = HTMLInputElement | HTMLTextAreaElement;

/**
 * Puts `token` at the caret of a text input or area whose value is React state (`value`,
 * `onChange`), then focuses it with the caret after the token. A field that never had the
 * caret takes the token at its end.
 */
export function insertIntoField(
  field: TextField | null | undefined,
  value: string,
  token: string,
  onChange: (value: string) => void,
): void {
  const { text, caret } = spliceAtCaret(value, token, field?.selectionStart, field?.selectionEnd);
  // The field must hold the new text before the caret is placed in it.
  flushSync(() => onChange(text));
  if (!field) return;
  giveBack(
    () => {
      field.focus();
      field.setSelectionRange(caret, caret);
    },
    () => document.activeElement === field,
  );
}

/** Puts `token` at the rich-text editor's caret (it keeps its selection while blurred) and focuses it. */
export function insertIntoEditor(editor: Editor | null | undefined, token: string): void {
  if (!editor || editor.isDestroyed) return;
  editor.view.focus();
  editor.chain().insertContent(token).run();
  giveBack(
    () => editor.view.focus(),
    () => editor.view.hasFocus(),
  );
}
