/**
 * The MCP server over Streamable HTTP, for clients that prefer it to stdio: loopback only, one
 * MCP session per client session (each its own `Server`, as the SDK requires), and a bearer token
 * on every request, since any local process or a web page rebinding DNS could otherwise reach
 * the user's book. A request carrying an Origin other than this server's own is refused first,
 * before the token and any session are looked at: a browser sends Origin, so such a request is a
 * web page (a DNS-rebinding one, say) calling in; native clients send none. Host is checked too
 * (the SDK's DNS-rebinding protection).
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server as HttpServer, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../infra/log.js';

export interface McpHttpOptions {
  /** A fresh MCP server for each client session. */
  serverFor: () => Server;
  token: string;
  port: number;
  log: Logger;
}

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

/** The largest JSON-RPC body accepted: tool arguments are small. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const expected = Buffer.from(`Bearer ${options.token}`);
  let allowedHosts: string[] = [];
  let ownOrigins: string[] = [];

  const http: HttpServer = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      options.log.error('mcp http request failed', { err: error });
      if (!res.headersSent) send(res, 500, 'internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && !ownOrigins.includes(origin)) {
      options.log.warn('mcp http request refused', { reason: 'origin', origin: origin.slice(0, 200) });
      return send(res, 403, `forbidden: Origin ${JSON.stringify(origin.slice(0, 200))} is not this server's (${ownOrigins[0]}): web pages may not call the desk's MCP server; an MCP client sends no Origin`);
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return send(res, 404, 'not found: the MCP endpoint is /mcp');
    const presented = Buffer.from(req.headers.authorization ?? '');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return send(res, 401, 'a bearer token is required (MCP_HTTP_TOKEN, or the token file the server printed)');
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.transport.handleRequest(req, res);
    if (req.method !== 'POST') return send(res, 400, 'no MCP session: initialize first');
    const body = await readJson(req);
    if (body === undefined) return send(res, 400, 'the body is not JSON, or is over 1 MB');
    if (!isInitializeRequest(body)) return send(res, 400, 'no MCP session: initialize first');
    const server = options.serverFor();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      // Already refused above; stated here too so the transport never answers another origin on its own.
      allowedOrigins: ownOrigins,
      onsessioninitialized: (id) => { sessions.set(id, { transport, server }); },
      onsessionclosed: (id) => { sessions.delete(id); },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  // As a browser serializes them (no port when it is the default, 80).
  ownOrigins = [new URL(`http://127.0.0.1:${port}`).origin, new URL(`http://localhost:${port}`).origin];
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
