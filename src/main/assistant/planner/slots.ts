/**
 * What a tool's planning (ToolPlanning.fill) reads a message with: the slots of one message
 * (player, fixture, dates, from the text, the page or the last turn) and the readings several
 * intents share (bet status, amounts, periods). Free of I/O, like the rest of the planner.
 */
import { amountRefusal } from '../../../shared/parse/amount.js';
import { isWord, tokenSpans } from '../../../shared/parse/phrases.js';
import { SLOT_WORDS, endsInUnit, hasDigit, isDigits, isLetters, pastOptional, said, saidAt, tokensIn, whereSaid } from './concept-words.js';
import { hasAny, type Reading } from './grammar.js';
import type { Filled, PlannerInput } from './types.js';

export { hasAny };

/**
 * A check of a folded text's words, read by the one tokenizer and matcher from lexicon/slots.json:
 * the intents ask it `test(folded)` as they would ask a pattern.
 */
export interface WordCheck {
  test(folded: string): boolean;
}

/** Players spoken of as such: "per player", "clients", "my guys", "mere bande". */
export const PLAYER_WORD: WordCheck = { test: (folded) => said(folded, 'players_word') };
const SELF = ['my', 'me', 'i', 'our', 'we', 'us', 'mine'];
/** Not paid yet ("who still hasn't paid?", "not yet paid"): what is owed now, not a payment made. */
export const UNPAID: WordCheck = {
  test: (folded) => {
    const tokens = tokensIn(folded);
    return whereSaid(tokens, 'not_yet').some((m) => [0, 1, 2].some((gap) => saidAt(tokens, m.to + gap, 'paid') >= 0));
  },
};

/**
 * Words that join the items of a list: "Sneha and Neha", "eng nz aur madrid barca"; "than" joins a
 * comparison ("is Karan's CL higher than Sneha's?"), which asks the same of both.
 */
export const LIST_JOINERS: readonly string[] = ['and', 'aur', 'ani', 'or', 'plus', 'also', '&', ',', 'than'];
// "everyone's" is folded to "everyones": the possessive is everyone too.
/** Everyone at once ("settle all", "sabka CL 50k"); "all of it", "the whole amount", "sab kuch" are one balance whole. */
export const BULK: WordCheck = {
  test: (text) => {
    const tokens = tokensIn(text);
    return whereSaid(tokens, 'bulk').some((m) => saidAt(tokens, m.to, 'one_whole') < 0
      && !(tokens[m.from] === 'all' && m.from > 0 && saidAt(tokens, m.from - 1, 'it_all') === m.to));
  },
};

/** A payment told as the whole of what was owed: "everything he owed", "in full", "pura". */
export const PAID_IN_FULL: WordCheck = { test: (folded) => said(folded, 'paid_in_full') };

export const ask = (reason: Extract<Filled, { clarify: unknown }>['clarify']['reason'], question: string): Filled => ({ clarify: { reason, question } });

export const put = (args: Record<string, unknown>, key: string, value: unknown) => {
  if (value !== null && value !== undefined) args[key] = value;
  return args;
};

/** top markets only know today, this week and this month: the range's length decides. */
export function periodOf(from: string, to: string, today: string): 'today' | 'week' | 'month' {
  if (from === to && to === today) return 'today';
  return from.slice(0, 7) === to.slice(0, 7) && Number(to.slice(8)) - Number(from.slice(8)) > 7 ? 'month' : 'week';
}

/** What a market ranking is by: volume, exposure or PnL, from the words that name it; null when none does. */
export function metricOf(r: Reading): 'pnl' | 'volume' | 'exposure' | null {
  if (hasAny(r, 'volume', 'turnover', 'traded', 'stake', 'stakes', 'busiest', 'popular', 'active')) return 'volume';
  if (hasAny(r, 'exposure', 'exposed', 'liability', 'risk', 'riskiest', 'risky', 'dangerous')) return 'exposure';
  if (hasAny(r, 'pnl', 'profit', 'profits', 'loss', 'losses', 'result', 'results', 'earnings', 'worst', 'best', 'profitable')) return 'pnl';
  // "which markets made me the most money", "sabse zyada kamaya": money made is the result.
  if (said(r.folded, 'money_made') && said(r.folded, 'money_much')) return 'pnl';
  return null;
}

export function statusOf(r: Reading): Array<'open' | 'settled' | 'void'> | null {
  const status: Array<'open' | 'settled' | 'void'> = [];
  if (hasAny(r, 'open', 'unsettled', 'pending', 'running', 'active') || said(r.folded, 'live_bets')) status.push('open');
  if (hasAny(r, 'settled', 'closed', 'completed', 'finished', 'graded')) status.push('settled');
  if (hasAny(r, 'void', 'voided', 'cancelled', 'canceled')) status.push('void');
  return status.length > 0 ? status : null;
}

