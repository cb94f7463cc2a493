// web/src/features/compose/insert.ts — puts text into a text box at the caret (an emoji, an
// accepted @handle or #topic#), replacing the selection or a given stretch, and leaves the caret
// after it. The box's DOM value is set here, before the page's state takes it, so the render
// that follows finds the same value and leaves the caret where it was put.

/** Inserts `text` over [from, to) of the box (the selection by default); returns the new value. */
export function insertAt(
  box: HTMLTextAreaElement,
  text: string,
  from = box.selectionStart,
  to = box.selectionEnd,
): string {
  const value = box.value.slice(0, from) + text + box.value.slice(to);
  const caret = from + text.length;
  box.value = value;
  box.focus();
  box.setSelectionRange(caret, caret);
  return value;
}
