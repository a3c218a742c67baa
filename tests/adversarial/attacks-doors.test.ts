/**
 * The MCP server's HTTP door, from outside the MCP protocol: a web page calling it through the
 * user's browser (it sends an Origin, which no MCP client does), and a token file planted or left
 * readable before the server started. Neither may reach a tool: the page is refused before its
 * token or session is looked at, and a token from a file anyone else could read or write never
 * authenticates.
 */
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/infra/log.js';
import { type McpHttpServer, startMcpHttp } from '../../src/main/mcp/http.js';
import { httpTokenFile, httpTokenFor } from '../../src/main/mcp/http-token.js';

interface Answer {
  status: number;
  body: string;
}

/** A raw request (fetch would not let a test set Host, nor send Origin as a page's fetch does). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      // A GET that opened a stream would never end: its status is the answer.
      if (method === 'GET' && res.statusCode === 200) {
        res.destroy();
        resolve({ status: 200, body: '' });
        return;
      }
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});
const jsonRpc = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A server with one tool that counts its calls, and how many MCP servers were made for sessions. */
async function countingServer(token: string) {
  const counts = { servers: 0, touched: 0 };
  const http = await startMcpHttp({
    serverFor: () => {
      counts.servers += 1;
      const mcp = new McpServer({ name: 'doors', version: '1.0.0' });
      mcp.registerTool('touch', { description: 'counts a call' }, () => {
        counts.touched += 1;
        return { content: [{ type: 'text', text: 'touched' }] };
      });
      return mcp.server;
    },
    token, port: 0, log: silentLogger,
  });
  return { http, counts };
}

