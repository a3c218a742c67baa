/**
 * Every word the planner's lexicons hold: the words of each phrase and of what it means, in every
 * lexicon file (how things are said, slang, synonyms, the intents' words, the word lists), the
 * words of amounts and dates the shared readers know, and the rows frame's words. A word
 * of a message that is none of these, and no name, amount or date the reading found, is one the
 * planner has no use for: a plan made without it may have missed what the message asks
 * (confidence.ts, `change_word_left_unread`). Read off the data (every intent lexicon through
 * `INTENT_LEXICONS`), so a word added to a lexicon is known here at once.
 */
import alertNegatives from './lexicon/alert-negatives.json' with { type: 'json' };
import alerts from './lexicon/alerts.json' with { type: 'json' };
import clauses from './lexicon/clauses.json' with { type: 'json' };
import definition from './lexicon/definition.json' with { type: 'json' };
import followUps from './lexicon/follow-ups.json' with { type: 'json' };
import inContext from './lexicon/in-context.json' with { type: 'json' };
import questionKinds from './lexicon/question-kinds.json' with { type: 'json' };
import refusals from './lexicon/refusals.json' with { type: 'json' };
import slang from './lexicon/slang.json' with { type: 'json' };
import slots from './lexicon/slots.json' with { type: 'json' };
import speech from './lexicon/speech.json' with { type: 'json' };
import synonyms from './lexicon/synonyms.json' with { type: 'json' };
import words from './lexicon/words.json' with { type: 'json' };
import { AMOUNT_WORDS } from '../../../shared/parse/amount.js';
import { DATE_LEXICON } from '../../../shared/parse/date-words.js';
import { ROW_WORDS } from '../frame/lexicon.js';
import { tokensIn } from './concept-words.js';
import { INTENT_LEXICONS } from './intents/concepts.js';

/**
 * The fields whose strings are vocabulary: a phrase, the words it is read as, a word list, and the
 * words a phrase is read beside. Examples, ids and concepts are not (an example's "karan" is no
 * word of the desk).
 */
const VOCABULARY_FIELDS: ReadonlySet<string> = new Set(['phrase', 'means', 'words', 'before', 'after', 'notBefore', 'notAfter', 'withAnyBefore', 'withAnyAfter', 'withoutAnyBefore', 'withoutAnyAfter']);

function collect(value: unknown, field: string | null, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collect(v, field, into);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, k, into);
  else if (typeof value === 'string' && field !== null && VOCABULARY_FIELDS.has(field)) for (const w of tokensIn(value)) into.add(w);
}

export const LEXICON_WORDS: ReadonlySet<string> = (() => {
  const all = new Set<string>();
  for (const file of [alertNegatives, alerts, clauses, definition, followUps, inContext, ...Object.values(INTENT_LEXICONS), questionKinds, refusals, slang, slots, speech, synonyms, words]) {
    collect(file, null, all);
  }
  for (const w of [...AMOUNT_WORDS, ...DATE_LEXICON.flatMap((e) => tokensIn(e.phrase)), ...ROW_WORDS]) all.add(w);
  return all;
})();

/** Endings an English verb takes ("doubled", "raising", "cuts"), longest first. */
const INFLECTIONS = ['ing', 'ed', 'es', 'd', 's'] as const;

/**
 * The forms a word may be inflected from: "doubled" → "double", "dropped" → "drop", "raising" →
 * "raise". Asked only of a word no lexicon knows as it is, so no known word is read as another.
 */
export function baseForms(word: string): string[] {
  const out: string[] = [];
  for (const ending of INFLECTIONS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const stem = word.slice(0, -ending.length);
    out.push(stem, `${stem}e`);
    if (stem.at(-1) === stem.at(-2)) out.push(stem.slice(0, -1));
  }
  return out;
}
