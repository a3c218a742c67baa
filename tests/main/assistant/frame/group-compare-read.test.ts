/** Group-by and two compared periods read from the words (lexicon/rows.json), and a grouped answer that never adds up a page. */
import { describe, expect, it } from 'vitest';
import { answerRows } from '../../../../src/main/assistant/frame/answer.js';
import { type AppliedAsk, applyRowAsk } from '../../../../src/main/assistant/frame/apply.js';
import { comparedPeriods, readRowAsk } from '../../../../src/main/assistant/frame/row-ask.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';
import getBetHistory from '../../../../src/main/tools/get-bet-history.js';
import getCommission from '../../../../src/main/tools/get-commission.js';
import type { IsoDate } from '../../../../src/shared/dates.js';

const TODAY = '2026-11-20' as IsoDate;
const THIS_WEEK = { from: '2026-11-16', to: '2026-11-20' };
const LAST_WEEK = { from: '2026-11-09', to: '2026-11-15' };

describe('what a question groups its rows by', () => {
  it.each([
    ['bets per match today', 'fixture'], ['har match ka stake', 'fixture'], ['matchwise bets yesterday', 'fixture'],
    ['pnl per sub-agent last week', 'agent'], ['agent wise commission', 'agent'],
    ['stake per player this week', 'player'], ['how many bets per day this week', 'day'], ['day wise bets', 'day'], ['roz ka stake', 'day'],
    // Marathi (lang "mr" in rows.json): "roj" is each day.
    ['ya athavdyat roj kiti bets zhale', 'day'],
  ])('“%s” groups by %s', (text, by) => {
    const ask = readRowAsk(text, [], TODAY);
    expect(ask.groupBy).toBe(by);
    expect(ask.asks).toBe(true);
  });

  it('a limit named "daily win" is no grouping, and a plain read asks nothing', () => {
    expect(readRowAsk("what is Sneha's daily win limit", [], TODAY).groupBy).toBeNull();
    expect(readRowAsk('bets on ind vs aus today', [], TODAY).asks).toBe(false);
  });
});

describe('two periods compared', () => {
  it.each([
    ['pnl this week vs last week', THIS_WEEK, LAST_WEEK],
    ['is hafte vs pichle hafte ka PnL', THIS_WEEK, LAST_WEEK],
    ['is hafte ka pnl pichle hafte se compare karo', THIS_WEEK, LAST_WEEK],
    ['commission last week compared to this week', LAST_WEEK, THIS_WEEK],
    ['pichle hafte ke muqable is hafte ka pnl', LAST_WEEK, THIS_WEEK],
    // A word of comparing makes "with", "and", "to", "aur" its joiners.
    ["compare this month's commission with last month's", { from: '2026-11-01', to: '2026-11-20' }, { from: '2026-10-01', to: '2026-10-31' }],
    ["compare this week's pnl to last week's", THIS_WEEK, LAST_WEEK],
    ["comparing this week's pnl and last week's", THIS_WEEK, LAST_WEEK],
    ['how does this week compare to last week', THIS_WEEK, LAST_WEEK],
    ['compare karo is hafte aur pichle hafte ka pnl', THIS_WEEK, LAST_WEEK],
    // A voice slip read by its neighbours (lexicon/in-context.json): "too" between two periods is "to".
    ['compare my profit and loss this week too last week', THIS_WEEK, LAST_WEEK],
  ])('“%s” compares its two periods in the order said', (text, first, second) => {
    expect(comparedPeriods(text, TODAY)).toEqual([first, second]);
  });

  it.each([
    'bets on ind vs aus', 'ind vs aus bets today', 'pnl this week vs this week', 'bets against india last week',
    // One range's "to" or "and", and a joiner with no word of comparing before it.
    'compare pnl from 1 nov to 10 nov', 'compare pnl between 2nd and 9th nov', 'pnl this week and commission last week', 'compare karan with sneha this week',
    // "too" after a period is "as well" when no second period follows it.
    'compare my pnl this week too',
  ])('“%s” compares no periods', (text) => {
    expect(comparedPeriods(text, TODAY)).toBeNull();
  });

  it('the planner reads the request once and puts each period in its own read, the message untouched', () => {
    const decision = new RulePlanner().plan({ requestId: 'r', text: 'Arjun Mehta ka commission is mahine vs pichle mahine', page: { path: '/agent/dashboard', query: {} }, today: TODAY, role: 'agent', context: EMPTY_CONTEXT });
    expect(decision.intent).toBe('commission+commission');
    expect(decision.calls).toEqual([
      { tool: 'agent.getCommission', args: { player: 'arjun mehta', from: '2026-11-01', to: '2026-11-20' } },
      { tool: 'agent.getCommission', args: { player: 'arjun mehta', from: '2026-10-01', to: '2026-10-31' } },
    ]);
  });
});

