import { describe, expect, it } from 'vitest';
import { fold } from '../../../../src/main/assistant/planner/grammar.js';
import { alertWords } from '../../../../src/main/assistant/planner/intents/mute-alerts.js';
import { RulePlanner } from '../../../../src/main/assistant/planner/rule-planner.js';
import { EMPTY_CONTEXT } from '../../../../src/main/assistant/planner/types.js';
import entries from '../../../../src/main/assistant/planner/lexicon/alerts.json' with { type: 'json' };

const SYNTAX = ['\\', '|', '(', ')', '[', ']', '*', '+', '?', '{', '}', '^', '$'];
const plan = (text: string) => new RulePlanner().plan({ requestId: 'r', text, page: { path: '/agent/dashboard', query: {} }, today: '2026-11-20', role: 'agent', context: EMPTY_CONTEXT });

describe('the words of alerts, as data', () => {
  it('holds words only, each example saying its concept', () => {
    for (const e of entries) {
      expect(SYNTAX.filter((c) => e.phrase.includes(c)), e.phrase).toEqual([]);
      expect([...alertWords(fold(e.example))], e.example).toContain(e.concept);
    }
  });

  it.each([
    ['mute large-bet alerts for an hour', { kind: 'large_bet', forMinutes: 60 }],
    ['silence login alerts till 6pm', { kind: 'player_login', at: '6:00pm' }],
    ['snooze market settled alerts', { kind: 'market_settled' }],
    ['mute approval alerts', { kind: 'approval_pending' }],
    ['turn large bet alerts off', { kind: 'large_bet' }],
    ['turn login alerts back on', { unmute: 'player_login' }],
  ])('%s', (text, args) => {
    const d = plan(text);
    expect(d.calls).toHaveLength(1);
    expect(d.calls[0]!.tool).toBe('agent.muteAlerts');
    expect(d.calls[0]!.args).toMatchObject(args);
  });

  it('reads no kind from a settlement alone, and no mute from alerts named only', () => {
    expect([...alertWords('settlement alerts')]).not.toContain('kind:market');
    expect(plan('which alerts do I get?').calls.map((c) => c.tool)).not.toContain('agent.muteAlerts');
  });
});