async function connectClient(url: string, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'native-client', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP over HTTP: a request from a web page (a foreign Origin)', () => {
  let http: McpHttpServer;
  let counts: { servers: number; touched: number };
  let own: string;
  const auth = { authorization: 'Bearer door-token' };

  beforeAll(async () => {
    ({ http, counts } = await countingServer('door-token'));
    own = new URL(http.url).origin;
  });
  afterAll(async () => {
    await http?.close();
  });

  const foreign = () => ['http://evil.example', 'null', '', 'http://localhost:1', `${own}.evil.example`, `https://${new URL(own).host}`, `${own}, http://evil.example`];

  it('is refused with 403 before the token is looked at, and no session is made', async () => {
    // Tests run in a random order: the others may have made sessions before this one.
    const made = counts.servers;
    for (const origin of foreign()) {
      for (const headers of [{ ...jsonRpc, ...auth, origin }, { ...jsonRpc, origin }, { ...jsonRpc, authorization: 'Bearer wrong', origin }]) {
        const answer = await send(http.url, 'POST', headers, initialize);
        expect(answer.status, `Origin ${JSON.stringify(origin)}`).toBe(403);
        const error = (JSON.parse(answer.body) as { error: { message: string }; id: unknown });
        expect(error.id).toBeNull();
        expect(error.error.message).toMatch(/^forbidden: Origin .* is not this server's/);
      }
    }
    // Every path and method: the check is the first thing the server does.
    expect((await send(`${own}/elsewhere`, 'GET', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await send(http.url, 'OPTIONS', { origin: 'http://evil.example', 'access-control-request-method': 'POST' })).status).toBe(403);
    expect(counts.servers).toBe(made);
  });

  it('cannot use a session a native client opened: POST, GET and DELETE are refused and nothing runs', async () => {
    const { client, transport } = await connectClient(http.url, 'door-token');
    const touched = counts.touched;
    try {
      const session = { ...auth, 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
      const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'touch', arguments: {} } });
      expect((await send(http.url, 'POST', { ...jsonRpc, ...session, origin: 'http://evil.example' }, call)).status).toBe(403);
      expect((await send(http.url, 'GET', { accept: 'text/event-stream', ...session, origin: 'http://evil.example' })).status).toBe(403);
      expect((await send(http.url, 'DELETE', { ...session, origin: 'http://evil.example' })).status).toBe(403);
      expect(counts.touched).toBe(touched);
      // The session was not ended by the refused DELETE: the client that opened it still works.
      await client.callTool({ name: 'touch', arguments: {} });
      expect(counts.touched).toBe(touched + 1);
    } finally {
      await client.close();
    }
  });

  it('is served from the server\'s own origin, and without an Origin (a native client)', async () => {
    for (const origin of [own, own.replace('127.0.0.1', 'localhost')]) {
      expect((await send(http.url, 'POST', { ...jsonRpc, ...auth, origin }, initialize)).status, origin).toBe(200);
    }
    // Still the token first for those: an own-origin page without it gets 401.
    expect((await send(http.url, 'POST', { ...jsonRpc, origin: own }, initialize)).status).toBe(401);
    const { client } = await connectClient(http.url, 'door-token');
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['touch']);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over HTTP: the token file', () => {
  const POSIX = process.platform !== 'win32';
  const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

  it.runIf(POSIX)('replaces a token file others can read: the planted token no longer authenticates, and the file ends 0600', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mcp-token-'));
    const file = httpTokenFile(dataDir);
    await mkdir(join(dataDir, 'mcp'), { recursive: true });
    await chmod(join(dataDir, 'mcp'), 0o755);
    const planted = 'planted-token-the-attacker-knows-0123456789';
    await writeFile(file, `${planted}\n`);
    await chmod(file, 0o644);

    const chosen = await httpTokenFor({}, dataDir);
    expect(chosen.token).not.toBe(planted);
    expect(chosen.token).toMatch(/^[\w-]{43}$/);
    expect(chosen.file).toBe(file);
    expect(chosen.replaced).toMatch(/group or other users \(mode 0644\).*a new one was written, readable only by you/);
    expect((await readFile(file, 'utf8')).trim()).toBe(chosen.token);
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(join(dataDir, 'mcp'))).toBe(0o700);

    const { http } = await countingServer(chosen.token);
    try {
      expect((await send(http.url, 'POST', { ...jsonRpc, authorization: `Bearer ${planted}` }, initialize)).status).toBe(401);
      expect((await send(http.url, 'POST', { ...jsonRpc, authorization: `Bearer ${chosen.token}` }, initialize)).status).toBe(200);
    } finally {
      await http.close();
    }
    // The next start keeps the new one, quietly.
    expect(await httpTokenFor({}, dataDir)).toEqual({ token: chosen.token, file, replaced: null });
  });

  it.runIf(POSIX)('also replaces a file others could write, and a symbolic link (whose target it leaves alone)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mcp-token-'));
    const file = httpTokenFile(dataDir);
    await mkdir(join(dataDir, 'mcp'), { recursive: true, mode: 0o700 });
    await writeFile(file, 'writable-by-the-group\n');
    await chmod(file, 0o620);
    const first = await httpTokenFor({}, dataDir);
    expect(first.token).not.toBe('writable-by-the-group');
    expect(first.replaced).toMatch(/mode 0620/);

    const target = join(dataDir, 'elsewhere');
    await writeFile(target, 'linked-token\n', { mode: 0o600 });
    await rm(file);
    await symlink(target, file);
    const second = await httpTokenFor({}, dataDir);
    expect(second.token).not.toBe('linked-token');
    expect(second.replaced).toMatch(/symbolic link/);
    expect((await lstat(file)).isFile()).toBe(true);
    expect(await modeOf(file)).toBe(0o600);
    expect(await readFile(target, 'utf8')).toBe('linked-token\n');
  });

  it('writes a new token 0600 in a 0700 folder, keeps it, and takes MCP_HTTP_TOKEN without a file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mcp-token-'));
    const made = await httpTokenFor({}, dataDir);
    expect(made).toMatchObject({ file: httpTokenFile(dataDir), replaced: null });
    if (POSIX) {
      expect(await modeOf(httpTokenFile(dataDir))).toBe(0o600);
      expect(await modeOf(join(dataDir, 'mcp'))).toBe(0o700);
    }
    expect(await httpTokenFor({}, dataDir)).toEqual(made);

    const other = await mkdtemp(join(tmpdir(), 'mcp-token-'));
    expect(await httpTokenFor({ MCP_HTTP_TOKEN: ' given ' }, other)).toEqual({ token: 'given', file: null, replaced: null });
    await expect(stat(httpTokenFile(other))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
