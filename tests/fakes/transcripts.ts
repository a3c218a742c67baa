/**
 * Record and replay of Messages API conversations. The recording proxy sits between the SDK and
 * a real upstream (or a fake), passes every byte through, and keeps one JSON file per
 * /v1/messages call; `replayResponder` turns those files back into replies of the fake, so a
 * suite recorded once against the real API runs offline and gives the same answers.
 *
 * The API key travels only in request headers, which are never written; anything that still
 * contains it is scrubbed before a file is written, in case a caller echoes it into a prompt.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { MessagesRequestBody, Responder, ScriptedReply, SseEvent } from './messages-api.js';

/** One file of a transcript directory. */
export interface RecordedExchange {
  seq: number;
  key: string;
  path: string;
  request: MessagesRequestBody;
  status: number;
  headers: Record<string, string>;
  /** Present when the answer was SSE. */
  events?: SseEvent[];
  /** Present when the answer was JSON (or anything not SSE, kept as text when not JSON). */
  json?: unknown;
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Tool-use ids are the model's own: a conversation replayed offline carries the ids of its
 * recording only when the replies are verbatim, and a product may mint its own. Numbering them by
 * first appearance keeps the key stable either way.
 */
function normaliseToolIds(messages: unknown): unknown {
  const ids = new Map<string, string>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!/^toolu_[A-Za-z0-9_-]+$/.test(value)) return value;
      if (!ids.has(value)) ids.set(value, `toolu_#${ids.size + 1}`);
      return ids.get(value);
    }
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(messages);
}

export function requestKey(body: MessagesRequestBody): string {
  const material = sortedJson({ model: body.model, system: body.system ?? null, tools: body.tools ?? null, messages: normaliseToolIds(body.messages) });
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}

/** Splits an SSE body into its events, the way core/streaming.js reads them. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (event === null && data.length === 0) continue;
    const joined = data.join('\n');
    let parsed: unknown = joined;
    try {
      parsed = JSON.parse(joined);
    } catch {
      // Kept as text: a replay writes it back as it came.
    }
    events.push({ event: event ?? 'message', data: parsed });
  }
  return events;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

/** Every way the key could be written: bare, and as the auth headers carry it. */
function secretsOf(req: IncomingMessage): string[] {
  const secrets = new Set<string>();
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) secrets.add(apiKey);
  const auth = req.headers['authorization'];
  if (typeof auth === 'string') {
    const token = auth.replace(/^Bearer\s+/i, '');
    if (token) secrets.add(token);
  }
  return [...secrets].filter((s) => s.length >= 8);
}

function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

export function startRecordingProxy(options: { upstream: string; dir: string; port?: number }): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  let seq = 0;
  const pendingWrites = new Set<Promise<void>>();

  const record = async (exchange: RecordedExchange, secrets: string[]): Promise<void> => {
    await mkdir(options.dir, { recursive: true });
    const file = join(options.dir, `${String(exchange.seq).padStart(4, '0')}-${exchange.key}.json`);
    await writeFile(file, scrub(JSON.stringify(exchange, null, 2), secrets) + '\n');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const requestBytes = Buffer.concat(chunks);
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      let body: MessagesRequestBody | null = null;
      if (req.method === 'POST' && /\/v1\/messages\/?$/.test(path)) {
        try {
          const parsed: unknown = JSON.parse(requestBytes.toString('utf8'));
          if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { messages?: unknown }).messages)) body = parsed as MessagesRequestBody;
        } catch {
          body = null;
        }
      }
      // Numbered when the request arrives, so file order is request order even when answers overlap.
      const mySeq = body ? ++seq : 0;

      const headers: OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
      const upstreamReq = send(
        { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: basePath + (req.url ?? '/'), headers },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          res.flushHeaders();
          const received: Buffer[] = [];
          upstreamRes.on('data', (chunk: Buffer) => {
            received.push(chunk);
            res.write(chunk);
          });
          upstreamRes.on('error', () => res.destroy());
          upstreamRes.on('aborted', () => res.destroy());
          upstreamRes.on('end', () => {
            res.end();
            if (!body) return;
            const responseHeaders: Record<string, string> = {};
            for (const [k, v] of Object.entries(upstreamRes.headers)) {
              if (k === 'set-cookie' || v === undefined) continue;
              responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
            }
            const exchange: RecordedExchange = { seq: mySeq, key: requestKey(body), path, request: body, status: upstreamRes.statusCode ?? 0, headers: responseHeaders };
            try {
              const text = decode(Buffer.concat(received), upstreamRes.headers['content-encoding']).toString('utf8');
              if ((upstreamRes.headers['content-type'] ?? '').includes('text/event-stream')) exchange.events = parseSse(text);
              else {
                try {
                  exchange.json = JSON.parse(text);
                } catch {
                  exchange.json = text;
                }
              }
            } catch {
              exchange.json = null;
            }
            const write = record(exchange, secretsOf(req)).catch(() => undefined);
            pendingWrites.add(write);
            void write.finally(() => pendingWrites.delete(write));
          });
        },
      );
      upstreamReq.on('error', () => {
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'recording proxy: upstream unreachable' } }));
        } else res.destroy();
      });
      // The client gave up (timeout, abort): stop the upstream call too, as a direct call would.
      res.on('close', () => {
        if (!res.writableFinished) upstreamReq.destroy();
      });
      upstreamReq.end(requestBytes);
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: async () => {
          await new Promise<void>((done, fail) => {
            if (!server.listening) return done();
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          });
          // A test reads the directory right after close(): every file must be on disk by then.
          await Promise.all([...pendingWrites]);
        },
      });
    });
  });
}

