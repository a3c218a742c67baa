import { amountRefusal, findAmounts } from '../../../../shared/parse/amount.js';
import { isWord, tokenSpans, tokensOf } from '../../../../shared/parse/phrases.js';
import { type Slots, ask, hasAny } from '../slots.js';
import type { PlannedCall, ToolPlanning } from '../types.js';
import type { Reading } from '../grammar.js';
import { speechAct } from '../speech-act.js';
import hedgeTool from '../../../tools/place-hedge-bet.js';
import { found, holds, isDigits, means, opensWithFigure, ruleAt, spacedBefore, spansOf, tokensIn } from './concepts.js';

/** "on X", "back X", "lay X": the word before a name that makes it the outcome. */
const cuesOutcome = (before: string | null) => before !== null && means(before, 'hedge:outcome_cue');

/** "in X", "of X": the word before a name that makes it the match. */
const FIXTURE_CUES: ReadonlySet<string> = new Set(['in', 'of']);

/**
 * "on the draw", "back over 2.5", "draw pe", "over 2.5 ko back": an outcome that is a word of the
 * market (its line with it), with a cue before it or, in Hindi, after it. Null when none is said so.
 */
function marketOutcome(folded: string): string | null {
  const spans = spansOf(folded);
  const tokens = tokensIn(folded);
  const spaced = (i: number) => spacedBefore(folded, i);
  for (const m of found(folded, 'hedge:outcome')) {
    let to = m.to;
    // "over 2.5": the line's figures and points, typed together.
    if (means(tokens[m.from], 'hedge:line') && spaced(to) && isDigits(tokens[to])) {
      let end = to + 1;
      while (end < tokens.length && !spaced(end) && (isDigits(tokens[end]) || tokens[end] === '.')) end++;
      while (tokens[end - 1] === '.') end--;
      to = end;
    }
    // After it, the next run of typed characters and then the side: "draw 10k back karo".
    let next = to + 1;
    while (next < tokens.length && !spaced(next)) next++;
    // "back the under": an article may stand between the cue and the outcome, and is no part of its name.
    const cueAt = means(tokens[m.from - 1], 'hedge:outcome_article') ? m.from - 2 : m.from - 1;
    const cued = means(tokens[cueAt], 'hedge:outcome_cue')
      || (spaced(to) && (means(tokens[to], 'hedge:outcome_after') || means(tokens[to], 'hedge:side') || means(tokens[next], 'hedge:side')));
    if (cued) return folded.slice(spans[m.from]!.start, spans[to - 1]!.end);
  }
  return null;
}

/** Where the name's words stand in the text's tokens, each place by its first token. */
function placesOf(folded: string, name: string): number[] {
  const tokens = tokensIn(folded);
  const words = tokensOf(name);
  return tokens.flatMap((_, i) => (words.length > 0 && words.every((w, k) => tokens[i + k] === w) ? [i] : []));
}

/** Where a name stands right after a word of the book and its cue: "exposure on ind aus" names the match. */
function afterBookWord(folded: string, name: string): boolean {
  const tokens = tokensIn(folded);
  const at = placesOf(folded, name).find((p) => p > 0);
  return at !== undefined && means(tokens[at - 1], 'hedge:book_cue') && means(tokens[at - 2], 'hedge:book_word');
}

/** The name followed by a word of the concept: "india pe", "ind aus mein". */
const nameThen = (folded: string, name: string, concept: string) => {
  const after = tokensOf(name).length;
  return placesOf(folded, name).some((p) => means(tokensIn(folded)[p + after], concept));
};

/** The tokens [from, to) each amount the folded text has stands on: a stake as the amount reader reads it. */
function stakesIn(folded: string): Array<{ from: number; to: number }> {
  const spans = spansOf(folded);
  return findAmounts(folded).map((a) => {
    const from = spans.findIndex((s) => s.start >= a.start);
    const to = spans.findIndex((s) => s.start >= a.end);
    return { from, to: to < 0 ? spans.length : to };
  }).filter((s) => s.from >= 0);
}

/**
 * The stake between the side and the outcome, or (Hindi) the outcome and the stake before the side:
 * "lay 10k india", "india ki 10k back kar do".
 */