/** The slots of one message, each read once, shared by every intent it plans. */
export class Slots {
  constructor(private readonly input: PlannerInput, readonly r: Reading) {}

  private pagePlayer(): string | null {
    const { path, query } = this.input.page;
    const m = /^\/agent\/players\/([0-9a-f-]{36})$/.exec(path);
    return m?.[1] ?? (path === '/agent/downline' ? query.agentId : undefined) ?? (path === '/agent/bets' ? query.playerId : undefined) ?? null;
  }

  private pageFixture(): string | null {
    const { path, query } = this.input.page;
    return path === '/agent/exposure' || path === '/agent/bets' ? query.fixtureId ?? null : null;
  }

  /** A player named in the message (the name as typed); `anyCue`: for tools that take no match, "on Neha" is Neha too. */
  namedPlayer(options: { anyCue?: boolean } = {}): string | null {
    // A name in the message comes first: in "Neha's balance and her open bets" "her" is Neha.
    const name = this.r.names.find((n) => options.anyCue || !this.isFixtureName(n));
    if (name) return name.text;
    return this.r.pronounPlayer ? this.contextPlayer() : null;
  }

  /** The players named as a list ("Sneha and Neha", "Rahul aur Vivek"): the first, and each joined to it by a conjunction. */
  namedPlayers(conjunctions: readonly string[]): string[] {
    const named = this.r.names.filter((n) => !this.isFixtureName(n));
    const list = named.filter((n, i) => i === 0 || (n.before !== null && conjunctions.includes(n.before)));
    return [...new Set(list.map((n) => n.text))];
  }

  /** The matches named as a list ("on eng nz and madrid barca"): the first after "on"/"in", and each joined to it. */
  namedFixtures(): string[] {
    return [...new Set(this.fixtureNames().map((n) => n.text))];
  }

  namedFixture(): string | null {
    if (this.input.answer?.fixture) return this.input.answer.fixture;
    if (this.r.fixture) return this.r.fixture;
    if (this.r.pronounFixture) return this.contextFixture();
    return null;
  }

  /** The match the page shows, else the one the conversation last resolved: what "lay India for 10k" is about. */
  conversationFixture(): string | null {
    return this.contextFixture();
  }

  private fixtureCue(before: string | null): boolean {
    return before === 'on' || before === 'in';
  }

  /** Names cued as matches ("on X", "in X"), with the names a conjunction joins to them ("on X and Y"). */
  private fixtureNames(): Reading['names'] {
    const out: Reading['names'] = [];
    for (const n of this.r.names) {
      if (this.fixtureCue(n.before) || (out.length > 0 && n.before !== null && LIST_JOINERS.includes(n.before) && out.at(-1) === this.r.names[this.r.names.indexOf(n) - 1])) out.push(n);
    }
    return out;
  }

  private isFixtureName(n: Reading['names'][number]): boolean {
    return this.fixtureNames().includes(n);
  }

  /**
   * The one player the last answer was about: who a short follow-up that names no one is about
   * ("aur comm?"), and whom "pura clear kar do" right after Neha's balance settles (its preview
   * names her before anything moves).
   */
  lastAnswerPlayer(): string | null {
    const last = this.input.context.lastCalls ?? [];
    const players = new Set(last.map((c) => c.args.player).filter((p) => typeof p === 'string'));
    return players.size === 1 ? this.input.context.lastPlayer?.id ?? null : null;
  }

  /** Whether the page or the conversation has a player that "him" or "that guy" can be. */
  hasContextPlayer(): boolean {
    return this.contextPlayer() !== null;
  }

  private contextPlayer(): string | null {
    return this.pagePlayer() ?? this.input.context.lastPlayer?.id ?? null;
  }

  private contextFixture(): string | null {
    return this.pageFixture() ?? this.input.context.lastFixture?.id ?? null;
  }

  /**
   * The player slot: named, else "him/this player" from the page or the last turn, else none when
   * the user speaks of their own book, else the player whose page this is. A tool that takes no
   * match reads "on Neha" as Neha (`takesFixture: false`).
   */
  player(options: { takesFixture?: boolean } = { takesFixture: true }): string | null {
    // "Rahul Verma, 15k" in reply to "Which Rahul?": the one the reply names is the one meant.
    const answered = this.input.answer?.names[0]?.text;
    if (answered) return answered;
    const named = this.namedPlayer({ anyCue: options.takesFixture === false });
    if (named) return named;
    if (SELF.some((w) => this.r.words.has(w)) || BULK.test(this.r.folded) || hasAny(this.r, 'total', 'overall')) return null;
    // "R Verma: per click win 5k, min stake 100": a later clause naming no one is about the one named before it.
    return this.input.clausePlayer ?? this.pagePlayer();
  }

