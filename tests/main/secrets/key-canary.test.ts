/**
 * The API key canary: a key made for this run goes in through the desk router as the
 * Settings page sends it, and then everything that could carry it is used — the settings view,
 * the key check, chat turns answered by the model (reads, a proposal, its confirmation, a
 * fallback after server errors, a refused key), the history and the audit page. The key must
 * come back in none of it: no reply, no turn event, no log line, no prompt the model was sent, no
 * byte under the data folder, no error's message. It must reach the API's auth header, or the
 * canary proves nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../../src/main/assistant/create.js';
import { type BackendConnection, connectBackend } from '../../../src/main/backend/connection.js';
import { deskRouter } from '../../../src/main/desk/router.js';
import { DeskSessions } from '../../../src/main/desk/sessions.js';
import { browserShellStores } from '../../../src/main/secrets/secret-store.js';
import { createLogger } from '../../../src/infra/log.js';
import type { ChatMessage, TurnEvent } from '../../../src/shared/contracts/chat.js';
import { type FakeMessagesApi, startFakeMessagesApi, textReply, toolUseReply } from '../../fakes/messages-api.js';
import { DEMO_PASSWORDS, type TestBackend, startTestBackend } from '../../helpers/backend.js';

const canary = `sk-ant-canary-${randomBytes(18).toString('hex')}`;
/** A second key the fake refuses: the refused-key paths must not echo it either. */
const refusedCanary = `sk-ant-canary-refused-${randomBytes(18).toString('hex')}`;
const CANARIES = [canary, refusedCanary];

let backend: TestBackend;
let connection: BackendConnection;
let fake: FakeMessagesApi;
let dataDir: string;
const logLines: string[] = [];
/** Everything the router handed back, serialized as a transport would. */
const replies: string[] = [];
const events: TurnEvent[] = [];
const errors: string[] = [];

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  fake = await startFakeMessagesApi({ key: canary });
  dataDir = await mkdtemp(join(tmpdir(), 'key-canary-'));
  const log = createLogger({ level: 'debug', write: (line) => logLines.push(line) });
  connection = await connectBackend({ mode: 'remote', url: backend.server.url }, log);
});

