/**
 * One normal form for names, used both when a name is stored and when it is searched:
 * accents stripped, case folded, apostrophes dropped ("O'Brien" → "obrien"), every other
 * run of punctuation or space collapsed to one space.
 */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The text as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A phrase's words found again in text as typed, whatever stands between them (spaces,
 * punctuation, a capital): "is hafte" in "Is  hafte", "rahul" in "Rahul's".
 */
export function phraseAsTyped(phrase: string): RegExp {
  return new RegExp(phrase.split(/\s+/).filter(Boolean).map(escapeRegExp).join('[\\s\\W]+'), 'i');
}

/**
 * Text from outside (a name, a query) on one line of at most `max` characters: control, zero-width
 * and direction characters become spaces, so it cannot break or reorder the sentence around it.
 */
export function oneLine(text: string, max = 80): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Lower-cased, accents folded: "Zoë" is found by "zoe". */
function foldCase(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A page table's name search (and an export of that table): a test of names against what was
 * typed, each word in one of them. Null: nothing typed.
 */
export function nameMatcher(query: string): ((...names: ReadonlyArray<string | null | undefined>) => boolean) | null {
  const words = foldCase(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return (...names) => {
    const text = foldCase(names.filter(Boolean).join(' '));
    return words.every((w) => text.includes(w));
  };
}