  /**
   * The fixture slot: teams named, else "on X" when the tool takes a fixture and no player, else
   * the page's fixture.
   */
  fixture(options: { takesPlayer: boolean }): string | null {
    const named = this.namedFixture();
    if (named) return named;
    const onName = this.r.names.find((n) => this.isFixtureName(n) || !options.takesPlayer);
    if (onName) return onName.text;
    return this.pageFixture();
  }

  range(defaultToday: boolean): { from: string; to: string } | null {
    if (this.r.range) return { from: this.r.range.from, to: this.r.range.to };
    return defaultToday ? { from: this.input.today, to: this.input.today } : null;
  }

  get today(): string {
    return this.input.today;
  }

  /** The user's reply to the desk's question about this request, when it is one (`PlannerInput.answer`). */
  get answer(): Reading | null {
    return this.input.answer ?? null;
  }

  /** The reading a request's amounts come from: the reply's when it gives any (it answers "What amount?"), else the request's own. */
  get amountReading(): Reading {
    return this.input.answer && this.input.answer.amounts.length > 0 ? this.input.answer : this.r;
  }

  /** The arguments of the last plan's call to `tool`, in planner form, for a follow-up that redoes it ("as pdf instead"). */
  lastCall(tool: string): Record<string, unknown> | null {
    const call = this.input.context.lastCalls?.find((c) => c.tool === tool);
    return call ? structuredClone(call.args) : null;
  }

  /** The report the conversation last made, for "send it to Arjun". */
  get lastArtifact(): { id: string; name: string } | null {
    return this.input.context.lastArtifact ?? null;
  }
}

/**
 * Words right before an amount that make it a change by that much: "by 10k", "another 10k", "add an
 * extra 10k", "+10k", "top up with rs 10k".
 */
function changeByBefore(tokens: readonly string[]): boolean {
  let end = tokens.length;
  if (tokens[end - 1] === '₹') end--;
  else if (tokens[end - 1] === '.' && tokens[end - 2] === 'rs') end -= 2;
  else end = endingWithout(tokens, end, 'currency');
  // "an", "extra" may be said or not: each way is tried ("extra 10k" is a change by, as is "add extra 10k").
  const ends = [end, endingWithout(tokens, end, 'more')].flatMap((e) => [e, endingWithout(tokens, e, 'one')]);
  return ends.some((e) => tokens[e - 1] === '+' || endingWithout(tokens, e, 'change_by') < e);
}

/** Where the tokens up to `end` stop when a phrase of the concept they end on is left off; `end` when they end on none. */
function endingWithout(tokens: readonly string[], end: number, concept: string): number {
  return whereSaid(tokens.slice(0, end), concept).find((m) => m.to === end)?.from ?? end;
}

/** Words right after it that do the same: "10k more", "10k extra", "10k zyada", "10k kam", "10k aur badha do". */
const changeByAfter = (tokens: readonly string[]): boolean => saidAt(tokens, pastOptional(tokens, 0, 'points'), 'by_after') >= 0;

/** "top up Karan's limit with 10k", "top-up": whatever the amount, it is added. */
export const TOP_UP: WordCheck = { test: (folded) => said(tokensIn(folded).filter((t) => t !== '-'), 'top_up') };

/** An amount the message changes a limit by rather than to (the value it lands on is the limit as it stands, moved by it). */
function isChangeBy(r: Reading, amount: { raw: string }): boolean {
  if (TOP_UP.test(r.folded)) return true;
  const raw = amount.raw.toLowerCase();
  const at = r.folded.indexOf(raw);
  if (at < 0) return false;
  return changeByBefore(tokensIn(r.folded.slice(0, at))) || changeByAfter(tokensIn(r.folded.slice(at + raw.length)));
}

/** A sign typed before a number, set off from the word before it: "-5k", "+ 10k". */
function signed(folded: string, sign: '-' | '+'): boolean {
  const spans = tokenSpans(folded);
  return spans.some((t, i) => t.token === sign && (t.start === 0 || folded[t.start - 1]!.trim() === '')
    && spans[i + 1] !== undefined && (sign === '+' || isDigits(spans[i + 1]!.token[0])));
}

/** Which way a change by an amount goes: "reduce it by 5k", "10k kam kar do", "-5k" lower it; "add", "10k more", "badha do", "+10k" raise it. */
const lowers = (folded: string): boolean => said(folded, 'lower') || signed(folded, '-');
const raises = (folded: string): boolean => said(tokensIn(folded).filter((t) => t !== '-'), 'raise') || signed(folded, '+');

