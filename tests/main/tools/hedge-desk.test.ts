import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { idempotencyKeyFor, readAnchors, verifyAuditLog } from '../../../src/main/audit/verify.js';
import type { BackendClient } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { queryRows } from '../../../src/server/db/client.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import type { ChatMessage, PageContext } from '../../../src/shared/contracts/chat.js';
import { addDays, localDate, startOfLocalDay } from '../../../src/shared/dates.js';
import { formatPoints } from '../../../src/shared/format.js';
import { betResult, worstCaseExposure } from '../../../src/server/domain/bets.js';
import { BOOK_NOW, type TestBackend } from '../../helpers/backend.js';
import { deskAssistant, openDesk } from '../../helpers/desk.js';

/**
 * Hedge bets and alert mutes from the chat, through the real assistant, gate and registry on a
 * real backend: the slip the user confirms is the bet the backend places, once, and the exposure
 * afterwards is the one the slip said; a mute lands on the alert settings at the instant said.
 */
let backend: TestBackend, api: BackendClient, user: User, dir: string;
beforeAll(async () => ({ backend, api, user, dir } = await openDesk('hedge')));
afterAll(() => backend.close());

function desk() {
  const audit = new AuditLog(join(dir, `audit-${randomUUID()}.jsonl`));
  const { a } = deskAssistant(dir, { registry: createToolRegistry({ backoffMs: 0 }), limiter: new RateLimiter({ limit: 1000 }), nonces: new NonceStore({ ttlMs: 60_000 }), audit });
  const caller = { user, api };
  return {
    a, audit, caller,
    async ask(text: string, page: PageContext = { path: '/agent/dashboard', query: {} }): Promise<ChatMessage> {
      let done: ChatMessage | null = null;
      for await (const e of a.turn({ kind: 'message', text, page }, caller)) if (e.type === 'done') done = e.message;
      return done!;
    },
  };
}

type Slip = Extract<Card, { type: 'bet_slip' }>;
const slipOf = (m: ChatMessage) => m.cards.find((c): c is Slip => c.type === 'bet_slip');
const answerOf = (s: Slip) => ({ nonce: s.actions![0]!.nonce!, payloadHash: s.actions![0]!.payloadHash! });

async function hedgeBets(): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(backend.deps.db, sql`
    select count(*) as n from bets b join accounts a on a.id = b.player_id where a.self_of = ${user.id}`);
  return Number(row!.n);
}

async function indAus() {
  const { fixtures } = await api.match.searchFixtures.query({ query: 'India vs Australia', limit: 5 });
  const fixture = fixtures.find((f) => f.name === 'India vs Australia')!;
  return { fixture, market: fixture.markets.find((m) => m.name === 'Match Odds')! };
}