function stakedName(folded: string, name: string): boolean {
  const tokens = tokensIn(folded);
  const length = tokensOf(name).length;
  const stakes = stakesIn(folded);
  return placesOf(folded, name).some((p) => {
    const before = stakes.some((s) => s.to === p && means(tokens[s.from - 1], 'hedge:side'));
    const start = means(tokens[p + length], 'hedge:stake_cue') ? p + length + 1 : p + length;
    const after = stakes.some((s) => (s.from === start || s.from === p + length) && means(tokens[s.to], 'hedge:side'));
    return before || after;
  });
}

/** "india", "over 2.5": the outcome as the user will see it asked about, each word capitalised. */
function titled(text: string): string {
  let out = text;
  for (const s of tokenSpans(text)) if (isWord(s.token)) out = out.slice(0, s.start) + out[s.start]!.toUpperCase() + out.slice(s.start + 1);
  return out;
}

/**
 * The hedge's slots. Names are split by their cue: "on X" / "back X" / "lay X" is the outcome,
 * "in X" the match; a match may come from the page or the conversation, never from the outcome
 * ("lay india for 10k" is no bet on some India match the search happens to find first).
 */
function fillHedge(s: Slots) {
  const r = s.r;
  // "australia", "lay australia" in reply to "Which outcome…?": the outcome the reply names.
  const answered = s.answer?.names[0]?.text ?? null;
  const market = answered === null ? marketOutcome(r.folded) : null;
  const outcomeName = answered ?? (market === 'draw' ? 'the draw' : market)
    ?? r.names.find((n) => cuesOutcome(n.before) && !afterBookWord(r.folded, n.text))?.text
    // Hindi puts the cue after: "india pe back karo", "15k australia par", "australia back karo 25k".
    ?? r.names.find((n) => nameThen(r.folded, n.text, 'hedge:cue_after'))?.text
    ?? r.names.find((n) => stakedName(r.folded, n.text))?.text
    ?? null;
  // The match: "in X", "exposure on X", a name right after "hedge" ("hedge ind aus 10k back aus"),
  // or Hindi's cue after it ("ind aus mein", "ind aus wale match").
  const inText = r.names.find((n) => n.text !== outcomeName && (
    (n.before !== null && (FIXTURE_CUES.has(n.before) || n.before === 'hedge')) || afterBookWord(r.folded, n.text)
    || nameThen(r.folded, n.text, 'hedge:fixture_after')))?.text;
  // Else the first other name ("lay 10k india, ind aus"), else the page's or the conversation's match,
  // else the outcome's own team: the gate finds its match, taking the one still open and asking
  // when there are several.
  const others = r.names.filter((n) => n.text !== outcomeName);
  const fixture = s.namedFixture() ?? inText ?? (outcomeName && others.length > 0 ? others[0]!.text : null) ?? s.conversationFixture()
    ?? (outcomeName && market === null ? outcomeName : null);
  const said = outcomeName && market === null ? titled(outcomeName) : outcomeName;
  // A stake that can never be placed (negative, zero) is refused first: no match would make it right.
  const amounts = s.amountReading.amounts;
  const early = amounts.length === 1 ? amountRefusal(amounts[0]!) : null;
  if (early !== null) return ask('needs_amount', early);
  if (!fixture) return ask('needs_fixture', said ? `Which match should I ${r.words.has('lay') ? 'lay' : 'back'} ${said} in?` : 'Which match should the hedge be on?');
  if (amounts.length > 1) return ask('needs_amount', 'I found more than one amount. What stake?');
  const stake = amounts[0];
  if (!stake) return ask('needs_amount', 'What stake?');
  const refusal = amountRefusal(stake);
  if (refusal !== null || stake.paisa === null) return ask('needs_amount', refusal ?? 'What stake?');
  if (!outcomeName) return ask('needs_outcome', 'Which outcome should I back or lay?');
  const side = s.answer && found(s.answer.folded, 'hedge:side').length > 0 ? sideOf(s.answer.folded) : sideOf(r.folded);
  // No market named: the gate takes the one market of the match that has this outcome, and asks when none has.
  return { args: { fixture, ...(r.market && { market: r.market }), outcome: outcomeName, side, stake: stake.paisa } };
}

/**
 * The side the order names: its first "back" or "lay" said as a verb ("hedge: lay india 10k" lays).
 * "lay off" is the trade's word for any hedge, and "my lay on india" a position, not the order's side.
 */
