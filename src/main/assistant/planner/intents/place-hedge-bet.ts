import { amountRefusal } from '../../../../shared/parse/amount.js';
import { type Slots, ask, hasAny } from '../slots.js';
import { escapeRegExp } from '../../../../shared/text.js';
import type { PlannedCall, ToolPlanning } from '../types.js';
import type { Reading } from '../grammar.js';
import { speechAct } from '../speech-act.js';
import hedgeTool from '../../../tools/place-hedge-bet.js';


/** "on the draw", "back Over 2.5": outcomes that are words of the market, not names the grammar leaves over. */
const MARKET_OUTCOME = /\b(?:on|back|backing|lay|laying)\s+(the\s+draw|draw|over\s+[\d.]+|under\s+[\d.]+|over|under)\b|\b(the\s+draw|draw|over\s+[\d.]+|under\s+[\d.]+|over|under)\s+(?:pe|par|per|ko|ki|ka|(?=(?:\S+\s+)?(?:back|lay)\b))/;

/** "exposure on ind aus": after a word of the book, "on" names the match, not the outcome. */
const BOOK_ON = /\b(?:exposure|exposed|position|positions|liability|risk|book)\s+(?:on|in|for)\s+$/;

/** A stake as the folded text has it: "10k", "5,000", "2.5 lakh". */
const STAKE = String.raw`(?:₹\s*)?\d[\d,.]*\s*(?:k|l|lakh|lakhs|lac|cr|crore|thousand|hazaar|hazar)?`;

const OUTCOME_CUES: ReadonlySet<string> = new Set(['on', 'back', 'backing', 'lay', 'laying']);

const FIXTURE_CUES: ReadonlySet<string> = new Set(['in', 'of']);

/**
 * The hedge's slots. Names are split by their cue: "on X" / "back X" / "lay X" is the outcome,
 * "in X" the match; a match may come from the page or the conversation, never from the outcome
 * ("lay india for 10k" is no bet on some India match the search happens to find first).
 */
function fillHedge(s: Slots) {
  const r = s.r;
  const market = MARKET_OUTCOME.exec(r.folded);
  const outcomeName = (market?.[1] ?? market?.[2])?.replace(/^draw$/, 'the draw')
    ?? r.names.find((n) => n.before !== null && OUTCOME_CUES.has(n.before) && !BOOK_ON.test(r.folded.slice(0, r.folded.indexOf(` ${n.text}`) + 1)))?.text
    // Hindi puts the cue after: "india pe back karo", "15k australia par", "australia back karo 25k".
    ?? r.names.find((n) => new RegExp(`(?:^|\\s)${escapeRegExp(n.text)}\\s+(?:pe|par|per|la|var|ku|ko|mela|meedha|back|lay)\\b`).test(r.folded))?.text
    // The stake between the side and the outcome, or (Hindi) the outcome and the stake before the side:
    // "lay 10k india", "india ki 10k back kar do".
    ?? r.names.find((n) => new RegExp(`\\b(?:back|lay)\\s+${STAKE}\\s+${escapeRegExp(n.text)}(?![a-z])|(?:^|\\s)${escapeRegExp(n.text)}\\s+(?:ki|ka|ke|ko|pe|par)?\\s*${STAKE}\\s+(?:back|lay)\\b`).test(r.folded))?.text
    ?? null;
  // The match: "in X", "exposure on X", a name right after "hedge" ("hedge ind aus 10k back aus"),
  // or Hindi's cue after it ("ind aus mein", "ind aus wale match").
  const inText = r.names.find((n) => n.text !== outcomeName && (
    (n.before !== null && (FIXTURE_CUES.has(n.before) || n.before === 'hedge')) || BOOK_ON.test(r.folded.slice(0, r.folded.indexOf(` ${n.text}`) + 1))
    || new RegExp(`(?:^|\\s)${escapeRegExp(n.text)}\\s+(?:mein|me|main|wale|wala|vale)\\b`).test(r.folded)))?.text;
  // Else the first other name ("lay 10k india, ind aus"), else the page's or the conversation's match,
  // else the outcome's own team: the gate finds its match, taking the one still open and asking
  // when there are several.
  const others = r.names.filter((n) => n.text !== outcomeName);
  const fixture = s.namedFixture() ?? inText ?? (outcomeName && others.length > 0 ? others[0]!.text : null) ?? s.conversationFixture()
    ?? (outcomeName && !MARKET_OUTCOME.test(r.folded) ? outcomeName : null);
  const said = outcomeName && !MARKET_OUTCOME.test(r.folded) ? outcomeName.replace(/\b\p{L}/gu, (c) => c.toUpperCase()) : outcomeName;
  // A stake that can never be placed (negative, zero) is refused first: no match would make it right.
  const early = r.amounts.length === 1 ? amountRefusal(r.amounts[0]!) : null;
  if (early !== null) return ask('needs_amount', early);
  if (!fixture) return ask('needs_fixture', said ? `Which match should I ${r.words.has('lay') ? 'lay' : 'back'} ${said} in?` : 'Which match should the hedge be on?');
  if (r.amounts.length > 1) return ask('needs_amount', 'I found more than one amount. What stake?');
  const stake = r.amounts[0];
  if (!stake) return ask('needs_amount', 'What stake?');
  const refusal = amountRefusal(stake);
  if (refusal !== null || stake.paisa === null) return ask('needs_amount', refusal ?? 'What stake?');
  if (!outcomeName) return ask('needs_outcome', 'Which outcome should I back or lay?');
  const side = sideOf(r.folded);
  // No market named: the gate takes the one market of the match that has this outcome, and asks when none has.
  return { args: { fixture, ...(r.market && { market: r.market }), outcome: outcomeName, side, stake: stake.paisa } };
}

