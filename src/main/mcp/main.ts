/**
 * `npm run -s mcp`: the desk's tools for MCP clients (docs/mcp.md).
 *
 *   npm run -s mcp                 MCP over stdio (what a client launches)
 *   npm run -s mcp -- --http       MCP over Streamable HTTP on 127.0.0.1 (MCP_PORT, default 5190)
 *   npm run -s mcp -- login        keep a login for the server in the OS keychain
 *
 * The backend is reached as the desk reaches it: BACKEND_URL, else the embedded demo book in
 * PGLITE_DIR (default `<DESK_DATA_DIR>/desk`, the browser shell's). It signs in with a session
 * that may only ask for changes; the user answers each in the desk, whose view of an approval is
 * under DESK_URL (default the browser shell's address). Over stdio, stdout is the protocol: every
 * log line goes to stderr.
 */
import { createInterface } from 'node:readline/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type LogLevel, createLogger } from '../../infra/log.js';
import { backendConfigFromEnv, connectBackend } from '../backend/connection.js';
import { browserShellDataDirs } from '../data-dirs.js';
import { createToolRegistry } from '../tools/registry.js';
import { createDeskMcpServer, deskApprovalLink } from './server.js';
import { startMcpHttp } from './http.js';
import { httpTokenFor } from './http-token.js';
import { McpSession, McpSignInError, credentialsFrom, openLoginStore } from './session.js';

const log = createLogger({
  level: (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info',
  base: { service: 'agent-desk-mcp' },
  write: (line) => process.stderr.write(`${line}\n`),
});

const args = process.argv.slice(2);

async function login(): Promise<void> {
  const store = await openLoginStore(log);
  if (!store) throw new McpSignInError('no OS keychain here: set AGENT_DESK_USER and AGENT_DESK_PASSWORD for the MCP server instead');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const username = (process.env.AGENT_DESK_USER?.trim() || (await rl.question('Username: '))).trim();
  const password = process.env.AGENT_DESK_PASSWORD ?? (await rl.question('Password: '));
  rl.close();
  const credentials = await credentialsFrom({ AGENT_DESK_USER: username, AGENT_DESK_PASSWORD: password }, null);
  // Checked before it is kept: a wrong password in the keychain would fail every later start.
  const dirs = browserShellDataDirs(process.env);
  const backend = await connectBackend(backendConfigFromEnv(process.env, dirs.pgliteDir), log);
  try {
    const session = new McpSession(backend, credentials, log);
    await session.caller();
    await session.close();
  } finally {
    await backend.close();
  }
  await store.set(JSON.stringify(credentials));
  process.stderr.write(`The MCP server will sign in as ${credentials.username} (kept in the OS keychain).\n`);
}

function httpPort(value: string | undefined): number {
  if (!value) return 5190;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`MCP_PORT must be a port number, got "${value}"`);
  return n;
}

async function serve(): Promise<void> {
  const dirs = browserShellDataDirs(process.env);
  const credentials = await credentialsFrom(process.env, process.env.AGENT_DESK_USER ? null : await openLoginStore(log));
  const backend = await connectBackend(backendConfigFromEnv(process.env, dirs.pgliteDir), log);
  const session = new McpSession(backend, credentials, log);
  // Fails here, with the reason, rather than on a client's first call.
  await session.caller();
  const registry = createToolRegistry({ log: log.child({ component: 'tools' }) });
  const approvalLink = deskApprovalLink(process.env);
  const serverFor = () => createDeskMcpServer({
    registry, caller: () => session.caller(), signedOut: () => session.forget(), log, approvalLink,
    elicitation: !args.includes('--no-elicitation'),
  });

  const closers: Array<() => Promise<void>> = [];
  if (args.includes('--http')) {
    const token = await httpTokenFor(process.env, dirs.dataDir);
    if (token.replaced) process.stderr.write(`Agent Desk MCP: ${token.replaced}\n`);
    const http = await startMcpHttp({ serverFor, token: token.token, port: httpPort(process.env.MCP_PORT), log });
    closers.push(() => http.close());
    process.stderr.write(`Agent Desk MCP (Streamable HTTP): ${http.url}\nBearer token: ${token.file ? `in ${token.file}` : 'MCP_HTTP_TOKEN'}\n`);
  } else {
    const server = serverFor();
    const transport = new StdioServerTransport();
    // The client closing stdin is the end of the session.
    transport.onclose = () => void shutdown('stdin closed');
    await server.connect(transport);
    closers.push(() => server.close());
  }
  log.info('mcp server ready', { backend: backend.mode, user: credentials.username, transport: args.includes('--http') ? 'http' : 'stdio' });

  let closing = false;
  async function shutdown(reason: string): Promise<void> {
    if (closing) return;
    closing = true;
    log.info('mcp server stopping', { reason });
    for (const close of closers) await close().catch(() => undefined);
    await session.close();
    await backend.close();
    process.exit(0);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

(args[0] === 'login' ? login() : serve()).catch((error: unknown) => {
  const message = error instanceof McpSignInError ? error.message : error instanceof Error ? error.message : String(error);
  log.error('mcp server failed', { reason: message });
  process.stderr.write(`Agent Desk MCP: ${message}\n`);
  process.exit(1);
});