function sideOf(folded: string): 'back' | 'lay' {
  const tokens = tokensIn(folded);
  const side = found(folded, 'hedge:side').find((m) => !means(tokens[m.from - 1], 'hedge:owner') && !means(tokens[m.to], 'hedge:off'));
  return side !== undefined && tokens[side.from] === 'lay' ? 'lay' : 'back';
}

/** "back 10k", "lay ₹5,000": the side, then the stake. */
function sideBeforeStake(folded: string): boolean {
  const tokens = tokensIn(folded);
  return found(folded, 'hedge:side').some((m) => opensWithFigure(tokens[m.to]) || (tokens[m.to] === '₹' && opensWithFigure(tokens[m.to + 1])));
}

/** "lay india for 10k", "ok back australia 5k": the side opens the order, a name after it; "lay" alone opens one without a stake. */
function sideOpens(r: Reading): boolean {
  const tokens = tokensIn(r.folded);
  const opens = ruleAt(r.folded, 'hedge:side_opens');
  const object = opens ? tokens[opens.to] : undefined;
  if (!opens || !isWord(object) || opensWithFigure(object) || means(object, 'hedge:not_object')) return false;
  return r.amounts.length > 0 || tokens.find(isWord) === 'lay';
}

/** The side a word names, in English and the trade's Hindi ("khai" lays, "lagai" backs). */
const SIDE_WORDS: Readonly<Record<string, 'back' | 'lay'>> = {
  back: 'back', backing: 'back', lagai: 'back', lagaai: 'back', lay: 'lay', laying: 'lay', khai: 'lay', khaai: 'lay',
};
const HEDGE_VERBS: ReadonlySet<string> = new Set(['make', 'change', 'switch', 'hedge', 'back', 'lay', 'put', 'place']);

/**
 * "make it a lay", "actually on australia", "khai kar do" right after a hedge was proposed: the
 * same hedge with only its side or its outcome changed, so the stake and the match stay as they
 * were (a new amount is the amount follow-up's; a question proposes nothing).
 */
export function planHedgeFollowUp(r: Reading, last: PlannedCall): PlannedCall | null {
  if (last.tool !== hedgeTool.name || r.amounts.length > 0 || r.tokens.length > 8 || r.fixture !== null) return null;
  const sides = new Set([...r.words].flatMap((w) => (SIDE_WORDS[w] ? [SIDE_WORDS[w]] : [])));
  const side = sides.size === 1 ? [...sides][0]! : null;
  const outcome = r.names.find((n) => cuesOutcome(n.before))?.text ?? null;
  if ((side === null && outcome === null) || r.names.length > (outcome === null ? 0 : 1)) return null;
  if (speechAct(r.folded, HEDGE_VERBS) === 'question') return null;
  if (side === last.args.side && outcome === null) return null;
  return { tool: last.tool, args: { ...last.args, ...(side !== null && { side }), ...(outcome !== null && { outcome }) } };
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'hedge', precedence: 20, exclusive: true, amount: { arg: 'stake' }, asQuestion: 'exposure', follows: { fixture: true },
  vocabulary: ['hedge', 'hedging', 'cover', 'lay'],
  triggers: (r) => hasAny(r, 'hedge', 'hedging') || sideBeforeStake(r.folded) || holds(r.folded, 'hedge:place_bet')
    // "what if I lay india?": a question about a hedge, which the planner answers with its read twin.
    || found(r.folded, 'hedge:side').some((m) => means(tokensIn(r.folded)[m.from - 1], 'hedge:we') && isWord(tokensIn(r.folded)[m.to]) && !opensWithFigure(tokensIn(r.folded)[m.to]))
    // "india ki 10k back kar do", "australia ki 20k khai karo": Hindi says the side last, then the verb.
    || (r.amounts.length > 0 && holds(r.folded, 'hedge:side_then_verb'))
    // "lay india for 10k", "back australia 5k in ind v aus": the side opens the order.
    || sideOpens(r)
    // "lay the over for 25k in the total runs market": a side on an outcome of the market, with a
    // stake, is the order wherever it stands and whatever reason is given with it ("to reduce my risk").
    || (r.amounts.length > 0 && found(r.folded, 'hedge:side').length > 0 && marketOutcome(r.folded) !== null),
  fill: fillHedge,
  examples: ['hedge 10k on Australia in India vs Australia match odds', 'hedge 20k on the draw in eng pak', 'lay india for 10k in ind v aus', 'back australia 5k in ind v aus'],
} satisfies ToolPlanning;
