/**
 * An answer as plain text for the clipboard: its words, then each card as the user reads it —
 * its title, caption and lines of text, its tables as tab-separated rows (TSV, which a
 * spreadsheet pastes into cells). Read from what the panel drew, so every card type copies as it
 * shows, with the figures formatted as on screen; the caller draws every row of a long table
 * first (cards/shared.tsx, AllRows).
 */

/** Controls and what is drawn for the eye only: not part of the answer's text. */
const LEFT_OUT = '[aria-hidden="true"], button:not(.sort-button), input, select, textarea, .chat-card-actions, .chat-msg-actions, .chat-usage, .chat-stopped';

/** Elements whose children are lines of their own. */
const BLOCKS = new Set(['DIV', 'SECTION', 'HEADER', 'FOOTER', 'P', 'H3', 'H4', 'UL', 'OL', 'LI', 'DL', 'TABLE', 'FORM', 'FIELDSET', 'FIGURE']);

/** An element's text on one line, as a cell of a row. */
function flat(el: Element): string {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A table's rows (head, body, foot) as tab-separated lines; the spacer rows of a long table left out. */
function tsv(table: HTMLTableElement): string[] {
  return [...table.rows]
    .map((row) => [...row.cells].map((cell) => flat(cell).replace(/\t/g, ' ')).join('\t'))
    .filter((line) => line.trim() !== '');
}

function linesOf(el: Element, out: string[]): void {
  if (el.tagName === 'TABLE') {
    out.push(...tsv(el as HTMLTableElement));
    return;
  }
  if (el.tagName === 'DL') {
    // A card's facts: each term and what it is, on one line.
    let term = '';
    for (const child of el.children) {
      if (child.tagName === 'DT') term = flat(child);
      else if (child.tagName === 'DD') out.push(term ? `${term}\t${flat(child)}` : flat(child));
    }
    return;
  }
  const blocks = [...el.children].some((child) => BLOCKS.has(child.tagName));
  if (!blocks) {
    const text = flat(el);
    if (text) out.push(text);
    return;
  }
  for (const child of el.children) linesOf(child, out);
}

/** The answer drawn in `message` (a chat message's element) as plain text with TSV tables. */
export function answerText(message: Element): string {
  const copy = message.cloneNode(true) as Element;
  for (const node of copy.querySelectorAll(LEFT_OUT)) node.remove();
  const parts: string[] = [];
  for (const child of copy.children) {
    const lines: string[] = [];
    linesOf(child, lines);
    if (lines.length > 0) parts.push(lines.join('\n'));
  }
  // A blank line between the words and each card.
  return parts.join('\n\n');
}
