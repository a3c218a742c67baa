/**
 * What a hedge bet does to the agent's worst case on its market, in figures and in words: the slip,
 * the assistant's sentence and the Audit page all say it from here. The figures are the backend's
 * (hedge.preview's exposure before and after, integer paisa, each the worst outcome's loss at the
 * agent's share); nothing here divides or rounds.
 */
import { formatPoints } from './format.js';
import { name } from './sentences.js';

export type RiskChange = 'reduces' | 'increases' | 'unchanged';

export interface HedgeRisk {
  change: RiskChange;
  /** How much the worst case moves, always ≥ 0 (paisa). */
  by: number;
}

export function hedgeRisk(exposureBefore: number, exposureAfter: number): HedgeRisk {
  const delta = exposureAfter - exposureBefore;
  return { change: delta > 0 ? 'increases' : delta < 0 ? 'reduces' : 'unchanged', by: Math.abs(delta) };
}

export interface HedgeTerms {
  side: 'back' | 'lay';
  outcomeName: string;
  stake: number;
  /** What the bet can lose: the stake when backing, stake × (odds − 1) when laying. */
  liability?: number | undefined;
}

/**
 * The worst case before and after, said of a bet to be placed or placed: "goes from 8,031.00 to
 * 6,031.00", "stayed at 8,031.00". Only the two figures the backend gave: the assistant's number
 * guard lets through no figure a result does not carry, and their difference is none (the slip
 * shows it beside them).
 */
export function worstCaseMove(exposureBefore: number, exposureAfter: number, placed: boolean): string {
  if (exposureBefore === exposureAfter) return `${placed ? 'stayed' : 'stays'} at ${formatPoints(exposureBefore)}`;
  return `${placed ? 'went' : 'goes'} from ${formatPoints(exposureBefore)} to ${formatPoints(exposureAfter)}`;
}

/**
 * Why a bet that raises the worst case does: once it is placed the worst case lies where the bet
 * loses (backing X loses when X does not win; laying X loses when X wins), so the bet adds to the
 * loss instead of offsetting it. True of every bet that raises it, whatever the book held before.
 * The figures before and after are said beside it (worstCaseMove), not again here.
 */
export function riskWarning(bet: HedgeTerms, exposureBefore: number, exposureAfter: number): string | null {
  if (hedgeRisk(exposureBefore, exposureAfter).change !== 'increases') return null;
  const outcome = name(bet.outcomeName);
  const loses = bet.side === 'back'
    ? `backing ${outcome} loses the ${formatPoints(bet.stake)} stake if ${outcome} does not win`
    : `laying ${outcome} loses ${bet.liability === undefined ? 'its liability' : `its ${formatPoints(bet.liability)} liability`} if ${outcome} wins`;
  return `this bet increases your worst case on the market instead of hedging it: ${loses}, and that is where your worst case is.`;
}
