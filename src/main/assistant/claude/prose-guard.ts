/**
 * The guard for streamed prose: the number guard, and what no model sentence may say. The model's
 * text arrives in pieces; it is passed on a sentence at a time, and a sentence with a figure that
 * no tool result of this turn holds is never shown: it waits while more results may still come
 * (the model called a tool), and is dropped when the answer ends without one that holds it.
 * Sentences keep their order, so a sentence waiting holds back the ones after it.
 */
import { isDigits } from '../../../shared/parse/date-words.js';
import { isWord } from '../../../shared/parse/phrases.js';
import { type Figures, guardNumbers } from '../guards/number-guard.js';
import {
  BARE_REPORT, CLAIM_PHRASES, CLAUSE_BREAKS, type ClaimTier, NOT_NOW, PAST, STATUS_MARKS, VOICES, WORD_CLASSES, type WordClass,
} from './claim-words.js';

/** The chat is plain text, so markup in prose is an injection echoed, never an answer. */
const MARKUP = /<\s*\/?\s*[a-z!][^>]*>/i;

/**
 * `claim`: says a change was made or consented to, which a model's turn never does (only the
 * human's Confirm executes). `voice`: speaks as the desk, a tool or the user ("SYSTEM: …").
 * `cut`: the unfinished end of an answer that broke off (max_tokens, an error mid-stream).
 */
export type DropReason = 'figure' | 'claim' | 'markup' | 'voice' | 'cut';

/** A sentence ends at . ! or ? before a space, or at a line break ("1,234.50" does not end one). */
const SENTENCE_END = /[.!?]+(?=\s)\s*|\n+/g;

// ── reading a sentence as words ──────────────────────────────────────────────────────────────

interface Token {
  /** A word as the lexicon spells it, or a punctuation mark that ends a clause. */
  text: string;
  word: boolean;
  /** Which clause of the sentence it stands in: the scope of a negation or a modal. */
  clause: number;
}