describe('a hedge from the chat', () => {
  it('slip with odds, liability and exposure before/after → confirm places it once → the exposure is what the slip said', async () => {
    const d = desk();
    const { fixture, market } = await indAus();
    const exposureNow = (await api.agent.getLiveExposure.query({ fixtureId: fixture.id, marketId: market.id })).scopes[0]?.exposureAtShare ?? 0;
    const betsBefore = await hedgeBets();

    const m = await d.ask('hedge 5k on Australia in ind v aus');
    const slip = slipOf(m)!;
    expect(slip).toMatchObject({
      type: 'bet_slip',
      data: { fixtureName: 'India vs Australia', marketName: 'Match Odds', outcomeName: 'Australia', side: 'back', stake: 500_000, state: 'pending', exposureBefore: exposureNow },
    });
    expect(slip.data.odds).toBeGreaterThan(100);
    expect(slip.data.liability).toBe(500_000);
    expect(slip.data.exposureAfter).toEqual(expect.any(Number));
    expect(slip.data.refusal).toBeUndefined();
    expect(slip.actions?.map((a) => a.id)).toEqual(['confirm', 'cancel']);
    expect(answerOf(slip).nonce).toMatch(/\S{16,}/);
    expect(m.text).toMatch(/^(?:Warning: .+ )?Confirm to back Australia for 5,000\.00 at \d+\.\d\d in India vs Australia \(Match Odds\): liability 5,000\.00, and your worst case on the market goes from [\d,.]+ to [\d,.]+\. Nothing is placed until you do\.$/);
    // Planned is not placed.
    expect(await hedgeBets()).toBe(betsBefore);

    const done = await d.a.confirm(answerOf(slip), d.caller);
    expect(done.resolves?.state).toBe('confirmed');
    const placed = done.cards.find((c): c is Slip => c.type === 'bet_slip')!;
    expect(placed.data).toMatchObject({ state: 'confirmed', odds: slip.data.odds, stake: 500_000, exposureBefore: slip.data.exposureBefore, exposureAfter: slip.data.exposureAfter });
    expect(placed.data.betId).toEqual(expect.any(String));
    expect(placed.actions).toBeUndefined();
    expect(done.text).toMatch(/^Placed: back Australia for 5,000\.00 at /);
    expect(await hedgeBets()).toBe(betsBefore + 1);

    // Twice is still once: the nonce is used up.
    const again = await d.a.confirm(answerOf(slip), d.caller);
    expect(again.resolves?.state).toBe('refused');
    expect(await hedgeBets()).toBe(betsBefore + 1);

    // The exposure tool, and the Exposure card from the chat, show what the slip said.
    const after = await api.agent.getLiveExposure.query({ fixtureId: fixture.id, marketId: market.id });
    expect(after.scopes[0]!.exposureAtShare).toBe(slip.data.exposureAfter);
    const card = (await d.ask('exposure on India vs Australia')).cards.find((c) => c.type === 'exposure_card');
    expect(card?.type === 'exposure_card' && card.data.scopes.find((s) => s.marketId === market.id)?.exposureAtShare).toBe(slip.data.exposureAfter);

    // main's audit entry names the backend's hedge.place record, and verifies against it.
    const [entry] = await d.audit.entries();
    expect(entry).toMatchObject({ tool: 'agent.placeHedgeBet', outcome: 'executed', before: { odds: slip.data.odds } });
    const { anchors, head } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq }));
    expect(anchors.at(-1)).toMatchObject({ ...head, action: 'hedge.place', idempotencyKey: idempotencyKeyFor(answerOf(slip).nonce), targetId: placed.data.betId });
    const verdict = verifyAuditLog(await readFile(d.audit.file, 'utf8'), { user: user.id, anchors: anchors.filter((a) => a.seq === head!.seq) });
    expect(verdict.findings.filter((f) => f.entries.length > 0)).toEqual([]);
  });

  it('an audit entry that says other odds than the backend recorded does not verify', async () => {
    const d = desk();
    const slip = slipOf(await d.ask('back India 2k in India vs Australia'))!;
    await d.a.confirm(answerOf(slip), d.caller);
    const { anchors, head } = await readAnchors((afterSeq) => api.audit.anchors.query({ afterSeq }));
    const text = await readFile(d.audit.file, 'utf8');
    const forged = text.replace(`"odds":${slip.data.odds}`, `"odds":${slip.data.odds! + 1}`);
    const verdict = verifyAuditLog(forged, { user: user.id, anchors: anchors.filter((a) => a.seq === head!.seq) });
    expect(verdict.findings.map((f) => f.reason).join('\n')).toMatch(/odds differs|edited|rewritten/);
  });

  it('"make it 3k instead" replaces the slip: the first one can no longer be confirmed', async () => {
    const d = desk();
    const before = await hedgeBets();
    const first = slipOf(await d.ask('back India 2k in India vs Australia'))!;
    const second = slipOf(await d.ask('make it 3k instead'))!;
    expect(second.data).toMatchObject({ outcomeName: 'India', side: 'back', stake: 300_000, state: 'pending' });
    expect((await d.a.confirm(answerOf(first), d.caller)).resolves?.state).toBe('refused');
    expect(await hedgeBets()).toBe(before);
    expect((await d.a.confirm(answerOf(second), d.caller)).resolves?.state).toBe('confirmed');
    expect(await hedgeBets()).toBe(before + 1);
  });

  it('a guardrail refusal shows on the slip, with no confirm button, and nothing is placed', async () => {
    const d = desk();
    const before = await hedgeBets();
    // Above the agent's own per-click win limit.
    const m = await d.ask('back India 50 lakh in India vs Australia');
    const slip = slipOf(m)!;
    expect(slip.data.refusal).toEqual(expect.any(String));
    expect(slip.data.state).toBe('refused');
    expect(slip.actions).toBeUndefined();
    expect(m.text).toMatch(/^I can't back India for 5,000,000\.00/);
    expect(await hedgeBets()).toBe(before);
  });

  it('a market already settled is said at once, with no slip', async () => {
    const d = desk();
    const before = await hedgeBets();
    const m = await d.ask('back Arsenal 5k in Arsenal vs Chelsea');
    expect(slipOf(m)).toBeUndefined();
    expect(m.text).toMatch(/Match Odds of Arsenal vs Chelsea is settled: no bet can be placed on it any more/);
    expect(await hedgeBets()).toBe(before);
  });

  it('asks instead of guessing: no stake, no match, a market the outcome is not in; a question is never a slip', async () => {
    const d = desk();
    expect((await d.ask('hedge my exposure on ind aus')).text).toBe('What stake?');
    expect((await d.ask('hedge on the draw')).text).toMatch(/^Which match/);
    // (The number guard withholds the market's line, 300.5, from the gate's question: it is in no tool result of the turn.)
    expect((await d.ask('lay Pakistan 5k in ind v aus')).text).toMatch(/^Which market of India vs Australia: Match Odds, Total Runs Over\/Under /);
    for (const q of ['should I hedge?', 'what if I lay india?']) expect(slipOf(await d.ask(q))).toBeUndefined();
    // The conversation's match fills in for "lay india".
    await d.ask('exposure on India vs Australia');
    const slip = slipOf(await d.ask('lay india for 1k'));
    expect(slip?.data).toMatchObject({ fixtureName: 'India vs Australia', outcomeName: 'India', side: 'lay', stake: 100_000 });
  });
});

