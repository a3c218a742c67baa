/**
 * The desk's tools over MCP, through real transports against a real backend: the `npm run mcp`
 * process over stdio (spawned, as a client would launch it), and the Streamable HTTP server with
 * a client that can open links and show forms. A destructive call never runs on the call: it
 * leaves a pending approval (and an `approval_pending` event) that only the user's answer in the
 * desk carries out, once, before it expires.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, auditFileIn } from '../../../src/main/audit/audit-log.js';
import { idempotencyKeyFor, readAnchors, verifyAuditLog } from '../../../src/main/audit/verify.js';
import { connectBackend } from '../../../src/main/backend/connection.js';
import { Approvals, approvalNonce, requestApproval } from '../../../src/main/confirm/approvals.js';
import { startMcpHttp } from '../../../src/main/mcp/http.js';
import { createDeskMcpServer, deskApprovalLink, mcpChangeResult } from '../../../src/main/mcp/server.js';
import { McpSession } from '../../../src/main/mcp/session.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import { queryRows } from '../../../src/server/db/client.js';
import { silentLogger } from '../../../src/infra/log.js';
import { type TestBackend, accountId, startTestBackend } from '../../helpers/backend.js';

let backend: TestBackend;
let dir: string;

beforeAll(async () => {
  backend = await startTestBackend('pglite');
  dir = await mkdtemp(join(tmpdir(), 'mcp-'));
});
afterAll(() => backend.close());

const creditLimitOf = async (username: string) => {
  const [row] = await queryRows<{ cl: string | number }>(backend.deps.db, sql`select credit_limit as cl from accounts where username = ${username}`);
  return Number(row!.cl);
};
const pendingEvents = async (username: string) => queryRows<{ payload: { approvalId: string; summary: string } }>(backend.deps.db, sql`
  select payload from events where kind = 'approval_pending' and recipient_id = ${await accountId(backend, username)} order by id`);

describe('npm run mcp over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [resolve('node_modules/tsx/dist/cli.mjs'), 'src/main/mcp/main.ts'],
      env: {
        PATH: process.env.PATH ?? '', BACKEND_URL: backend.server.url, AGENT_DESK_USER: 'priya', AGENT_DESK_PASSWORD: 'demo-priya',
        DESK_DATA_DIR: join(dir, 'stdio'), LOG_LEVEL: 'warn',
      },
      stderr: 'pipe',
    }));
  }, 60_000);
  afterAll(() => client?.close());

  it('lists the tools of an agent with schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('agent_getTake')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('agent_editLimit')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('agent_muteAlerts')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('agent_editLimit')?.description).toMatch(/never makes the change by itself/);
    // Players by name, resolved by the desk; the output schema of a change is the approval's.
    expect(Object.keys(byName.get('agent_editLimit')!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['player', 'newValue']));
    expect(byName.get('agent_editLimit')!.outputSchema?.properties).toHaveProperty('approvalId');
    expect(byName.get('agent_getTake')!.outputSchema).toBeDefined();
  });

  it('answers a read with structured content the backend agrees with', async () => {
    const result = await client.callTool({ name: 'agent_getCreditLimit', arguments: { player: 'Karan Malhotra' } });
    expect(result.isError).toBeFalsy();
    const expected = await backend.client(await backend.login('priya')).agent.getCreditLimit.query({ playerId: await accountId(backend, 'karan') });
    expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('answers "how many players under Arjun" exactly: the sub-agent by name, the count over every row', async () => {
    const result = await client.callTool({ name: 'agent_getTake', arguments: { agent: 'Arjun', role: 'player', limit: 1 } });
    expect(result.isError).toBeFalsy();
    const arjun = await accountId(backend, 'arjun');
    const [truth] = await queryRows<{ n: string | number }>(backend.deps.db, sql`select count(*) as n from accounts where parent_id = ${arjun} and role = 'player'`);
    const content = result.structuredContent as { rows: unknown[]; matched: number };
    expect(content.rows).toHaveLength(1);
    expect(content.matched).toBe(Number(truth!.n));
  });

  it('refuses a name that matches no one well, naming the candidates, and creates nothing', async () => {
    const before = (await pendingEvents('priya')).length;
    const result = await client.callTool({ name: 'agent_editLimit', arguments: { player: 'Rahul Sharmaa Kumar', limitType: 'creditLimit', newValue: 9_000_000 } });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/couldn't find|Which|Did you mean/);
    expect((await pendingEvents('priya')).length).toBe(before);
  });

  it('turns a limit change into a pending approval: nothing changes, the agent is told', async () => {
    const before = await creditLimitOf('karan');
    const result = await client.callTool({ name: 'agent_editLimit', arguments: { player: 'Karan Malhotra', limitType: 'creditLimit', newValue: before + 500_000 } });
    const change = mcpChangeResult.parse(result.structuredContent);
    expect(change.status).toBe('pending_approval');
    expect(change.preview?.type).toBe('diff_card');
    expect(await creditLimitOf('karan')).toBe(before);
    const events = await pendingEvents('priya');
    expect(events.at(-1)!.payload).toMatchObject({ approvalId: change.approvalId, summary: expect.stringMatching(/Karan Malhotra's credit limit/) });
  });

  it('is documented tool by tool in docs/mcp.md', async () => {
    const doc = await readFile('docs/mcp.md', 'utf8');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).filter((name) => !doc.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it('offers no way to confirm an approval over MCP', async () => {
    const { tools } = await client.listTools();
    expect(tools.filter((t) => /approv|confirm|claim/i.test(t.name))).toEqual([]);
  });
});

describe('approvals answered in the desk', () => {
  const setup = async () => {
    const registry = createToolRegistry({ backoffMs: 0 });
    const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
    const token = await backend.login('priya');
    const caller = { api: connection.client(token), user: await connection.client(token).auth.me.query() };
    const audit = new AuditLog(auditFileIn(join(dir, `desk-${Math.random().toString(36).slice(2)}`)));
    const approvals = new Approvals({ registry, audit, log: silentLogger });
    const prepare = async (username: string, newValue: number) => {
      const args = { playerId: await accountId(backend, username), limitType: 'creditLimit', newValue };
      const preview = await registry.prepare('agent.editLimit', args, { api: caller.api, user: caller.user, requestId: 'req-prepare' });
      if (!preview.ok) throw new Error(preview.error.message);
      const requested = await requestApproval('agent.editLimit', args, preview.data as never, caller, 'test-client 1', 'req-request');
      if (!('id' in requested)) throw new Error(requested.refused);
      return requested;
    };
    return { caller, audit, approvals, prepare };
  };

  it('runs the change once on confirm, audits it as MCP, and refuses the replay', async () => {
    const { caller, audit, approvals, prepare } = await setup();
    const before = await creditLimitOf('sneha');
    const requested = await prepare('sneha', before + 100_000);
    expect(await creditLimitOf('sneha')).toBe(before);

    const done = await approvals.confirm(requested.id, caller, 'req-confirm-1');
    expect(done.state).toBe('confirmed');
    expect(done.approval).toMatchObject({ status: 'executed', decidedVia: 'desk' });
    expect(await creditLimitOf('sneha')).toBe(before + 100_000);

    const again = await approvals.confirm(requested.id, caller, 'req-confirm-2');
    expect(again.state).toBe('refused');
    expect(again.text).toMatch(/already answered/);
    expect(await creditLimitOf('sneha')).toBe(before + 100_000);

    const entries = await audit.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'executed', channel: 'mcp', nonce: `approval:${requested.id}` });
    // The entry holds against the backend's own record of the change, made under the approval's key.
    const { anchors, head } = await readAnchors((afterSeq) => caller.api.audit.anchors.query({ afterSeq }));
    expect(anchors.at(-1)).toMatchObject({ ...head, action: 'limits.edit', idempotencyKey: idempotencyKeyFor(approvalNonce(requested.id)) });
    const verdict = verifyAuditLog(await audit.text(), { user: caller.user.id, anchors });
    // Other tests' changes are other logs' business: this log's own entry must hold.
    expect(verdict.findings.filter((f) => f.entries.length > 0 || f.anchors.includes(head!.seq))).toEqual([]);
  });

  it('refuses an expired approval and changes nothing', async () => {
    const { caller, approvals, prepare } = await setup();
    const before = await creditLimitOf('lakshmi');
    const requested = await prepare('lakshmi', before + 100_000);
    backend.clock.real = new Date(backend.clock.real.getTime() + 6 * 60_000);
    const late = await approvals.confirm(requested.id, caller, 'req-late');
    expect(late.state).toBe('expired');
    expect(late.text).toMatch(/expired/);
    expect(await creditLimitOf('lakshmi')).toBe(before);
    expect((await caller.api.approvals.get.query({ id: requested.id })).status).toBe('expired');
  });

  it('declines: nothing runs, and the owner alone may answer', async () => {
    const { caller, approvals, prepare } = await setup();
    const before = await creditLimitOf('suresh');
    const requested = await prepare('suresh', before + 100_000);
    const arjunToken = await backend.login('arjun');
    const arjun = { api: backend.client(arjunToken) as never, user: await backend.client(arjunToken).auth.me.query() };
    const stranger = await approvals.confirm(requested.id, arjun, 'req-stranger');
    expect(stranger.text).toMatch(/not found/);
    const declined = await approvals.reject(requested.id, caller, 'req-decline');
    expect(declined.state).toBe('cancelled');
    expect((await approvals.confirm(requested.id, caller, 'req-after')).text).toMatch(/declined/);
    expect(await creditLimitOf('suresh')).toBe(before);
  });
});

describe('approvals of large changes, and declines with a reason', () => {
  it('asks the password again above the step-up threshold: none or a wrong one changes nothing, the right one runs it', async () => {
    const registry = createToolRegistry({ backoffMs: 0 });
    const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
    const token = await backend.login('priya');
    const caller = { api: connection.client(token), user: await connection.client(token).auth.me.query() };
    const audit = new AuditLog(auditFileIn(join(dir, 'step-up-approvals')));
    // Any limit above 1 point is large here, so the demo players' limits are all over it.
    const approvals = new Approvals({ registry, audit, log: silentLogger, stepUp: { limitPaisa: 100, amountPaisa: 100 } });
    const before = await creditLimitOf('irfan');
    const args = { playerId: await accountId(backend, 'irfan'), limitType: 'creditLimit', newValue: before + 100_000 };
    const preview = await registry.prepare('agent.editLimit', args, { api: caller.api, user: caller.user, requestId: 'req-prepare' });
    if (!preview.ok) throw new Error(preview.error.message);
    const requested = await requestApproval('agent.editLimit', args, preview.data as never, caller, 'test-client 1', 'req-request');
    if (!('id' in requested)) throw new Error(requested.refused);
    expect(approvals.needsPassword(requested.card)).toBe(true);

    await expect(approvals.confirm(requested.id, caller, 'req-none')).rejects.toMatchObject({ name: 'StepUpRefused', reason: 'password_needed' });
    await expect(approvals.confirm(requested.id, caller, 'req-wrong', 'not-her-password')).rejects.toMatchObject({ name: 'StepUpRefused', reason: 'wrong_password' });
    expect((await caller.api.approvals.get.query({ id: requested.id })).status).toBe('pending');
    expect(await creditLimitOf('irfan')).toBe(before);
    expect(await audit.entries()).toEqual([]);

    const done = await approvals.confirm(requested.id, caller, 'req-right', 'demo-priya');
    expect(done.approval).toMatchObject({ status: 'executed', decidedVia: 'desk' });
    expect(await creditLimitOf('irfan')).toBe(before + 100_000);
    expect(await audit.entries()).toEqual([expect.objectContaining({ outcome: 'executed', channel: 'mcp', stepUp: true })]);
  });

  it('keeps the reason a user gave for declining in the audit chain', async () => {
    const registry = createToolRegistry({ backoffMs: 0 });
    const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
    const token = await backend.login('priya');
    const caller = { api: connection.client(token), user: await connection.client(token).auth.me.query() };
    const audit = new AuditLog(auditFileIn(join(dir, 'decline-reason')));
    const approvals = new Approvals({ registry, audit, log: silentLogger });
    const before = await creditLimitOf('deepak');
    const args = { playerId: await accountId(backend, 'deepak'), limitType: 'creditLimit', newValue: before + 50_000 };
    const preview = await registry.prepare('agent.editLimit', args, { api: caller.api, user: caller.user, requestId: 'req-prepare' });
    if (!preview.ok) throw new Error(preview.error.message);
    const requested = await requestApproval('agent.editLimit', args, preview.data as never, caller, 'test-client 1', 'req-request');
    if (!('id' in requested)) throw new Error(requested.refused);
    const declined = await approvals.reject(requested.id, caller, 'req-decline', 'he has not paid last week');
    expect(declined.state).toBe('cancelled');
    expect(await audit.entries()).toEqual([expect.objectContaining({ outcome: 'cancelled', channel: 'mcp', reason: 'he has not paid last week' })]);
    expect(verifyAuditLog(await audit.text(), { user: caller.user.id, anchors: null }).findings.filter((f) => f.entries.length > 0)).toEqual([]);
    expect(await creditLimitOf('deepak')).toBe(before);
  });
});

describe('Streamable HTTP with a client that can open links and show forms', () => {
  it('sends the user to the desk\'s view of the approval; the client\'s answer changes nothing; the desk\'s confirm does, and the client is told', async () => {
    const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
    const session = new McpSession(connection, { username: 'priya', password: 'demo-priya' }, silentLogger);
    const registry = createToolRegistry({ backoffMs: 0 });
    const approvalLink = deskApprovalLink({ DESK_URL: 'http://127.0.0.1:5999' });
    const http = await startMcpHttp({
      serverFor: () => createDeskMcpServer({ registry, caller: () => session.caller(), log: silentLogger, approvalLink, watchEveryMs: 20 }),
      token: 'test-token', port: 0, log: silentLogger,
    });
    try {
      const refused = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);

      const asked: Array<{ mode?: string; url?: string; message: string; elicitationId?: string }> = [];
      const completed: string[] = [];
      const client = new Client({ name: 'link-client', version: '2.0.0' }, { capabilities: { elicitation: { form: {}, url: {} } } });
      // Whatever it is asked, it says yes, as a client that answers its own forms would.
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params as never);
        return { action: 'accept', content: { confirm: true } };
      });
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (notification) => {
        completed.push(notification.params.elicitationId);
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: 'Bearer test-token' } } }));
      const before = await creditLimitOf('neha');
      const result = await client.callTool({ name: 'agent_editLimit', arguments: { player: 'Neha Gupta', limitType: 'creditLimit', newValue: before + 200_000 } });
      const change = mcpChangeResult.parse(result.structuredContent);
      expect(change.status).toBe('pending_approval');
      expect(change.approvalUrl).toBe(`http://127.0.0.1:5999/agent/approvals?id=${change.approvalId}`);
      expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: change.approvalUrl, message: expect.stringMatching(/Neha Gupta's credit limit.*Open Agent Desk/) })]);
      expect(await creditLimitOf('neha')).toBe(before);
      const mcpCaller = await session.caller();
      expect((await mcpCaller.api.approvals.get.query({ id: change.approvalId! })).status).toBe('pending');

      // The desk, signed in as the user, confirms: the change runs, and the client hears it was answered.
      const token = await backend.login('priya');
      const desk = { api: connection.client(token), user: await connection.client(token).auth.me.query() };
      const approvals = new Approvals({ registry, audit: new AuditLog(auditFileIn(join(dir, 'http-desk'))), log: silentLogger });
      const done = await approvals.confirm(change.approvalId!, desk, 'req-desk-confirm');
      expect(done.approval).toMatchObject({ status: 'executed', decidedVia: 'desk', client: 'link-client 2.0.0' });
      expect(await creditLimitOf('neha')).toBe(before + 200_000);
      await expect.poll(() => completed, { timeout: 5_000 }).toEqual([asked[0]!.elicitationId]);
      await client.close();
    } finally {
      await http.close();
      await session.close();
    }
  });

  it('signs the MCP server in with a session the backend lets ask but never write or answer', async () => {
    const connection = await connectBackend({ mode: 'remote', url: backend.server.url }, silentLogger);
    const session = new McpSession(connection, { username: 'priya', password: 'demo-priya' }, silentLogger);
    try {
      const { api } = await session.caller();
      const registry = createToolRegistry({ backoffMs: 0 });
      const karan = await accountId(backend, 'karan');
      const before = await creditLimitOf('karan');
      const args = { playerId: karan, limitType: 'creditLimit', newValue: before + 100_000 };
      const preview = await registry.prepare('agent.editLimit', args, { api, user: (await session.caller()).user, requestId: 'req-scope' });
      if (!preview.ok) throw new Error(preview.error.message);
      const requested = await requestApproval('agent.editLimit', args, preview.data as never, await session.caller(), 'scope-test', 'req-scope');
      if (!('id' in requested)) throw new Error(requested.refused);
      await expect(api.approvals.claim.mutate({ id: requested.id })).rejects.toThrow(/only ask for changes/);
      await expect(api.approvals.reject.mutate({ id: requested.id })).rejects.toThrow(/only ask for changes/);
      // Well-formed writes, refused for the session's scope before their input is even read.
      await expect(api.limits.edit.mutate({ playerId: karan, limitType: 'creditLimit', newValue: before + 100_000, idempotencyKey: 'k'.repeat(32), expectedBefore: before }))
        .rejects.toThrow(/only ask for changes/);
      await expect(api.settlements.settle.mutate({ playerId: karan, mode: 'auto', idempotencyKey: 's'.repeat(32) })).rejects.toThrow(/only ask for changes/);
      expect((await api.approvals.get.query({ id: requested.id })).status).toBe('pending');
      expect(await creditLimitOf('karan')).toBe(before);
    } finally {
      await session.close();
    }
  });
});
