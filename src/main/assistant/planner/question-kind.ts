/**
 * How a question is asked, read from its opening words (lexicon/question-kinds.json): "how do I…"
 * asks how the desk does a thing, "what happens if…" what a thing would do. Asked of a change, both
 * are answered by explaining the change (lexicon/how-to.json), never by a read or a proposal.
 */
import { z } from 'zod';
import { REPORT_LINK_TTL_SECONDS, REPORT_TTL_DAYS } from '../../../shared/contracts/reports.js';
import { isWord, matchPhrases, phraseTable, tokensOf } from '../../../shared/parse/phrases.js';
import { fold } from './grammar.js';
import { conceptEntry } from './lexicon.js';
import entries from './lexicon/question-kinds.json' with { type: 'json' };
import answers from './lexicon/how-to.json' with { type: 'json' };

/** `opener`: a word said before the question ("ok,", "bhai"), which asks nothing. */
const entrySchema = conceptEntry(z.enum(['opener', 'how_to', 'hypothetical', 'permission'])).extend({
  /** Where it asks from: the first words (English), or anywhere (Hindi says "kaise karte hain" last). */
  place: z.enum(['start', 'anywhere']).default('start'),
});
export type QuestionKind = 'how_to' | 'hypothetical';

const TABLE = phraseTable(z.array(entrySchema).parse(entries).map((e) => [fold(e.phrase).trim(), { kind: e.concept, anywhere: e.place === 'anywhere' }] as const));

/** Figures an explanation states, from the constants that set them rather than copied into the text. */
const FIGURES: Readonly<Record<string, string>> = { linkMinutes: String(REPORT_LINK_TTL_SECONDS / 60), keptDays: String(REPORT_TTL_DAYS) };

/** The explanation of each change, by its intent id, its `{figure}` places filled. */
const HOW_TO: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(z.record(z.string(), z.string().min(1)).parse(answers))
  .map(([id, text]) => {
    const filled = Object.entries(FIGURES).reduce((t, [name, value]) => t.replaceAll(`{${name}}`, value), text);
    if (filled.includes('{')) throw new Error(`how-to.json: ${id} names a figure that is not known`);
    return [id, filled];
  }));

/** The intent of a change explained: `how_to:settle`. */
export const HOW_TO_INTENT = 'how_to:';

/** How the message asks, when its first words (after any opener) say so, or a phrase that asks from anywhere; else null. */
export function questionKind(folded: string): QuestionKind | null {
  const kind = askedAs(folded, (k) => k === 'how_to' || k === 'hypothetical');
  return kind as QuestionKind | null;
}

/**
 * Whether the message asks what the user may do ("can I edit limits for Arjun's players?", "am I
 * allowed to settle a sub-agent?", "kya main … kar sakta hu"): a question about the desk's rules,
 * which the figures of the thing asked about answer only in part.
 */
export const asksPermission = (folded: string): boolean => askedAs(folded, (k) => k === 'permission') !== null;

function askedAs(folded: string, wanted: (kind: string) => boolean): string | null {
  const matches = matchPhrases(TABLE, tokensOf(folded).filter(isWord));
  let at = 0;
  for (const m of matches) {
    if (m.from !== at) break;
    const asked = m.values.find((v) => v.kind !== 'opener');
    if (asked && wanted(asked.kind)) return asked.kind;
    if (asked) break;
    at = m.to;
  }
  const anywhere = matches.flatMap((m) => m.values).find((v) => v.anywhere && v.kind !== 'opener' && wanted(v.kind));
  return anywhere ? anywhere.kind : null;
}

/** Whether a change of this intent has an explanation. */
export const explains = (intentId: string): boolean => Object.hasOwn(HOW_TO, intentId);

/** The explanation a `how_to:` intent answers with, or null for any other intent. */
export function howToOf(intent: string): string | null {
  if (!intent.startsWith(HOW_TO_INTENT)) return null;
  const id = intent.slice(HOW_TO_INTENT.length);
  return explains(id) ? HOW_TO[id]! : null;
}