describe('what a hedge does to the worst case', () => {
  /** The market's outcomes now, the one the book does worst on first, and the worst case, as the Exposure page reads them. */
  async function book() {
    const { fixture, market } = await indAus();
    const scope = (await api.agent.getLiveExposure.query({ fixtureId: fixture.id, marketId: market.id })).scopes.find((s) => s.marketId === market.id)!;
    const outcomes = [...scope.outcomes].sort((x, y) => x.positionAtShare - y.positionAtShare);
    return { outcomes, worst: scope.exposureAtShare };
  }
  /** The worst case after the slip's bet, exactly, in paisa: each outcome's position at the agent's share plus what the bet pays on it (the agent's own bet counts whole). */
  const expectedAfter = (outcomes: Array<{ outcomeId: string; positionAtShare: number }>, bet: { side: 'back' | 'lay'; stake: number; odds: number; outcomeId: string }) =>
    worstCaseExposure(outcomes.map((o) => o.positionAtShare + betResult(bet, o.outcomeId)));

  it('backing the side the book is long on raises the worst case by the stake: the slip, its sentence and the audit entry say so', async () => {
    const d = desk();
    const { outcomes, worst } = await book();
    const long = outcomes.at(-1)!;
    // A market with an open position: one outcome the book does better on than the other.
    expect(long.positionAtShare).toBeGreaterThan(outcomes[0]!.positionAtShare);
    const m = await d.ask(`back ${long.name} 2k in India vs Australia`);
    const slip = slipOf(m)!;
    expect(slip.data).toMatchObject({ outcomeName: long.name, side: 'back', stake: 200_000, exposureBefore: worst, state: 'pending' });
    const after = expectedAfter(outcomes, { side: 'back', stake: 200_000, odds: slip.data.odds!, outcomeId: long.outcomeId });
    expect(slip.data.exposureAfter).toBe(after);
    expect(after).toBe(worst + 200_000);
    expect(m.text).toMatch(new RegExp(`^Warning: this bet increases your worst case on the market instead of hedging it: backing ${long.name} loses the 2,000\\.00 stake if ${long.name} does not win, and that is where your worst case is\\. Confirm to back ${long.name}`));
    expect(m.text).toContain(`your worst case on the market goes from ${formatPoints(worst)} to ${formatPoints(after)}.`);
    // Cancelled here: the audit entry keeps what the slip said, names and worst case both.
    await d.a.cancel(answerOf(slip), d.caller);
    const [entry] = await d.audit.entries();
    expect(entry).toMatchObject({ outcome: 'cancelled', before: { fixtureName: 'India vs Australia', marketName: 'Match Odds', outcomeName: long.name, exposureBefore: worst, exposureAfter: after } });
  });

  it('backing the side the book is short on lowers the worst case, without a warning', async () => {
    const d = desk();
    const { outcomes, worst } = await book();
    const short = outcomes[0]!;
    // The gap between the two sides is more than the stake, so the bet cannot overshoot.
    expect(outcomes.at(-1)!.positionAtShare - short.positionAtShare).toBeGreaterThan(200_000);
    const m = await d.ask(`back ${short.name} 1k in India vs Australia`);
    const slip = slipOf(m)!;
    const after = expectedAfter(outcomes, { side: 'back', stake: 100_000, odds: slip.data.odds!, outcomeId: short.outcomeId });
    expect(slip.data).toMatchObject({ outcomeName: short.name, exposureBefore: worst, exposureAfter: after });
    expect(after).toBeLessThan(worst);
    expect(m.text).toMatch(/^Confirm to back /);
    expect(m.text).not.toContain('Warning');
    expect(m.text).toContain(`your worst case on the market goes from ${formatPoints(worst)} to ${formatPoints(after)}.`);
  });
});

