/**
 * A report asked for and sent in one message ("last month ka pnl report excel bana ke mujhe bhej
 * do"): the report is made, and the share's preview names that report, through the real assistant
 * against a real backend. Nothing is sent until the share is confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendClient } from '../../../src/main/backend/connection.js';
import type { User } from '../../../src/shared/contracts/agent-api.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import { type TurnEvent, turnEventSchema } from '../../../src/shared/contracts/chat.js';
import { deskAssistant, openDesk } from '../../helpers/desk.js';
import type { TestBackend } from '../../helpers/backend.js';

let backend: TestBackend, api: BackendClient, user: User, dir: string;
beforeAll(async () => ({ backend, api, user, dir } = await openDesk('report-then-share')));
afterAll(() => backend.close());

async function ask(a: ReturnType<typeof deskAssistant>['a'], text: string) {
  const events: TurnEvent[] = [];
  for await (const event of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, { user, api })) events.push(turnEventSchema.parse(event));
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('a turn must end with done');
  return done.message;
}

const ofType = <T extends Card['type']>(cards: readonly Card[], type: T) => cards.filter((c): c is Extract<Card, { type: T }> => c.type === type);

describe('a report made and shared in one message', () => {
  it('makes the report, then previews its share to the user; confirmed, that report is the one sent', async () => {
    const { a } = deskAssistant(dir);
    const message = await ask(a, "last month ka pnl report excel bana ke mujhe bhej do");
    const [made] = ofType(message.cards, 'report_artifact');
    const [share] = ofType(message.cards, 'report_share');
    expect(made?.data.format).toBe('xlsx');
    expect(share?.data.artifactId).toBe(made?.data.artifactId);
    expect(share?.data.recipientId).toBe(user.id);
    expect(share?.data.refusal).toBeUndefined();
    const confirm = share!.actions?.find((x) => x.id === 'confirm');
    expect(confirm?.nonce).toBeTruthy();
    // Not sent yet: only the confirmation sends it.
    const sent = async () => (await api.reports.sharePreview.query({ artifactId: made!.data.artifactId, recipient: 'self' })).alreadyShared;
    expect(await sent()).toBe(false);
    const reply = await a.confirm({ nonce: confirm!.nonce!, payloadHash: confirm!.payloadHash! }, { user, api });
    expect(reply.resolves?.state).toBe('confirmed');
    expect(await sent()).toBe(true);
  });

  it('names the recipient as a player, never as a filter of the report', async () => {
    const { a, records } = deskAssistant(dir);
    await ask(a, "send last week's settlement log pdf to arjun");
    const calls = records.at(-1)!.calls;
    expect(calls.map((c) => c.tool)).toEqual(['agent.generateReport', 'agent.shareReport']);
    expect(calls[0]!.args).not.toHaveProperty('playerId');
    expect((calls[0]!.args as { filters: Record<string, unknown> }).filters).not.toHaveProperty('playerId');
  });

  it('with no report named, asks which one and makes nothing', async () => {
    const { a, records } = deskAssistant(dir);
    const message = await ask(a, 'send the report to arjun');
    expect(records.at(-1)!.calls).toEqual([]);
    expect(message.cards).toEqual([]);
  });
});
