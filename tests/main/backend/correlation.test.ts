import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant } from '../../../src/main/assistant/assistant.js';
import { RateLimiter } from '../../../src/main/assistant/guards/rate-limit.js';
import { FileChatHistory } from '../../../src/main/assistant/history.js';
import { RulePlanner } from '../../../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { type BackendConnection, connectBackend, embeddedConnection } from '../../../src/main/backend/connection.js';
import { NonceStore } from '../../../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { createLogger } from '../../../src/infra/log.js';
import { type BackendServer, startBackendServer } from '../../../src/server/http.js';
import type { Card } from '../../../src/shared/contracts/assistant.js';
import type { ChatMessage } from '../../../src/shared/contracts/chat.js';
import { type TestBackend, startTestBackend } from '../../helpers/backend.js';

/**
 * One correlation id per chat turn: the assistant's request id rides on every backend call of the
 * turn (remote: the x-request-id header; embedded: the local link's context), so the backend's
 * log lines for those procedures and main's own lines for the turn all carry it.
 */
type Line = Record<string, unknown>;
let backend: TestBackend;
let server: BackendServer;
let dir: string;
const backendLines: Line[] = [];
const backendLog = createLogger({ level: 'debug', write: (l) => backendLines.push(JSON.parse(l) as Line) });

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  server = await startBackendServer(backend.deps, backendLog, { port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'correlation-'));
});
afterAll(async () => {
  await server.close();
  await backend.close();
});

const connections: Record<'remote' | 'embedded', () => Promise<BackendConnection>> = {
  remote: () => connectBackend({ mode: 'remote', url: server.url }, backendLog),
  embedded: async () => embeddedConnection(backend, backendLog),
};

type Proposal = Extract<Card, { type: 'diff_card' }>;

describe.each(['remote', 'embedded'] as const)('a chat turn over the %s backend', (mode) => {
  it('carries its request id to every procedure the backend logs for it, and into main\'s lines', async () => {
    const mainLines: Line[] = [];
    const mainLog = createLogger({ level: 'debug', write: (l) => mainLines.push(JSON.parse(l) as Line) });
    const connection = await connections[mode]();
    const api = connection.client(await backend.login('priya'));
    const caller = { user: await api.auth.me.query(), api };
    const a = new Assistant({
      registry: createToolRegistry({ log: mainLog.child({ component: 'tools' }) }), planners: [new RulePlanner()],
      history: new FileChatHistory(join(dir, `${mode}-history`)), nonces: new NonceStore(), audit: new AuditLog(join(dir, `${mode}-audit.jsonl`)),
      limiter: new RateLimiter({ limit: 1000 }), log: mainLog.child({ component: 'assistant' }),
    });

    const turn = async (text: string) => {
      const from = backendLines.length;
      let requestId = '';
      let done: ChatMessage | null = null;
      for await (const e of a.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }, caller)) {
        if (e.type === 'start') requestId = e.requestId;
        if (e.type === 'done') done = e.message;
      }
      return { requestId, done: done!, backend: backendLines.slice(from).filter((l) => typeof l.path === 'string') };
    };

    const read = await turn('exposure and pnl today');
    expect(read.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.backend.map((l) => l.path)).toEqual(expect.arrayContaining(['auth.me', 'agent.getLiveExposure', 'agent.getPnL']));
    for (const line of read.backend) expect(line).toMatchObject({ msg: 'procedure', requestId: read.requestId });
    const ofRead = mainLines.filter((l) => l.requestId === read.requestId);
    expect(ofRead.map((l) => [l.component, l.msg])).toEqual(expect.arrayContaining([['tools', 'tool ok'], ['assistant', 'turn']]));

    // A proposal and its confirmation: the preview under the proposing turn's id, the write under the confirmation's.
    const propose = await turn(`set CL for Karan Malhotra to ${mode === 'remote' ? '55,001' : '55,002'}`);
    expect(propose.backend.map((l) => l.path)).toContain('limits.preview');
    for (const line of propose.backend) expect(line.requestId).toBe(propose.requestId);
    const proposal = propose.done.cards.find((c): c is Proposal => c.type === 'diff_card')!;
    const from = backendLines.length;
    const confirmed = await a.confirm({ nonce: proposal.actions![0]!.nonce!, payloadHash: proposal.actions![0]!.payloadHash! }, caller);
    expect(confirmed.resolves?.state).toBe('confirmed');
    const ofConfirm = backendLines.slice(from).filter((l) => typeof l.path === 'string');
    expect(ofConfirm.map((l) => l.path)).toContain('limits.edit');
    for (const line of ofConfirm) expect(line.requestId).toBe(confirmed.requestId);
    expect(mainLines.filter((l) => l.requestId === confirmed.requestId).map((l) => l.msg)).toEqual(expect.arrayContaining(['tool ok', 'turn']));
    expect(new Set([read.requestId, propose.requestId, confirmed.requestId]).size).toBe(3);
  });
});