/**
 * The side the order names: its first "back" or "lay" said as a verb ("hedge: lay india 10k" lays).
 * "lay off" is the trade's word for any hedge, and "my lay on india" a position, not the order's side.
 */
function sideOf(folded: string): 'back' | 'lay' {
  const said = /(?<!\b(?:my|our|the|a|his|her|their|existing|current)\s)\b(back|lay)\b(?!\s+off\b)/.exec(folded);
  return said?.[1] === 'lay' ? 'lay' : 'back';
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
  const outcome = r.names.find((n) => n.before !== null && OUTCOME_CUES.has(n.before))?.text ?? null;
  if ((side === null && outcome === null) || r.names.length > (outcome === null ? 0 : 1)) return null;
  if (speechAct(r.folded, HEDGE_VERBS) === 'question') return null;
  if (side === last.args.side && outcome === null) return null;
  return { tool: last.tool, args: { ...last.args, ...(side !== null && { side }), ...(outcome !== null && { outcome }) } };
}

/** The rule planner's intent for this tool: the words that ask for it, the slots they fill, what a follow-up may change. */
export default {
  id: 'hedge', precedence: 20, exclusive: true, amount: { arg: 'stake' }, asQuestion: 'exposure', follows: { fixture: true },
  vocabulary: ['hedge', 'hedging', 'cover', 'lay'],
  triggers: (r) => hasAny(r, 'hedge', 'hedging') || /\b(?:back|lay)\s+(?:₹\s*)?\d/.test(r.folded) || /\bplace\s+(?:a\s+)?(?:back\s+|lay\s+)?bet\b/.test(r.folded)
    // "what if I lay india?": a question about a hedge, which the planner answers with its read twin.
    || /\b(?:i|we)\s+(?:back|lay)\s+\p{L}/u.test(r.folded)
    // "india ki 10k back kar do", "australia ki 20k khai karo": Hindi says the side last, then the verb.
    || (r.amounts.length > 0 && /\b(?:back|lay)\s+(?:kar|karo|kardo|krdo|kro|karna|kare|karein|de|do)\b/.test(r.folded))
    // "lay india for 10k", "back australia 5k in ind v aus": the side opens the order.
    || (/^(?:(?:ok|okay|please|pls|plz|bhai|now|also|and)\s+)*(?:lay|back)\s+(?!up\b|to\b|off\b|in\b)\p{L}/u.test(r.folded) && (r.amounts.length > 0 || /^\W*lay\b/.test(r.folded))),
  fill: fillHedge,
  examples: ['hedge 10k on Australia in India vs Australia match odds', 'hedge 20k on the draw in eng pak', 'lay india for 10k in ind v aus', 'back australia 5k in ind v aus'],
} satisfies ToolPlanning;
