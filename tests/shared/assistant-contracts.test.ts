import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CARD_TYPES, cardSchema, decisionSchema, envelopeSchema } from '../../src/shared/contracts/assistant.js';

const decision = { request_id: 'r1', intent: 'pnl', action: 'tools', calls: [{ tool: 'agent.getPnL', args: { from: '2026-11-20' } }], confidence: 0.9 };

describe('the decision contract', () => {
  it('accepts a well-formed decision of each action', () => {
    expect(decisionSchema.safeParse(decision).success).toBe(true);
    expect(decisionSchema.safeParse({ ...decision, action: 'direct', calls: [] }).success).toBe(true);
    expect(decisionSchema.safeParse({ ...decision, action: 'clarify', calls: [], clarify: { reason: 'needs_amount', question: 'To how much?' } }).success).toBe(true);
  });

  it.each([
    ['an unknown action', { ...decision, action: 'execute' }],
    ['confidence above 1', { ...decision, confidence: 1.5 }],
    ['a tool name that is not one', { ...decision, calls: [{ tool: 'rm -rf /', args: {} }] }],
    ['more than 6 calls', { ...decision, calls: Array.from({ length: 7 }, () => decision.calls[0]) }],
    ['tools with no call', { ...decision, calls: [] }],
    ['clarify with no reason', { ...decision, action: 'clarify', calls: [] }],
    ['an unknown reason', { ...decision, action: 'clarify', calls: [], clarify: { reason: 'because', question: '?' } }],
    ['an extra field', { ...decision, nonce: 'forged' }],
  ])('refuses %s', (_what, value) => {
    expect(decisionSchema.safeParse(value).success).toBe(false);
  });
});

describe('cards and the envelope', () => {
  it('has exactly the card types of AGENT.md, the report share proposal and the statement', () => {
    expect([...CARD_TYPES].sort()).toEqual([
      'balance_card', 'bet_slip', 'bet_table', 'commission_table', 'diff_card', 'downline_tree', 'error_card',
      'exposure_card', 'fixture_picker', 'player_picker', 'pnl_table', 'report_artifact', 'report_share', 'settlement_summary',
      'settlement_table', 'statement_table', 'take_table',
    ]);
  });

  it('checks a card\'s data against its type, and keeps hostile text as plain data', () => {
    const ok = cardSchema.safeParse({ type: 'error_card', data: { code: 'UNAVAILABLE', message: '<img src=x onerror=alert(1)>', retryable: true } });
    expect(ok.success).toBe(true);
    expect(cardSchema.safeParse({ type: 'error_card', data: { code: 'X' } }).success).toBe(false);
    expect(cardSchema.safeParse({ type: 'html_card', data: {} }).success).toBe(false);
  });

  it('wraps every tool answer in the envelope, success or failure', () => {
    const base = { schema_version: 1, generated_at: '2026-11-20T06:30:00.000Z', tool: 'agent.getPnL' };
    expect(envelopeSchema.safeParse({ ...base, ok: true, data: { rows: [] } }).success).toBe(true);
    expect(envelopeSchema.safeParse({ ...base, ok: false, error: { code: 'NOT_FOUND', message: 'player not found' } }).success).toBe(true);
    expect(envelopeSchema.safeParse({ ...base, ok: false, data: {} }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...base, schema_version: 2, ok: true, data: null }).success).toBe(false);
  });

  it('generates JSON Schema from the same zod, for a model and for documentation', () => {
    const decisionJson = z.toJSONSchema(decisionSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(decisionJson.properties)).toEqual(expect.arrayContaining(['request_id', 'intent', 'action', 'calls', 'confidence']));
    const cardsJson = JSON.stringify(z.toJSONSchema(cardSchema, { cycles: 'ref' }));
    for (const type of CARD_TYPES) expect(cardsJson).toContain(`"${type}"`);
  });
});

describe('cards kept in a conversation', () => {
  const takeCard = (data: Record<string, unknown>) => ({ type: 'take_table', data: { rows: [], totals: { take: 0, cl: 0, available: 0 }, nextCursor: null, ...data } });

  it('reads a take card saved before lists counted their matched rows, and one that has the count', () => {
    expect(cardSchema.safeParse(takeCard({})).success).toBe(true);
    expect(cardSchema.safeParse(takeCard({ matched: 3 })).success).toBe(true);
    expect(cardSchema.safeParse(takeCard({ matched: 1.5 })).success).toBe(false);
  });

  it('carries the filter and order its rows were read with as a caption of bounded length', () => {
    expect(cardSchema.safeParse({ ...takeCard({ matched: 0 }), caption: 'Accounts: owing you; highest take first' }).success).toBe(true);
    expect(cardSchema.safeParse({ ...takeCard({ matched: 0 }), caption: 'x'.repeat(301) }).success).toBe(false);
  });
});