/** Numbers (with their separators and ordinal suffix), words (with an apostrophe part), and the marks that end a clause. */
const TOKEN = /\d[\d,./:-]*\d(?:st|nd|rd|th)?|\d(?:st|nd|rd|th)?|[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*|[.,;:!?()[\]—–]|(?<=\s)-(?=\s)/gu;
const endsInSpace = (text: string): boolean => text.trimEnd() !== text;

const NEGATIVE_STEMS: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall' };
const CONTRACTIONS: Readonly<Record<string, string>> = { ve: 'have', re: 'are', m: 'am', ll: 'will', d: 'would' };
/** Pronouns whose "'s" is "is" ("it's done"); after a name it is the possessive, dropped. */
const IS_AFTER = new Set(['it', 'that', 'he', 'she', 'what', 'here', 'there', 'who', 'everything', 'this']);
const CLAUSE_WORDS = new Set<string>(CLAUSE_BREAKS);

/** The words of a sentence as the lexicon spells them: lower case, contractions spelt out, each with its clause. */
function readWords(sentence: string): Token[] {
  const tokens: Token[] = [];
  let clause = 0;
  const word = (text: string) => tokens.push({ text, word: true, clause });
  for (const [raw] of sentence.normalize('NFKC').toLowerCase().replaceAll('’', "'").replaceAll('‘', "'").replaceAll('`', "'").matchAll(TOKEN)) {
    if (![...raw].some((c) => isWord(c))) {
      clause += 1;
      tokens.push({ text: raw, word: false, clause });
      continue;
    }
    if (CLAUSE_WORDS.has(raw)) clause += 1;
    const [stem = raw, ...tails] = raw.split("'");
    if (tails.length === 0) {
      word(raw);
    } else if (raw.endsWith("n't")) {
      const base = raw.slice(0, -3);
      word(NEGATIVE_STEMS[base] ?? base);
      word('not');
    } else {
      const tail = tails.join("'");
      const spelt = tail === 's' ? (IS_AFTER.has(stem) ? 'is' : '') : CONTRACTIONS[tail];
      if (spelt === undefined) {
        word(raw);
      } else {
        word(stem);
        if (spelt) word(spelt);
      }
    }
  }
  return tokens;
}

// ── the lexicon, compiled ────────────────────────────────────────────────────────────────────

const CLASSES = Object.fromEntries(Object.entries(WORD_CLASSES).map(([name, words]) => [name, new Set<string>(words)])) as Record<WordClass, Set<string>>;

interface Part {
  fits: (word: string) => boolean;
  optional: boolean;
}

function compile(phrase: string): Part[] {
  return phrase.split(' ').map((raw) => {
    const optional = raw.endsWith('?');
    const part = optional ? raw.slice(0, -1) : raw;
    const name = part.startsWith('{') && part.endsWith('}') ? part.slice(1, -1) : null;
    if (name === null) return { fits: (word: string) => word === part, optional };
    if (!Object.hasOwn(CLASSES, name)) throw new Error(`claim-words: no word class "${name}"`);
    const set = CLASSES[name as WordClass];
    return { fits: (word: string) => set.has(word), optional };
  });
}

const PHRASES = CLAIM_PHRASES.map((claim) => ({ claim, parts: compile(claim.phrase) }));
const unionOf = (names: readonly WordClass[]) => new Set(names.flatMap((n) => [...CLASSES[n]]));
const BARE_CORE = unionOf(BARE_REPORT.core);
const BARE_PADDING = unionOf(BARE_REPORT.padding);
const NEGATION = new Set<string>(NOT_NOW.negation);
const MODAL = new Set<string>(NOT_NOW.modal);
const CONDITION = new Set<string>(NOT_NOW.condition);
const OPENER = new Set<string>(NOT_NOW.opener);
const PAST_WORDS = new Set<string>([...PAST.words, ...PAST.days]);
const PAST_PERIODS = new Set<string>([...PAST.periods, ...PAST.days]);
const MONTHS = new Set<string>(PAST.months);
const VOICE_LABELS = new Set<string>(VOICES);
const LONGEST_VOICE = Math.max(...VOICES.map((v) => v.split(' ').length));

/** The index after a phrase that matches the words from `at`, or -1. */
function matchFrom(parts: Part[], p: number, tokens: Token[], at: number): number {
  if (p === parts.length) return at;
  const part = parts[p]!;
  const token = tokens[at];
  if (token?.word && part.fits(token.text)) {
    const end = matchFrom(parts, p + 1, tokens, at + 1);
    if (end >= 0) return end;
  }
  return part.optional ? matchFrom(parts, p + 1, tokens, at) : -1;
}

const isNumber = (t: Token | undefined) => t !== undefined && isDigits(t.text[0]);

/** Whether the sentence is dated in the past: a date, a weekday, "yesterday", "last week", "pichle hafte". */
function dated(tokens: Token[]): boolean {
  return tokens.some((t, i) => (isNumber(t) && /\d[/-]\d/.test(t.text))
    || PAST_WORDS.has(t.text)
    || (t.text === 'last' && PAST_PERIODS.has(tokens[i + 1]?.text ?? ''))
    || (MONTHS.has(t.text) && (isNumber(tokens[i - 1]) || isNumber(tokens[i + 1]))));
}

/**
 * Whether a claim from `tokens[from]` to `tokens[to]` is put out of this turn by its sentence: a
 * negation or a modal in its clause, a condition in its clause or before it, or an instruction to
 * the user opening the sentence before it ("Tap Confirm and it is done"; "Confirm ho gaya" opens
 * with the claim itself).
 */
function notNow(tokens: Token[], from: number, to: number): boolean {
  const clause = tokens[to]!.clause;
  const first = tokens.findIndex((t) => t.word);
  if (first >= 0 && first < from && OPENER.has(tokens[first]!.text)) return true;
  return tokens.some((t) => t.word && ((t.clause === clause && (NEGATION.has(t.text) || MODAL.has(t.text) || CONDITION.has(t.text)))
    || (t.clause < clause && CONDITION.has(t.text))));
}

/** The words of a clause that is a bare report of completion: "Done", "Settlement complete", "Okay, all set", "Ho gaya". */
function bareReport(tokens: Token[]): Token[] | null {
  const clauses = new Map<number, Token[]>();
  for (const t of tokens) if (t.word) clauses.set(t.clause, [...(clauses.get(t.clause) ?? []), t]);
  for (const words of clauses.values()) {
    if (!words.some((w) => BARE_CORE.has(w.text)) || !words.every((w) => BARE_CORE.has(w.text) || BARE_PADDING.has(w.text))) continue;
    if (!notNow(tokens, tokens.indexOf(words[0]!), tokens.indexOf(words.at(-1)!))) return words;
  }
  return null;
}

interface Claim {
  tier: ClaimTier;
  /** The words that claim it, as read. */
  words: string;
}

/**
 * What the sentence claims was done, if anything: the strongest claim it makes that its own
 * words do not put out of this turn (a negation, a condition, a date for what rows also say).
 * A question claims nothing.
 */
function claimIn(sentence: string, tokens = readWords(sentence)): Claim | null {
  if (sentence.trim().endsWith('?')) return null;
  const bare = bareReport(tokens);
  if (bare) return { tier: 'always', words: bare.map((t) => t.text).join(' ') };
  const isDated = dated(tokens);
  let weaker: Claim | null = null;
  for (let at = 0; at < tokens.length; at++) {
    for (const { claim, parts } of PHRASES) {
      const end = matchFrom(parts, 0, tokens, at);
      if (end <= at || notNow(tokens, at, end - 1) || (claim.dated && isDated)) continue;
      const words = tokens.slice(at, end).map((t) => t.text).join(' ');
      if (claim.tier === 'always') return { tier: 'always', words };
      weaker ??= { tier: claim.tier, words };
    }
  }
  return weaker;
}

/** Whether the sentence speaks as the desk, a tool or the user: a label such as "SYSTEM:" or "[system]", or a status stamp. */
function speaksAsDesk(sentence: string, tokens = readWords(sentence)): boolean {
  if (STATUS_MARKS.some((mark) => sentence.includes(mark))) return true;
  for (let at = 0; at < tokens.length; at++) {
    const before = tokens[at - 1];
    if (before?.word) continue;
    const words: string[] = [];
    for (let i = at; i < tokens.length && words.length <= LONGEST_VOICE; i++) {
      const t = tokens[i]!;
      if (!t.word) {
        const closes = t.text === ':' || (before?.text === '[' && t.text === ']') || (before?.text === '(' && t.text === ')');
        if (closes && VOICE_LABELS.has(words.join(' '))) return true;
        break;
      }
      words.push(t.text);
    }
  }
  return false;
}

/** A sentence waiting to be shown; `lineEnd`: a line ends after it (a line break, or the end of a text block). */
interface Held {
  text: string;
  lineEnd: boolean;
  /** What its words say, read once: a sentence waiting for a figure is looked at again on every delta. */
  read?: { voice: boolean; claim: Claim | null };
}

export class ProseGuard {
  private partial = '';
  private held: Held[] = [];
  /** A line that spoke as the desk is dropped to its end, not only its first sentence. */
  private inVoiceLine = false;
  private mark = { partial: '', held: 0, shown: 0, dropped: 0, inVoiceLine: false };
  /** Every sentence dropped, with its figures, for the turn's record. */
  readonly dropped: Array<{ sentence: string; figures: string[]; reason: DropReason }> = [];
  /** Everything passed on so far. */
  shown = '';

  /**
   * `changeInPlay`: whether this turn has a change in play (the user asked for one, or the model
   * did). Then a sentence that describes a change as made ("Karan's limit updated to 45,000") is a
   * claim; otherwise it may be a row read back, and waits for the end of the answer to be shown.
   */
  constructor(private readonly allowed: () => Figures, private readonly changeInPlay: () => boolean = () => false) {}

  /** Takes a piece of text; returns what may be shown now. */
  push(delta: string): string {
    this.partial += delta;
    let cut = 0;
    for (const m of this.partial.matchAll(SENTENCE_END)) {
      const end = m.index + m[0].length;
      this.held.push({ text: this.partial.slice(cut, end), lineEnd: m[0].includes('\n') });
      cut = end;
    }
    this.partial = this.partial.slice(cut);
    return this.release(false);
  }

  /** A text block ended (the model turned to tools): what it left unfinished is a sentence, and the next block starts apart. */
  endBlock(): string {
    if (this.partial.trim()) this.held.push({ text: this.partial, lineEnd: false });
    this.partial = '';
    const last = this.held.at(-1);
    if (last !== undefined) {
      if (!endsInSpace(last.text)) last.text = `${last.text} `;
      last.lineEnd = true;
    } else {
      this.inVoiceLine = false;
      if (this.shown && !endsInSpace(this.shown)) this.held.push({ text: ' ', lineEnd: true });
    }
    return this.release(false);
  }

  /** Tool results arrived: sentences waiting for them may go now. */
  recheck(): string {
    return this.release(false);
  }

  /** The answer is complete: the last sentence is checked, and whatever still fails is dropped. */
  end(): string {
    if (this.partial.trim()) this.held.push({ text: this.partial, lineEnd: true });
    this.partial = '';
    return this.release(true);
  }

  /** The answer broke off: what it left unfinished is never shown, and the whole sentences before it are checked as at the end. */
  cut(): string {
    if (this.partial.trim()) this.dropped.push({ sentence: this.partial.trim(), figures: [], reason: 'cut' });
    this.partial = '';
    return this.release(true);
  }

  /** The app's own words after the model's (the true state of a change it claimed): shown as they are. */
  say(words: string): string {
    const out = this.shown && !endsInSpace(this.shown) ? ` ${words}` : words;
    this.shown += out;
    return out;
  }

  /** Whether a sentence was dropped for claiming a change or speaking as the desk. */
  get claimed(): boolean {
    return this.dropped.some((d) => d.reason === 'claim' || d.reason === 'voice');
  }

  /** Before a model call: a call that fails before showing anything can be retried from here. */
  checkpoint(): void {
    this.mark = { partial: this.partial, held: this.held.length, shown: this.shown.length, dropped: this.dropped.length, inVoiceLine: this.inVoiceLine };
  }

  /** Whether nothing was shown since the checkpoint, so the call may be made again unseen. */
  get unseenSinceCheckpoint(): boolean {
    return this.shown.length === this.mark.shown;
  }

  /** Forgets what arrived since the checkpoint (the call failed and will be made again). */
  rollback(): void {
    this.partial = this.mark.partial;
    this.held = this.held.slice(0, this.mark.held);
    this.dropped.length = Math.min(this.dropped.length, this.mark.dropped);
    this.inVoiceLine = this.mark.inVoiceLine;
  }

  /** Why the sentence may not be shown, 'wait' while that is not known yet, or null. */
  private refusal(held: Held, final: boolean): DropReason | 'wait' | null {
    if (this.inVoiceLine) return 'voice';
    if (!held.read) {
      const words = readWords(held.text);
      held.read = { voice: speaksAsDesk(held.text, words), claim: claimIn(held.text, words) };
    }
    const { voice, claim } = held.read;
    if (voice) return 'voice';
    if (claim && (claim.tier === 'always' || this.changeInPlay())) return 'claim';
    if (claim && !final) return 'wait';
    return MARKUP.test(held.text) ? 'markup' : null;
  }

  private release(final: boolean): string {
    let out = '';
    const allowed = this.allowed();
    while (this.held.length > 0) {
      const held = this.held[0]!;
      const { text: sentence, lineEnd } = held;
      const refused = sentence.trim() ? this.refusal(held, final) : null;
      if (refused === 'wait') break;
      const { flagged } = guardNumbers(sentence, allowed);
      if (refused) {
        this.dropped.push({ sentence: sentence.trim(), figures: flagged, reason: refused });
        if (refused === 'voice') this.inVoiceLine = true;
      } else if (flagged.length > 0) {
        if (!final) break;
        this.dropped.push({ sentence: sentence.trim(), figures: flagged, reason: 'figure' });
      } else {
        out += sentence;
      }
      if (lineEnd) this.inVoiceLine = false;
      this.held.shift();
    }
    this.shown += out;
    return out;
  }
}
