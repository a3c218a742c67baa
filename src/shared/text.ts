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
