/**
 * "what does take mean?", "CL ka matlab kya hai", "how is exposure calculated", "back vs lay?": a
 * question about a word of the desk (or what sets two apart), not about anyone's figures. Only the
 * whole message in one of these frames counts: "what is my take", "take kya hai" (Hindi for
 * "what's the take") and "explain Karan's exposure" are reads, so a bare "what is T" or "T kya
 * hai" is not taken as a definition. Around a frame, only words that ask nothing more may stand:
 * an opener ("sorry,", "I'm new here."), a filler ("in simple words", "on my dashboard") and after
 * it sentences about the word itself ("people keep saying it", "is it money I have or I owe?").
 *
 * The frames are data, lexicon/definition.json: concept entries (a word, phrase or mark → a
 * concept, with its language and an example) and the rules that put them in order, read by the
 * one tokenizer and matcher of `lexicon.ts`. The words of the desk themselves are the glossary's.
 */
import { z } from 'zod';
import { GLOSSARY, type GlossaryTerm } from '../glossary.js';
import { isWord, matchPhrases, phraseTable, tokensOf } from '../../../shared/parse/phrases.js';
import { type SpeechEntry, type SpeechRule, conceptLexicon, ruleSchema, tokenEntrySchema } from './lexicon.js';
import definitionData from './lexicon/definition.json' with { type: 'json' };

const TERM_OF = new Map<string, GlossaryTerm>(
  (Object.entries(GLOSSARY) as Array<[GlossaryTerm, { words: readonly string[] }]>).flatMap(([term, e]) => e.words.map((w) => [w, term] as const)),
);

/** A frame's entries may be marks as well as words ("v / s", "worst - case", ","): the tokenizer reads each mark as a token. */
const definitionSchema = z.strictObject({
  entries: z.array(tokenEntrySchema),
  rules: z.array(ruleSchema),
});
const DATA = definitionSchema.parse(definitionData);

/** The frames' words and marks, each with an example question: checked once, a malformed line is a startup error. */
export const DEFINITION_WORDS: readonly SpeechEntry[] = Object.freeze(DATA.entries);
export const DEFINITION_RULES: readonly SpeechRule[] = Object.freeze(DATA.rules);

/** A word of the desk, the concept `term` of the rules: every word or phrase of the glossary ("udhaar", "available credit"), whichever its language. */
const TERM_WORDS: readonly SpeechEntry[] = [...TERM_OF.keys()].map((w) => ({ phrase: w, concept: 'term', lang: 'en', example: `what does ${w} mean` }));

const LEXICON = conceptLexicon('definition lexicon', [...DEFINITION_WORDS, ...TERM_WORDS], DEFINITION_RULES);
export const { says: definitionSays, ruleHolds: definitionRuleHolds } = LEXICON;

/**
 * "back vs lay?": two words of the trade set side by side, nothing else asked. Two figures of
 * the book side by side ("pnl vs commission") ask for the figures, so this frame is only for
 * words no tool reads.
 */
const FIGURES: ReadonlySet<GlossaryTerm> = new Set([
  'take', 'exposure', 'creditlimit', 'available', 'commission', 'pnl', 'settlement', 'upline', 'downline', 'subagent',
  'share', 'hedge', 'liability', 'perclickwin', 'dailywin', 'minstake', 'gross', 'book',
]);
/** Limits each player has one of: with no player named, "what is T" asks the word. */
const PER_PLAYER: ReadonlySet<GlossaryTerm> = new Set(['perclickwin', 'dailywin', 'minstake']);

/**
 * What a message asks the meaning of: a glossary term (`take`), two told apart (`back+lay`, in
 * a fixed order), or null when it asks anything else. The planner's intent is `definition:` and it.
 */
export function definitionAsked(folded: string): string | null {
  const framed = termsOf(folded, 'definition', LEXICON.says(folded, 'hindi'));
  if (framed) return framed.join('+');
  // "what is lay betting", "what is per click win": a bare what-is is a read of a figure the book has
  // ("what is exposure"), and a definition of a word it has no one figure for (a side, a limit
  // that is each player's own).
  const bare = termsOf(folded, 'bare_what', false);
  if (bare?.length === 1 && (!FIGURES.has(bare[0]!) || PER_PLAYER.has(bare[0]!))) return bare[0]!;
  const sideBySide = termsOf(folded, 'side_by_side', false);
  return sideBySide && sideBySide.length === 2 && !sideBySide.some((t) => FIGURES.has(t)) ? sideBySide.join('+') : null;
}

/**
 * The terms a rule's frame named, each once and in a fixed order. "lagai" is read as "bets"
 * (grammar.ts): asked in Hindi, or told apart from a lay ("lagai aur khai"), it is the back.
 */
function termsOf(folded: string, rule: string, hindi: boolean): GlossaryTerm[] | null {
  const match = LEXICON.ruleMatch(folded, rule);
  if (!match) return null;
  const tokens = tokensOf(folded);
  const words = match.steps.filter((s) => s.values[0] === 'term').map((s) => tokens.slice(s.from, s.to).join(' '));
  const terms = words.map((w) => (w === 'bets' && hindi ? 'back' : TERM_OF.get(w)!));
  if (terms.includes('lay') && terms.includes('bet')) terms[terms.indexOf('bet')] = 'back';
  const once = [...new Set(terms)];
  return once.length === 0 || once.length > 2 ? null : once.sort();
}

const TERM_TABLE = phraseTable([...TERM_OF].map(([w, term]) => [w, term] as const));
/** Words of the trade every question about a figure says beside it ("a bet", "the market"): named alone, they are what is asked. */
const SETTING: ReadonlySet<GlossaryTerm> = new Set(['bet', 'market', 'fixture', 'outcome', 'book', 'line', 'odds', 'stake']);

/**
 * The words of the desk a message names, for a question about how the trade works asked in words
 * no frame above reads ("is commission charged on every winning bet or on the net?"): the figures
 * named, or the words of the setting when nothing else is, at most two, in the order said.
 */
export function termsNamed(folded: string): GlossaryTerm[] {
  const named = [...new Set(matchPhrases(TERM_TABLE, tokensOf(folded).filter(isWord)).flatMap((m) => m.values))];
  const figures = named.filter((t) => !SETTING.has(t));
  return (figures.length > 0 ? figures : named).slice(0, 2);
}