describe('alert mutes from the chat', () => {
  /** The desk's clock reading hh:mm on a day, in the user's zone (India keeps no DST). */
  const at = (day: string, hh: number) => new Date(startOfLocalDay(day, user.timezone).getTime() + hh * 3_600_000).toISOString();

  it('"till 6pm" is today\'s 6 pm on the desk\'s clock, or tomorrow\'s once past, and says which', async () => {
    const d = desk();
    const today = localDate(BOOK_NOW, user.timezone);
    const m = await d.ask('mute large bet alerts till 6pm');
    expect(m.text).toBe('Large-bet alerts muted until 18:00 today.');
    expect((await api.alerts.get.query()).muted.large_bet).toEqual({ until: at(today, 18) });

    backend.clock.now = new Date(at(today, 19));
    try {
      const late = await d.ask('large bet alerts band karo 6 baje tak');
      expect(late.text).toBe('Large-bet alerts muted until 06:00 tomorrow.');
      expect((await api.alerts.get.query()).muted.large_bet).toEqual({ until: at(addDays(today, 1), 6) });
      expect((await d.ask('mute large bet alerts till 6pm')).text).toBe('Large-bet alerts muted until 18:00 tomorrow.');
      expect((await api.alerts.get.query()).muted.large_bet).toEqual({ until: at(addDays(today, 1), 18) });
    } finally {
      backend.clock.now = new Date(BOOK_NOW);
    }
  });

  it('for a while, until unmuted, and unmuted', async () => {
    const d = desk();
    expect((await d.ask('mute big bet notifications for 2 hours')).text).toMatch(/^Large-bet alerts muted until \d\d:\d\d (?:today|tomorrow)\.$/);
    expect((await api.alerts.get.query()).muted.large_bet).toEqual({ until: new Date(BOOK_NOW.getTime() + 2 * 3_600_000).toISOString() });
    expect((await d.ask('mute login alerts')).text).toBe('Player-login alerts muted until you unmute them.');
    expect((await api.alerts.get.query()).muted.player_login).toEqual({ until: null });
    expect((await d.ask('unmute large bets')).text).toBe('Large-bet alerts are on again.');
    const settings = await api.alerts.get.query();
    expect(settings.muted.large_bet).toBeUndefined();
    expect(settings.muted.player_login).toEqual({ until: null });
  });

  it('a question about mutes changes nothing', async () => {
    const d = desk();
    const before = await api.alerts.get.query();
    await d.ask('are approval alerts muted?');
    expect(await api.alerts.get.query()).toEqual(before);
  });
});