afterAll(async () => {
  await fake?.close();
  await connection?.close();
  await backend?.close();
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The key as text, as base64 or hex of its bytes, and as UTF-16 bytes (read as latin1, as the files are). */
const encodings = (key: string) => [key, Buffer.from(key).toString('base64'), Buffer.from(key).toString('hex'), Buffer.from(key, 'utf16le').toString('latin1')];

describe('the API key canary', () => {
  it('goes in through the router and comes out nowhere', async () => {
    const log = createLogger({ level: 'debug', write: (line) => logLines.push(line) });
    const runtime = createAgentRuntime({
      dataDir, log, secrets: browserShellStores(null, {}), env: { ANTHROPIC_BASE_URL: fake.url }, modelIdleTimeoutMs: 2_000,
    });
    const desk = deskRouter.createCaller({ sessions: new DeskSessions(), backend: connection, log, ...runtime, slot: 'window-1' });
    const reply = async <T>(call: Promise<T>): Promise<T> => {
      try {
        const value = await call;
        replies.push(JSON.stringify(value) ?? 'undefined');
        return value;
      } catch (error) {
        errors.push(error instanceof Error ? `${error.name}: ${error.message} ${String(error.cause ?? '')} ${error.stack ?? ''}` : String(error));
        throw error;
      }
    };
    const turn = async (text: string): Promise<ChatMessage> => {
      let done: ChatMessage | null = null;
      for await (const event of await reply(desk.chat.turn({ kind: 'message', text, page: { path: '/agent/dashboard', query: {} } }))) {
        events.push(event);
        replies.push(JSON.stringify(event));
        if (event.type === 'done') done = event.message;
      }
      if (!done) throw new Error('a turn ends with done');
      return done;
    };

    await reply(desk.session.login({ username: 'priya', password: DEMO_PASSWORDS.priya! }));
    expect((await reply(desk.settings.model())).key.present).toBe(false);
    // A key pasted with a space inside is refused: the refusal must not quote it back.
    await expect(reply(desk.settings.setApiKey({ key: `${canary.slice(0, 20)} ${canary.slice(20)}` }))).rejects.toThrow();
    const view = await reply(desk.settings.setApiKey({ key: canary }));
    expect(view.key).toMatchObject({ present: true, source: 'session' });
    expect(await reply(desk.settings.checkKey())).toMatchObject({ ok: true });
    await reply(desk.settings.update({ maxTokensPerTurn: 20_000 }));
    await reply(desk.settings.model());

    // A read answered by the model: a tool through the gate, then prose.
    fake.script(toolUseReply('agent_getDownline', {}, 'Let me look.'), textReply('Here is your downline.'));
    const read = await turn('what is going on with my people');
    expect(read.planner).toBe('claude');
    // A proposal from the model, then the human's confirmation of it.
    fake.script(toolUseReply('agent_editLimit', { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: 4_600_000 }, 'Preparing it.'));
    const proposal = await turn('please make karan 46k');
    const confirm = proposal.cards.flatMap((c) => ('actions' in c ? c.actions ?? [] : [])).find((a) => a.id === 'confirm');
    expect(proposal.planner).toBe('claude');
    expect(confirm?.nonce).toBeTruthy();
    await reply(desk.chat.confirm({ nonce: confirm!.nonce!, payloadHash: confirm!.payloadHash! }));
    // Server errors until the turn gives up, then the offline answer, saying why.
    fake.respond(() => ({ kind: 'http_error', status: 500 }));
    const failed = await turn('what is going on with my people now');
    expect(failed.text).toMatch(/so I answered offline/);
    // A refused key (the API's 401): the SDK throws, the turn falls back. The error's own text
    // quotes the key, as some proxies' do: nothing of it may be passed on.
    fake.respond(() => ({ kind: 'http_error', status: 401, message: `invalid x-api-key: ${canary}` }));
    const refused = await turn('anything new with my people');
    expect(refused.text).toMatch(/API key was refused/);
    fake.respond(null);
    await reply(desk.chat.history());
    await reply(desk.audit.list());

    // The refused key: the check fails, and a turn with it falls back, neither naming it.
    await reply(desk.settings.setApiKey({ key: refusedCanary }));
    expect(await reply(desk.settings.checkKey())).toMatchObject({ ok: false });
    const withRefused = await turn('what is going on with my people today');
    expect(withRefused.text).toMatch(/API key was refused/);
    await reply(desk.settings.deleteApiKey());
    await reply(desk.settings.model());

    // The canary was really in use: the API saw it, where it belongs.
    const authHeaders = fake.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization?.replace(/^Bearer /, '') ?? '');
    expect(authHeaders).toContain(canary);
    expect(authHeaders).toContain(refusedCanary);
    expect(fake.requests.filter((r) => r.path === '/v1/messages').length).toBeGreaterThanOrEqual(5);

    const files = await filesUnder(dataDir);
    expect(files.length).toBeGreaterThan(0);
    const haystacks: Array<[string, string]> = [
      ...replies.map((r, i): [string, string] => [`reply ${i}`, r]),
      ...events.map((e, i): [string, string] => [`event ${i}`, JSON.stringify(e)]),
      ...logLines.map((l, i): [string, string] => [`log line ${i}`, l]),
      ...fake.requests.map((r, i): [string, string] => [`request ${i} body and path`, `${r.path} ${JSON.stringify(r.body)}`]),
      ...errors.map((e, i): [string, string] => [`error ${i}`, e]),
    ];
    for (const file of files) haystacks.push([file, (await readFile(file)).toString('latin1')]);
    const leaks = haystacks.flatMap(([where, text]) => CANARIES.flatMap((key) => encodings(key).filter((e) => text.includes(e)).map(() => where)));
    expect(leaks).toEqual([]);
    // The haystacks are real: the logs and prompts did record these turns.
    expect(logLines.some((l) => l.includes('"msg":"turn"'))).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
  });
});
