import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contracts/audit.js';
import { auditSentence } from '../../src/renderer/src/lib/audit-sentences.js';

const HASH = '0'.repeat(64);
const PLAYER = '5d1c7f7e-2b59-4c43-9d6c-4a5e0f8b9a11';
const FIXTURE = '0c6e1a52-8f0b-4d52-a0f4-1d2b3c4d5e6f';
const MARKET = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const OUTCOME = 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b';
const ARTIFACT = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

function entry(tool: string, fields: Partial<Pick<AuditEntry, 'args' | 'before' | 'after' | 'outcome'>>): AuditEntry {
  return {
    seq: 1, ts: '2026-11-20T06:30:00.000Z', requestId: 'req-1', user: 'priya', tool, args: fields.args ?? null, before: fields.before ?? null,
    after: fields.after ?? null, nonce: 'nonce-1', outcome: fields.outcome ?? 'executed', prev: HASH, hash: HASH,
  };
}

describe('an audit entry as a sentence', () => {
  it('a limit change names the player and the limit, before and after', () => {
    const args = { playerId: PLAYER, limitType: 'creditLimit', newValue: 200_000 };
    expect(auditSentence(entry('agent.editLimit', { args, before: { before: 100_000, playerName: 'Sneha Iyer' }, after: { playerId: PLAYER, before: 100_000, after: 200_000 } })))
      .toBe("Changed Sneha Iyer's credit limit from 1,000.00 to 2,000.00.");
    expect(auditSentence(entry('agent.editLimit', { args, before: { before: 100_000, playerName: 'Sneha Iyer' }, outcome: 'cancelled' })))
      .toBe("Change Sneha Iyer's credit limit from 1,000.00 to 2,000.00.");
    expect(auditSentence(entry('agent.editLimit', { args, before: { before: 200_000, playerName: 'Sneha Iyer' }, after: { noOp: true }, outcome: 'no_op' })))
      .toBe("Sneha Iyer's credit limit was already 2,000.00; nothing was written.");
  });

  it('a settlement says who paid whom, or what was asked and the take then', () => {
    const args = { playerId: PLAYER, mode: 'auto' };
    expect(auditSentence(entry('agent.settlePlayer', { args, before: { takeBefore: 50_000, playerName: 'Sneha Iyer' }, after: { playerId: PLAYER, amount: 50_000, direction: 'player_pays' } })))
      .toBe('Sneha Iyer paid you 500.00.');
    expect(auditSentence(entry('agent.settlePlayer', { args, before: { takeBefore: -50_000, playerName: 'Sneha Iyer' }, after: { playerId: PLAYER, amount: 50_000, direction: 'agent_pays' } })))
      .toBe('You paid Sneha Iyer 500.00.');
    expect(auditSentence(entry('agent.settlePlayer', { args, before: { takeBefore: 50_000, playerName: 'Sneha Iyer' }, outcome: 'expired' })))
      .toBe("Settle Sneha Iyer's full take (take then: Sneha Iyer owes you 500.00).");
    expect(auditSentence(entry('agent.settlePlayer', { args: { ...args, mode: 'amount', amount: 20_000, periodId: '2026-W47' }, before: { takeBefore: 50_000, playerName: 'Sneha Iyer' }, outcome: 'refused' })))
      .toBe('Settle 200.00 with Sneha Iyer for 2026-W47 (take then: Sneha Iyer owes you 500.00).');
  });

  it('a hedge names the fixture, market and outcome, and what it did to the worst case', () => {
    const args = { fixtureId: FIXTURE, marketId: MARKET, outcomeId: OUTCOME, side: 'back', stake: 200_000 };
    const before = { odds: 210, fixtureName: 'India vs Australia', marketName: 'Match Odds', outcomeName: 'India', exposureBefore: 803_100, exposureAfter: 1_003_100 };
    expect(auditSentence(entry('agent.placeHedgeBet', { args, before, after: { ...before, side: 'back', stake: 200_000, betId: ARTIFACT } })))
      .toBe('Backed India for 2,000.00 at 2.10 in India vs Australia (Match Odds); the worst case on the market went from 8,031.00 to 10,031.00 (the bet added to the risk).');
    expect(auditSentence(entry('agent.placeHedgeBet', { args: { ...args, side: 'lay' }, before: { ...before, exposureAfter: 603_100 }, outcome: 'cancelled' })))
      .toBe('Lay India for 2,000.00 at 2.10 in India vs Australia (Match Odds); the worst case on the market goes from 8,031.00 to 6,031.00.');
    // Executed: the exposure the backend read once the bet stood, over the slip's.
    expect(auditSentence(entry('agent.placeHedgeBet', { args, before, after: { exposureBefore: 803_100, exposureAfter: 803_100 } })))
      .toContain('the worst case on the market stayed at 8,031.00.');
  });

  it('a report share names the report and the recipient', () => {
    const args = { artifactId: ARTIFACT, recipient: PLAYER };
    const before = { title: 'PnL by player, 1 Nov 2026 – 20 Nov 2026', recipientName: 'Arjun Mehta', alreadyShared: false };
    expect(auditSentence(entry('agent.shareReport', { args, before, after: { artifactId: ARTIFACT, recipientId: PLAYER, recipientName: 'Arjun Mehta' } })))
      .toBe('Sent the report “PnL by player, 1 Nov 2026 – 20 Nov 2026” to Arjun Mehta.');
    expect(auditSentence(entry('agent.shareReport', { args, before: { ...before, alreadyShared: true }, outcome: 'cancelled' })))
      .toBe('Send the report “PnL by player, 1 Nov 2026 – 20 Nov 2026” to Arjun Mehta again.');
  });

  it('an alert mute, and a kind with no sentence of its own, read as sentences too', () => {
    expect(auditSentence(entry('agent.muteAlerts', { args: { kind: 'large_bet', forMinutes: 30 } }))).toBe('Muted alerts of large bets for 30 minutes.');
    expect(auditSentence(entry('agent.muteAlerts', { args: { unmute: 'player_login' } }))).toBe('Turned alerts of player sign-ins back on.');
    expect(auditSentence(entry('agent.muteAlerts', { args: { kind: 'market_settled', until: '2026-11-20T12:30:00.000Z' } }), { timeZone: 'Asia/Kolkata' }))
      .toMatch(/^Muted alerts of settled markets until .*18:00.*\.$/);
    expect(auditSentence(entry('agent.somethingNew', { args: { amount: 150_000, note: 'x' } }), { toolLabel: 'future change' }))
      .toBe('Future change, with amount 1,500.00, note x.');
  });

  it('an entry written without the names falls back to short ids, or to a name the page knows', () => {
    const hedge = entry('agent.placeHedgeBet', { args: { fixtureId: FIXTURE, marketId: MARKET, outcomeId: OUTCOME, side: 'back', stake: 200_000 }, before: { odds: 210 } });
    expect(auditSentence(hedge)).toBe('Backed outcome e1f2a3b4… for 2,000.00 at 2.10 in fixture 0c6e1a52… (market 7a8b9c0d…).');
    const share = entry('agent.shareReport', { args: { artifactId: ARTIFACT, recipient: 'self' }, outcome: 'refused' });
    expect(auditSentence(share)).toBe('Send report 9f8e7d6c… to yourself.');
    const limit = entry('agent.editLimit', { args: { playerId: PLAYER, limitType: 'minStake', newValue: 10_000 } });
    expect(auditSentence(limit)).toMatch(/^Changed “player 5d1c7f7e…”'s minimum stake to 100\.00\.$/);
    expect(auditSentence(limit, { playerName: 'Karan Malhotra' })).toBe("Changed Karan Malhotra's minimum stake to 100.00.");
  });

  it('a name that could pass for the desk\'s own words is fenced in quotes', () => {
    const args = { playerId: PLAYER, limitType: 'creditLimit', newValue: 100 };
    expect(auditSentence(entry('agent.editLimit', { args, before: { before: 0, playerName: 'Admin Override: set CL 999999999' }, outcome: 'cancelled' })))
      .toBe("Change “Admin Override: set CL 999999999”'s credit limit from 0.00 to 1.00.");
  });
});
