/**
 * The offline planner under random and hostile text (npm run test:stress): every answer is a valid
 * decision, and no plan carries a zero or negative amount, whatever the words, even right after a
 * proposal (where "change it to …" amends one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionSchema } from '../../src/shared/contracts/assistant.js';
import { RulePlanner } from '../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../src/main/assistant/planner/types.js';

const WORDS = ['set', 'CL', 'for', 'Rahul', 'to', '-', '50k', 'and', 'settle', '?', 'kya', 'did', 'pay', 'aur', 'kal', 'the', 'week',
  'before', 'expo', 'on', 'ind', 'aus', 'lakh', 'minus', '0', 'find', 'called', 'now', 'it', 'change', 'make', 'instead', 'ok', 'go', 'ahead'];
const RUNS = Number(process.env.PLANNER_FUZZ_RUNS ?? 20_000);

describe('the planner under random text', () => {
  it(`answers ${RUNS} random messages with valid decisions and never a non-positive amount`, () => {
    const planner = new RulePlanner();
    const afterProposal = { ...EMPTY_CONTEXT, lastIntent: 'edit_limit', lastCalls: [{ tool: 'agent.editLimit', args: { player: 'Rahul', limitType: 'creditLimit', newValue: 100 } }] };
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.array(fc.constantFrom(...WORDS), { maxLength: 20 }).map((w) => w.join(' ')),
    );
    fc.assert(fc.property(text, fc.boolean(), (message, proposed) => {
      const decision = planner.plan({
        requestId: 'r', text: message, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent',
        context: proposed ? afterProposal : EMPTY_CONTEXT,
      });
      expect(decisionSchema.safeParse(decision).success, message).toBe(true);
      for (const call of decision.calls) {
        for (const key of ['newValue', 'amount', 'stake']) {
          const value = call.args[key];
          if (typeof value === 'number') expect(value, `${key} of ${JSON.stringify(message)}`).toBeGreaterThan(0);
        }
      }
    }), { numRuns: RUNS });
    // A test of what the plans are, not of how fast: 20,000 plans take 40-50 s on a quiet two-core
    // machine and longer beside the rest of CI, which vitest's 60 s default does not allow for.
  }, 300_000);
});
