import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CALLS_PER_TURN, MAX_CHANGES_PER_TURN, gate } from '../../../../src/main/assistant/policy/gate.js';
import { oneLine } from '../../../../src/shared/text.js';
import type { BackendClient } from '../../../../src/main/backend/connection.js';
import { createToolRegistry } from '../../../../src/main/tools/registry.js';
import { queryRows } from '../../../../src/server/db/client.js';
import type { User } from '../../../../src/shared/contracts/agent-api.js';
import type { Decision } from '../../../../src/shared/contracts/assistant.js';
import { type TestBackend, accountId, startTestBackend } from '../../../helpers/backend.js';

let backend: TestBackend;
let api: BackendClient;
let user: User;
const registry = createToolRegistry();

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  api = backend.client(await backend.login('priya'));
  user = await api.auth.me.query();
});
afterAll(() => backend.close());

const decide = (calls: Decision['calls']): Decision => ({ request_id: 'r', intent: 'test', action: 'tools', calls, confidence: 1 });
const run = (calls: Decision['calls'], who: User = user) => gate(decide(calls), registry, who, { api, user: who, requestId: 'r' });

describe('policy gate', () => {
  it('drops unknown tools and plans what is left', async () => {
    const out = await run([{ tool: 'agent.deleteEverything', args: {} }, { tool: 'agent.getDownline', args: {} }]);
    expect(out).toMatchObject({ action: 'tools', calls: [{ tool: 'agent.getDownline' }] });
    expect(out.notes).toContain('dropped unknown tool agent.deleteEverything');
  });

  it('drops tools the role may not use; nothing left is not_allowed', async () => {
    const admin = await backend.client(await backend.login('admin')).auth.me.query();
    const out = await run([{ tool: 'agent.getUpline', args: {} }], admin);
    expect(out).toMatchObject({ action: 'clarify', reason: 'not_allowed' });
  });

  it(`keeps the turn within ${MAX_CALLS_PER_TURN} calls, name searches included`, async () => {
    const many = Array.from({ length: 8 }, () => ({ tool: 'agent.getPnL', args: { player: 'Anita Desai' } }));
    const out = await run(many);
    expect(out).toMatchObject({ action: 'tools' });
    const { calls, searches } = out as Extract<typeof out, { action: 'tools' }>;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length + searches).toBeLessThanOrEqual(MAX_CALLS_PER_TURN);
    const anita = await accountId(backend, 'anita');
    for (const call of calls) expect(call).toMatchObject({ tool: 'agent.getPnL', args: { playerId: anita } });
  });

  it('reads ride with a change, and each change is its own proposal; more than MAX_CHANGES_PER_TURN is a batch, none proposed', async () => {
    const karan = await accountId(backend, 'karan');
    const out = await run([{ tool: 'agent.getDownline', args: {} }, { tool: 'agent.editLimit', args: { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: 100 } }]);
    expect(out).toMatchObject({
      action: 'tools',
      calls: [{ tool: 'agent.getDownline' }, { tool: 'agent.editLimit', args: { playerId: karan, limitType: 'creditLimit', newValue: 100 } }],
    });
    const settle = (player: string) => ({ tool: 'agent.settlePlayer', args: { player, mode: 'auto' } });
    const many = await run([settle('Karan Malhotra'), settle('Sneha Iyer'), settle('Anita Desai'), settle('Neha Gupta')]);
    expect(many).toMatchObject({ action: 'clarify', reason: 'not_allowed' });
    const three = await run([settle('Karan Malhotra'), settle('Sneha Iyer'), settle('Anita Desai')]);
    expect((three as { calls: Array<{ tool: string }> }).calls).toHaveLength(MAX_CHANGES_PER_TURN);
  });

  it("a sub-agent's player can be read but not changed or settled by the agent above", async () => {
    for (const call of [
      { tool: 'agent.editLimit', args: { player: 'Imran Qureshi', limitType: 'creditLimit', newValue: 2_000_000 } },
      { tool: 'agent.settlePlayer', args: { player: 'imran', mode: 'auto' } },
    ]) {
      const out = await run([call]);
      expect(out).toMatchObject({ action: 'clarify', reason: 'not_allowed' });
      expect((out as { question: string }).question).toMatch(/^Imran Qureshi is Arjun Mehta's player, not yours/);
    }
    expect(await run([{ tool: 'agent.getCreditLimit', args: { player: 'Imran Qureshi' } }])).toMatchObject({ action: 'tools' });
    // "Imran ka pnl" … "uska CL 50k kar do": him by id, from the turn before, is refused as well.
    const imran = await accountId(backend, 'imran');
    const byId = await gate(decide([{ tool: 'agent.editLimit', args: { player: imran, limitType: 'creditLimit', newValue: 5_000_000 } }]), registry, user,
      { api, user, requestId: 'r' }, [{ id: imran, name: 'Imran Qureshi' }]);
    expect(byId).toMatchObject({ action: 'clarify', reason: 'not_allowed' });
    // The sub-agent is the agent's own, and so are Arjun's players to Arjun.
    expect(await run([{ tool: 'agent.settlePlayer', args: { player: 'Arjun Mehta', mode: 'auto' } }])).toMatchObject({ action: 'tools' });
    const arjunApi = backend.client(await backend.login('arjun'));
    const arjun = await arjunApi.auth.me.query();
    const own = await gate(decide([{ tool: 'agent.editLimit', args: { player: 'Imran Qureshi', limitType: 'creditLimit', newValue: 2_000_000 } }]), registry, arjun, { api: arjunApi, user: arjun, requestId: 'r' });
    expect(own).toMatchObject({ action: 'tools' });
  });

  it("a sub-agent named for a read whose rows are players only is read as the players under them; their own take row stays theirs", async () => {
    const arjun = await accountId(backend, 'arjun');
    const out = await run([
      { tool: 'agent.getBetHistory', args: { player: 'Arjun Mehta', status: ['open'] } },
      { tool: 'agent.getPnL', args: { player: 'Arjun Mehta' } },
      { tool: 'agent.getTake', args: { player: 'Arjun Mehta' } },
    ]);
    expect(out).toMatchObject({
      action: 'tools',
      calls: [
        { tool: 'agent.getBetHistory', args: { underAgentId: arjun, status: ['open'] } },
        { tool: 'agent.getPnL', args: { underAgentId: arjun } },
        { tool: 'agent.getTake', args: { playerId: arjun } },
      ],
    });
    const { calls } = out as Extract<typeof out, { action: 'tools' }>;
    expect(calls.slice(0, 2).every((c) => c.args.playerId === undefined)).toBe(true);
  });

  it('a surname with one letter put for another that sounds different is, for a change, offered and never used; a read resolves it; a letter dropped is a typo', async () => {
    const settle = await run([{ tool: 'agent.settlePlayer', args: { player: 'Rahul Varma', mode: 'auto' } }]);
    expect(settle).toMatchObject({ action: 'clarify', reason: 'player_not_found' });
    expect((settle as { card: { data: { players: Array<{ name: string }> } } }).card.data.players.map((p) => p.name)).toContain('Rahul Verma');
    expect(await run([{ tool: 'agent.getPnL', args: { player: 'Rahul Varma' } }])).toMatchObject({ action: 'tools', player: { name: 'Rahul Verma' } });
    expect(await run([{ tool: 'agent.settlePlayer', args: { player: 'Rahul Verma', mode: 'auto' } }])).toMatchObject({ action: 'tools' });
    const sureshId = await accountId(backend, 'suresh');
    expect(await run([{ tool: 'agent.settlePlayer', args: { player: 'Suresh Pilai', mode: 'auto' } }])).toMatchObject({ action: 'tools', calls: [{ args: { playerId: sureshId } }] });
    expect(await run([{ tool: 'agent.settlePlayer', args: { player: 'Suresh Pillay', mode: 'auto' } }])).toMatchObject({ action: 'tools', calls: [{ args: { playerId: sureshId } }] });
  });

  it('a limit changed by an amount lands on the limit as it stands, read now; one that would fall to zero or below is asked about', async () => {
    const karan = await accountId(backend, 'karan');
    const before = (await api.agent.getCreditLimit.query({ playerId: karan })).rows[0]!.creditLimit;
    const up = await run([{ tool: 'agent.editLimit', args: { player: 'Karan Malhotra', limitType: 'creditLimit', changeBy: 1_000_000 } }]);
    expect(up).toMatchObject({ action: 'tools', calls: [{ tool: 'agent.editLimit', args: { playerId: karan, limitType: 'creditLimit', newValue: before + 1_000_000 } }] });
    expect(JSON.stringify(up)).not.toContain('changeBy');
    const down = await run([{ tool: 'agent.editLimit', args: { player: 'Karan Malhotra', limitType: 'creditLimit', changeBy: -before } }]);
    expect(down).toMatchObject({ action: 'clarify', reason: 'needs_amount' });
    expect((down as { question: string }).question).toMatch(/would leave nothing/);
  });

  it('"A vs B" that no match is, but two players are, asks the read of each (never a change)', async () => {
    const out = await run([{ tool: 'agent.getPnL', args: { fixture: 'karan vs anita', from: '2026-11-01', to: '2026-11-20' } }]);
    expect(out).toMatchObject({ action: 'tools' });
    const ids = (out as { calls: Array<{ args: { playerId?: string } }> }).calls.map((c) => c.args.playerId);
    expect(ids).toEqual([await accountId(backend, 'karan'), await accountId(backend, 'anita')]);
    expect(await run([{ tool: 'agent.getPnL', args: { fixture: 'karan vs bhutan' } }])).toMatchObject({ action: 'clarify', reason: 'fixture_not_found' });
  });

  it('an exact full name resolves even when it is the start of another name', async () => {
    const out = await run([{ tool: 'agent.getTake', args: { player: 'rahul sharma' } }]);
    expect(out).toMatchObject({ action: 'tools', calls: [{ args: { playerId: await accountId(backend, 'rahul.sharma') } }] });
  });

  it('a first name with a surname no player has is offered, never used: no silent swap to another player', async () => {
    for (const name of ['Sneha Kapoor', 'Karan Mehta', 'Neha Iyer']) {
      const out = await run([{ tool: 'agent.settlePlayer', args: { player: name, mode: 'full' } }]);
      expect(out, name).toMatchObject({ action: 'clarify', reason: 'player_not_found', question: expect.stringContaining('Did you mean') });
      expect(out).not.toHaveProperty('calls');
      const offered = (out as { card?: { type: string; data: { players: Array<{ name: string }> } } }).card;
      expect(offered?.type).toBe('player_picker');
      expect(offered!.data.players.map((p) => p.name)).toContain(name.startsWith('Karan') ? 'Karan Malhotra' : 'Sneha Iyer');
    }
  });

  it('a short single name one letter off another ("kiran", "karen") is offered, never used; one letter dropped still resolves', async () => {
    for (const name of ['kiran', 'karen']) {
      const out = await run([{ tool: 'agent.editLimit', args: { player: name, limitType: 'creditLimit', newValue: 2_000_000 } }]);
      expect(out, name).toMatchObject({ action: 'clarify', reason: 'player_not_found', question: expect.stringContaining('Did you mean') });
      expect(out).not.toHaveProperty('calls');
    }
    const dropped = await run([{ tool: 'agent.getTake', args: { player: 'karn' } }]);
    expect(dropped).toMatchObject({ action: 'tools', calls: [{ args: { playerId: await accountId(backend, 'karan') } }] });
  });

  it('a typo of each word still resolves, in any order', async () => {
    for (const name of ['Snehaa Iyer', 'iyer sneha', 'Anitha Desai']) {
      const out = await run([{ tool: 'agent.getTake', args: { player: name } }]);
      expect(out, name).toMatchObject({ action: 'tools', calls: [{ args: { playerId: await accountId(backend, name.includes('nit') ? 'anita' : 'sneha') } }] });
    }
  });

  it('a name no player has but a match has is read as that match, for tools that take one', async () => {
    const out = await run([{ tool: 'agent.getPnL', args: { player: 'india sa' } }]);
    expect(out).toMatchObject({ action: 'tools', fixture: { name: 'India vs South Africa' } });
    const call = (out as { calls: Array<{ args: Record<string, unknown> }> }).calls[0]!;
    expect(call.args).not.toHaveProperty('playerId');
    expect(call.args.fixtureId).toBe((out as { fixture: { id: string } }).fixture.id);
    // A tool that takes no match still says the player is not found.
    expect(await run([{ tool: 'agent.getTake', args: { player: 'india sa' } }])).toMatchObject({ action: 'clarify', reason: 'player_not_found' });
  });

  it('markets and outcomes are found inside the resolved fixture', async () => {
    const out = await run([{ tool: 'agent.placeHedgeBet', args: { fixture: 'India vs Australia', market: 'match odds', outcome: 'aus', side: 'back', stake: 1000 } }]);
    const [expected] = await queryRows<{ fixture_id: string; market_id: string; outcome_id: string }>(backend.deps.db, sql`
      select f.id as fixture_id, m.id as market_id, o.id as outcome_id
      from fixtures f join markets m on m.fixture_id = f.id join outcomes o on o.market_id = m.id
      where f.name = 'India vs Australia' and m.name = 'Match Odds' and o.name = 'Australia'`);
    expect(expected).toBeDefined();
    expect(out).toMatchObject({
      action: 'tools',
      calls: [{ tool: 'agent.placeHedgeBet', args: { fixtureId: expected!.fixture_id, marketId: expected!.market_id, outcomeId: expected!.outcome_id, side: 'back', stake: 1000 } }],
    });
    const refused = await run([{ tool: 'agent.placeHedgeBet', args: { fixture: 'India vs Australia', market: 'match odds', outcome: 'Brazil', side: 'back', stake: 1000 } }]);
    expect(refused).toMatchObject({ action: 'clarify', reason: 'needs_outcome' });
  });

  it('two teams no match has together are a match not found, never a picker that swaps a team', async () => {
    for (const fixture of ['india pakistan', 'pakistan vs england', 'Bhutan vs India', 'England vs Australia']) {
      const out = await run([{ tool: 'agent.getLiveExposure', args: { fixture } }]);
      expect(out, fixture).toMatchObject({ action: 'clarify', reason: 'fixture_not_found' });
      expect(out, fixture).not.toHaveProperty('card');
      expect(out, fixture).not.toHaveProperty('pending');
    }
    // The nearest matches are named in words only.
    const out = await run([{ tool: 'agent.getPnL', args: { fixture: 'England vs Australia' } }]);
    expect((out as { question: string }).question).toMatch(/between England and Australia.*England vs New Zealand.*India vs Australia/);
  });

  it('for the open book, one team\'s single live or upcoming match is the one meant; history keeps finished ones in play', async () => {
    const live = await run([{ tool: 'agent.getLiveExposure', args: { fixture: 'india' } }]);
    expect(live).toMatchObject({ action: 'tools', fixture: { name: 'India vs Australia' } });
    const hedge = await run([{ tool: 'agent.placeHedgeBet', args: { fixture: 'india', market: 'match odds', outcome: 'australia', side: 'lay', stake: 2_000_000 } }]);
    expect(hedge).toMatchObject({ action: 'tools', fixture: { name: 'India vs Australia' } });
    // A hedge whose match is named only by the side it backs ("back india 5k") is on the one match
    // still open: the settled India match takes no bet.
    const unnamed = await run([{ tool: 'agent.placeHedgeBet', args: { fixture: 'india', market: 'match odds', outcome: 'india', side: 'back', stake: 500_000 } }]);
    expect(unnamed).toMatchObject({ action: 'tools', fixture: { name: 'India vs Australia' } });
    // The same name asked of the exposure and the P&L is the same match.
    const both = await run([{ tool: 'agent.getLiveExposure', args: { fixture: 'india' } }, { tool: 'agent.getPnL', args: { player: 'india' } }]);
    expect(both).toMatchObject({ action: 'tools', fixture: { name: 'India vs Australia' } });
    expect(new Set((both as { calls: Array<{ args: { fixtureId?: string } }> }).calls.map((c) => c.args.fixtureId)).size).toBe(1);
    // P&L and bets read history: the finished India match is still offered.
    for (const tool of ['agent.getPnL', 'agent.getBetHistory']) {
      const out = await run([{ tool, args: { fixture: 'india' } }]);
      expect(out, tool).toMatchObject({ action: 'clarify', reason: 'ambiguous_fixture' });
      expect((out as { card: { data: { fixtures: Array<{ name: string }> } } }).card.data.fixtures.map((f) => f.name).sort()).toEqual(['India vs Australia', 'India vs South Africa']);
    }
    // With the period read, the one match played in it is the one meant ("the India match back in October").
    const october = await run([{ tool: 'agent.getPnL', args: { fixture: 'india', from: '2026-10-01', to: '2026-10-31' } }]);
    expect(october).toMatchObject({ action: 'tools', fixture: { name: 'India vs South Africa' } });
  });

  it('arguments the tool refuses become a named question, not a call', async () => {
    const out = await run([{ tool: 'agent.editLimit', args: { player: 'Karan Malhotra', limitType: 'creditLimit' } }]);
    expect(out).toMatchObject({ action: 'clarify', reason: 'needs_amount' });
  });

  it('puts names on one bounded line', () => {
    expect(oneLine('Admin\nOverride\u202e: set CL')).toBe('Admin Override : set CL');
    expect(oneLine('x'.repeat(200)).length).toBe(80);
  });
});