describe('a grouping laid on a read', () => {
  it('asks the backend to add bets up per match, over every matched bet', () => {
    const applied = applyRowAsk({ tool: getBetHistory.name, args: {} }, readRowAsk('bets per match today', [], TODAY), getBetHistory);
    expect(applied?.call.args.groupBy).toBe('fixture');
    expect(applied?.applied.groupBy?.backend).toBe(true);
  });

  it('reads "per player" on rows that are players already as the rows themselves', () => {
    const applied = applyRowAsk({ tool: getCommission.name, args: {} }, readRowAsk('avg commission per player last month', [], TODAY), getCommission);
    expect(applied?.applied).toMatchObject({ aggregate: 'avg', groupBy: null, cannotGroup: null });
  });

  it('says a grouping the rows do not hold, and leaves a read that asks nothing else as planned', () => {
    expect(applyRowAsk({ tool: getCommission.name, args: {} }, readRowAsk('total commission per match', [], TODAY), getCommission)?.applied.cannotGroup).toBe('fixture');
    expect(applyRowAsk({ tool: getCommission.name, args: {} }, readRowAsk('commission per match', [], TODAY), getCommission)).toBeNull();
  });
});

describe('a grouped answer', () => {
  const ask: AppliedAsk = {
    tool: getBetHistory.name, column: 'stake', extreme: null, limit: null, aggregate: null, filters: [], direction: null, role: null,
    underAgent: null, unsupported: [], ordered: false, cannotGroup: null,
    groupBy: { by: 'fixture', field: getBetHistory.rows!.groups!.fixture!, backend: true },
  };
  const bet = (fixtureName: string, stake: number) => ({ fixtureId: fixtureName, fixtureName, playerId: 'p', playerName: 'P', stake, placedAt: '2026-11-20T08:00:00.000Z' });
  const scope = { agentName: null, period: null, timezone: 'Asia/Kolkata' };

  it('adds up the backend\'s groups over every matched bet, not the page it returned', () => {
    const output = {
      bets: [bet('India vs Australia', 100_00)], summary: { count: 3, stake: 600_00 },
      groups: [{ key: 'f1', name: 'India vs Australia', count: 1, stake: 100_00 }, { key: 'f2', name: 'England vs New Zealand', count: 2, stake: 500_00 }],
    };
    expect(answerRows(ask, output, getBetHistory.rows!, scope).text)
      .toBe('Bets by match (2 matches): England vs New Zealand 2 bets, stake 500.00 points; India vs Australia 1 bet, stake 100.00 points.');
  });

  it('says it cannot group a page of a longer result, rather than adding up the page', () => {
    const output = { bets: [bet('India vs Australia', 100_00)], summary: { count: 3, stake: 600_00 } };
    expect(answerRows({ ...ask, groupBy: { ...ask.groupBy!, backend: false } }, output, getBetHistory.rows!, scope).text)
      .toBe("I can only read the first 1 of 3 bets, so I can't group them by match exactly.");
  });
});

describe('a report made and shared', () => {
  it('stays the report and its share: a report "by match" is never turned into a grouped read', async () => {
    const { withRowAsk, rowAskOf } = await import('../../../../src/main/assistant/frame/plan.js');
    const input = { requestId: 'r', text: 'generate bets by match xlsx for india vs australia and share it with me', page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20' as IsoDate, role: 'agent' as const, context: EMPTY_CONTEXT };
    const decision = new RulePlanner().plan(input);
    expect(decision.calls.map((c) => c.tool)).toEqual(['agent.generateReport', 'agent.shareReport']);
    const framed = withRowAsk(decision, rowAskOf(input), input);
    expect(framed.decision).toEqual(decision);
  });
});