/** The first digit of the value said after "to", "at", "as", "=>", "->", "→", or Hindi's "se" after an amount ("40k se 60k kar do"); null when none is. */
function valueAfterTo(folded: string): string | null {
  const tokens = tokensIn(folded);
  for (let i = 0; i < tokens.length; i++) {
    const cue = toCueAt(tokens, i);
    if (cue < 0) continue;
    let at = tokens[cue] === '-' || tokens[cue] === '−' ? cue + 1 : pastOptional(tokens, cue, 'minus');
    if (tokens[at] === '₹') at++;
    else if (tokens[at] === 'rs') at += tokens[at + 1] === '.' ? 2 : 1;
    else at = pastOptional(tokens, at, 'currency');
    const first = tokens[at]?.[0];
    if (isDigits(first)) return first;
  }
  return null;
}

/** The token after a "to" said at `i` ("to", "=>", "→", "40k se"), or -1. */
function toCueAt(tokens: readonly string[], i: number): number {
  const t = tokens[i];
  if (saidAt(tokens, i, 'new_value_cue') === i + 1 || t === '→') return i + 1;
  if (t === '=') return tokens[i + 1] === '>' ? i + 2 : i + 1;
  if (t === '-' && tokens[i + 1] === '>') return i + 2;
  // Hindi's "from … to" is "se", said after the amount it is from ("40k se", "40 k se").
  const afterAmount = hasDigit(tokens[i - 1]) || (isLetters(tokens[i - 1]) && isDigits(tokens[i - 2]?.at(-1)));
  return saidAt(tokens, i, 'from_to_hi') === i + 1 && afterAmount ? i + 1 : -1;
}


/** An amount's first figure, its currency left off ("Rs. 5000" → "5"). */
function firstFigure(raw: string): string {
  const tokens = tokensIn(raw.toLowerCase());
  const at = tokens[0] === '₹' || tokens[0] === 'inr' ? 1 : tokens[0] === 'rs' ? (tokens[1] === '.' ? 2 : 1) : 0;
  return tokens[at]?.[0] ?? '';
}

/** A share of something said ("10%", "10 percent", "10pct"): a number right before a word for percent. */
function percentSaid(folded: string): boolean {
  const tokens = tokensIn(folded);
  return tokens.some((t, i) => isWord(t) && (endsInUnit(t, PERCENT_WORDS) || (isDigits(t.at(-1)) && saidAt(tokens, i + 1, 'percent') >= 0)));
}
const PERCENT_WORDS: readonly string[] = SLOT_WORDS.filter((e) => e.concept === 'percent' && !e.phrase.includes(' ')).map((e) => e.phrase);

/**
 * The value a limit is set to: the amount after "to", or the only amount. An amount to change it
 * by ("by 10k", "10k more", "another 10k", "+10k") is no value: taking it as one would set a 40k
 * limit to 10k when 50k was meant. It is the change (`by`, signed), which lands on the limit as it
 * stands (read when the change is prepared); a change whose direction is not said is asked about.
 */
export function newValueOf(r: Reading): { paisa: number } | { by: number } | { problem: string } {
  // "40k se 60k kar do": Hindi's "from … to" is "se", the value after it the new one.
  const afterTo = valueAfterTo(r.folded);
  const candidates = afterTo !== null ? r.amounts.filter((a) => firstFigure(a.raw) === afterTo) : r.amounts;
  // "increase his CL by 1000%": a share of the limit is no amount of points, whatever the number.
  if (percentSaid(r.folded)) return { problem: 'Say the new limit as an amount (like 50k), not a percentage.' };
  if (afterTo === null && r.amounts.some((a) => isChangeBy(r, a))) {
    const by = r.amounts.length === 1 ? r.amounts[0]! : null;
    const refusal = by ? amountRefusal({ ...by, negative: false }) : null;
    const lower = lowers(r.folded);
    // One amount, one direction, a usable size: the change. Anything else is asked.
    if (!by || by.paisa === null || refusal !== null || lower === raises(r.folded)) {
      return { problem: refusal ?? 'What should the new limit be? Say the value, or how much to raise or lower it by.' };
    }
    return { by: lower ? -Math.abs(by.paisa) : Math.abs(by.paisa) };
  }
  const amount = afterTo !== null ? (candidates.at(-1) ?? r.amounts.at(-1)) : r.amounts.length === 1 ? r.amounts[0] : undefined;
  if (!amount) return { problem: r.amounts.length > 1 ? 'I found more than one amount. What should the new limit be?' : 'What should the new limit be?' };
  // Negative, zero, fractions of a paisa, too large: refused with the reason, never changed.
  const refusal = amountRefusal(amount);
  if (refusal !== null || amount.paisa === null) return { problem: refusal ?? 'What should the new limit be?' };
  return { paisa: amount.paisa };
}