function toReply(exchange: RecordedExchange): ScriptedReply {
  if (exchange.events) return { kind: 'raw_sse', events: exchange.events, headers: exchange.headers };
  return { kind: 'raw_json', status: exchange.status, body: exchange.json ?? null, headers: exchange.headers };
}

/** A request of a replay that no recording matches, and the recording nearest to it. */
export interface ReplayMismatch {
  /** Which /v1/messages request of this replay, from 1. */
  request: number;
  /** The nearest recording's sequence number (its file's prefix): the recorded turn that differs. */
  recording: number;
  /** The first part that differs: `model`, `system`, `tools` or `messages[i]`. */
  differs: string;
}

/**
 * How close a recording is to a request, part by part in the order the key reads them, and the
 * first part that differs (null: none does). Messages count by their common start, a whole match
 * counting half a message more.
 */
function compare(body: MessagesRequestBody, recorded: MessagesRequestBody): { score: number[]; differs: string | null } {
  const same = (a: unknown, b: unknown) => sortedJson(a ?? null) === sortedJson(b ?? null);
  const parts = [same(body.model, recorded.model), same(body.system, recorded.system), same(body.tools, recorded.tools)];
  const mine = normaliseToolIds(body.messages) as unknown[];
  const theirs = normaliseToolIds(recorded.messages) as unknown[];
  let common = 0;
  while (common < mine.length && common < theirs.length && same(mine[common], theirs[common])) common++;
  const whole = common === mine.length && common === theirs.length;
  const firstPart = ['model', 'system', 'tools'][parts.indexOf(false)];
  return { score: [...parts.map(Number), common + (whole ? 0.5 : 0)], differs: firstPart ?? (whole ? null : `messages[${common}]`) };
}

const better = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
};

/**
 * Answers each request with the recording of the same key (repeats of one key in recorded
 * order, the last again once they run out). A request no recording matches is never served an
 * answer recorded for another one: it gets an error that names the nearest recorded turn and
 * the first part of the request that differs (and `onMismatch` hears of it), so a run whose
 * prompts drifted says where instead of replaying stale answers.
 */
export function replayResponder(dir: string, options: { onMismatch?: (mismatch: ReplayMismatch) => void } = {}): Responder {
  let loaded: RecordedExchange[] | null = null;
  const used = new Set<RecordedExchange>();
  const load = (): RecordedExchange[] => {
    loaded ??= readdirSync(dir)
      .filter((name) => /^\d+-[0-9a-f]+\.json$/.test(name))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as RecordedExchange)
      .sort((a, b) => a.seq - b.seq);
    return loaded;
  };
  let requests = 0;
  return (body) => {
    requests += 1;
    const all = load();
    const key = requestKey(body);
    const sameKey = all.filter((e) => e.key === key);
    const pick = sameKey.find((e) => !used.has(e)) ?? sameKey.at(-1);
    if (pick) {
      used.add(pick);
      return toReply(pick);
    }
    let nearest: { exchange: RecordedExchange; score: number[]; differs: string } | null = null;
    for (const exchange of all) {
      const { score, differs } = compare(body, exchange.request);
      if (differs !== null && (!nearest || better(score, nearest.score))) nearest = { exchange, score, differs };
    }
    const mismatch: ReplayMismatch = { request: requests, recording: nearest?.exchange.seq ?? 0, differs: nearest?.differs ?? 'model' };
    options.onMismatch?.(mismatch);
    const where = nearest ? `recorded turn ${mismatch.recording} differs from it first in ${mismatch.differs}` : 'nothing is recorded';
    return {
      kind: 'http_error', status: 400, errorType: 'invalid_request_error',
      message: `replay: request ${mismatch.request} matches no recording (${where}); record the run again`,
    };
  };
}
