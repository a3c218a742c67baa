/**
 * A local stand-in for the Anthropic Messages API: real HTTP, real SSE, the wire format of
 * `@anthropic-ai/sdk` 1.12 (core/streaming.js, resources/messages, resources/models). Tests, the
 * e2e suite, the bench and the eval point the SDK's `baseURL` at it, since no real API is
 * reachable here. Replies are scripted (a FIFO queue, then a responder); usage, including the
 * prompt cache, is simulated from the request so cache-share measurements mean something.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MessagesRequestBody {
  model: string;
  system?: unknown;
  messages: Array<{ role: 'user' | 'assistant'; content: unknown }>;
  tools?: unknown[];
  max_tokens: number;
  stream?: boolean;
  [k: string]: unknown;
}

export interface RecordedRequest {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: MessagesRequestBody | null;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  /** Signed by the fake; a request that sends it back changed (or with another signature) is refused, as the API does. */
  | { type: 'thinking'; thinking: string }
  | { type: 'redacted_thinking' };

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

/** One SSE event as it goes over the wire: `event: <event>` and `data: <JSON of data>`. */
export interface SseEvent {
  event: string;
  data: unknown;
}

export type ScriptedReply =
  | {
      kind: 'message';
      content: ContentBlock[];
      stopReason?: StopReason;
      /**
       * The model runs out of `max_tokens` after this many characters of its output (thinking,
       * text and tool input, in order): the stream stops there, mid-word or mid-JSON, and ends
       * with stop_reason max_tokens. A non-streaming request gets the cut text and a cut tool's
       * input as {}.
       */
      cutAfterChars?: number;
      /** For stop_reason refusal: the API's `stop_details`. */
      stopDetails?: { category: string | null; explanation: string | null };
      /** Size of each text_delta and input_json_delta piece; default 12. */
      chunkChars?: number;
      /** Pause between SSE events; default 0. */
      delayMs?: number;
      /**
       * Points the stream waits at until each promise settles: the i-th of n before event
       * floor((i+1)·events/(n+1)). A test sees the answer part-way for as long as it looks,
       * however slow the machine, instead of racing a timer.
       */
      holds?: ReadonlyArray<Promise<unknown>>;
      outputTokens?: number;
    }
  | {
      kind: 'http_error';
      status: number;
      errorType?: string;
      message?: string;
      retryAfterSeconds?: number;
      /** Sent as `retry-after-ms`, which the SDK prefers to `retry-after`: lets a retry test run in ms. */
      retryAfterMs?: number;
      shouldRetry?: boolean;
    }
  /** HTTP 200, message_start, some text deltas, then `event: error`. */
  | { kind: 'stream_error'; textBefore?: string; errorType?: string; message?: string }
  /** HTTP 200, some deltas, then the socket is destroyed. */
  | { kind: 'drop'; textBefore?: string }
  /** Accepts the request and never answers (client timeout / abort). */
  | { kind: 'hang' }
  /** HTTP 200 and message_start (and the deltas of `textBefore`), then silence: a stream that stalls. */
  | { kind: 'idle'; textBefore?: string }
  /** Recorded SSE written verbatim (replay). A non-streaming request gets the Message they assemble to. */
  | { kind: 'raw_sse'; events: SseEvent[]; headers?: Record<string, string> }
  /** A recorded JSON answer written verbatim (replay). A 200 Message is streamed when the request streams. */
  | { kind: 'raw_json'; status: number; body: unknown; headers?: Record<string, string> };

export type MessageReply = Extract<ScriptedReply, { kind: 'message' }>;

/** `index` counts the /v1/messages requests that got past auth and validation, from 0. */
export type Responder = (body: MessagesRequestBody, index: number) => ScriptedReply;

export interface FakeMessagesApi {
  /** e.g. http://127.0.0.1:PORT: what ANTHROPIC_BASE_URL / `baseURL` takes. */
  url: string;
  /** Every request, in order (messages, models, and the rejected ones). */
  requests: RecordedRequest[];
  /** Queues replies for the next /v1/messages calls, FIFO. */
  script(...replies: ScriptedReply[]): void;
  /** Empties the queue: what one test scripted and did not use never answers the next. */
  clear(): void;
  /** Used when the queue is empty; null removes it. */
  respond(responder: Responder | null): void;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_KEY = 'sk-ant-test-key-0000000000';
export const DEFAULT_FAKE_MODELS = ['claude-haiku-5-5', 'claude-sonnet-5-5', 'claude-opus-5-5'];

const DEFAULT_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const DEFAULT_ERROR_MESSAGES: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Permission denied',
  not_found_error: 'Not found',
  request_too_large: 'Request too large',
  rate_limit_error: 'Rate limited',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

export function textReply(text: string, extra?: Partial<Omit<MessageReply, 'kind' | 'content'>>): ScriptedReply {
  return { ...extra, kind: 'message', content: [{ type: 'text', text }] };
}

/** Thinking, then the given reply's content: the shape of an answer from a model that thinks. */
export function withThinking(reply: ScriptedReply, thinking = 'The user wants figures from the book; a read tool has them.'): ScriptedReply {
  if (reply.kind !== 'message') return reply;
  return { ...reply, content: [{ type: 'thinking', thinking }, ...reply.content] };
}

export function toolUseReply(name: string, input: unknown, text?: string): ScriptedReply {
  const content: ContentBlock[] = text ? [{ type: 'text', text }] : [];
  content.push({ type: 'tool_use', name, input });
  return { kind: 'message', content, stopReason: 'tool_use' };
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}

const tokensOf = (chars: number): number => Math.ceil(chars / 4);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutCacheControl(value: unknown): unknown {
  if (!isRecord(value) || !('cache_control' in value)) return value;
  const { cache_control: _ignored, ...rest } = value;
  return rest;
}

const hasBreakpoint = (value: unknown): boolean => isRecord(value) && value['cache_control'] != null;

/**
 * The request as the cache sees it: the blocks in the order tools → system → messages. A block's
 * text is its JSON without `cache_control`, since moving a breakpoint does not change the prefix
 * (the API hits a prefix written under an earlier breakpoint). A message's first block carries the
 * role, so the same words said by the other side are a different prefix.
 */
function cacheUnits(body: MessagesRequestBody): Array<{ text: string; breakpoint: boolean; ttl: string | undefined }> {
  const units: Array<{ text: string; breakpoint: boolean; ttl: string | undefined }> = [];
  const push = (value: unknown, lead = ''): void => {
    const cc = isRecord(value) ? value['cache_control'] : undefined;
    const ttl = isRecord(cc) && typeof cc['ttl'] === 'string' ? cc['ttl'] : undefined;
    units.push({ text: lead + JSON.stringify(withoutCacheControl(value)), breakpoint: hasBreakpoint(value), ttl });
  };
  for (const tool of body.tools ?? []) push(tool);
  if (Array.isArray(body.system)) for (const block of body.system) push(block);
  else if (body.system !== undefined) push(body.system);
  for (const message of body.messages) {
    const lead = JSON.stringify({ role: message.role });
    if (Array.isArray(message.content)) {
      if (message.content.length === 0) push([], lead);
      message.content.forEach((block, i) => push(block, i === 0 ? lead : ''));
    } else {
      push(message.content, lead);
    }
  }
  return units;
}

/** How far back from a breakpoint the API looks for an earlier cached prefix (its documented ~20 blocks). */
const CACHE_LOOKBACK_BLOCKS = 20;

interface UsageCounts {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/**
 * The prompt cache of one server. Entries are written at each breakpoint; a request reads the
 * longest prefix written before, looking back from each of its breakpoints, and writes the rest
 * of the prefix up to its last breakpoint. With a single breakpoint that is simply: seen → read,
 * else → creation.
 */
class PromptCache {
  private readonly written = new Set<string>();

  usage(body: MessagesRequestBody): UsageCounts {
    const units = cacheUnits(body);
    const hashes: string[] = [];
    const chars: number[] = [];
    let hash = createHash('sha256').update(body.model).digest('hex');
    let total = 0;
    for (const unit of units) {
      hash = createHash('sha256').update(hash).update('\u0000').update(unit.text).digest('hex');
      total += unit.text.length;
      hashes.push(hash);
      chars.push(total);
    }
    const totalTokens = tokensOf(total);
    const breakpoints = units.flatMap((u, i) => (u.breakpoint ? [i] : []));
    const last = breakpoints.at(-1);
    if (last === undefined) {
      return { input_tokens: totalTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } };
    }
    let readEnd = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= 0 && j > b - CACHE_LOOKBACK_BLOCKS; j--) {
        if (this.written.has(hashes[j]!)) {
          readEnd = Math.max(readEnd, j);
          break;
        }
      }
    }
    const prefixTokens = tokensOf(chars[last]!);
    const read = readEnd < 0 ? 0 : tokensOf(chars[readEnd]!);
    const creation = prefixTokens - read;
    for (const b of breakpoints) this.written.add(hashes[b]!);
    const oneHour = units[last]!.ttl === '1h';
    return {
      input_tokens: totalTokens - prefixTokens,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: oneHour ? 0 : creation, ephemeral_1h_input_tokens: oneHour ? creation : 0 },
    };
  }
}

interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<Record<string, unknown>>;
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details: Record<string, unknown> | null;
  container: null;
  usage: Record<string, unknown>;
}

/**
 * The thinking blocks one fake has sent: the API's signatures are opaque, and it refuses a block
 * sent back with other text or a signature it did not give. A recording replayed counts as sent.
 */
class Signatures {
  private readonly thinking = new Map<string, string>();
  private readonly redacted = new Set<string>();

  sign(thinking: string): string {
    const signature = randomId('fake-sig-', 32);
    this.thinking.set(signature, thinking);
    return signature;
  }

  redact(): string {
    const data = randomId('fake-redacted-', 32);
    this.redacted.add(data);
    return data;
  }

  /** The thinking blocks of a message this fake streams from a recording. */
  adopt(message: Record<string, unknown> | null): void {
    const content = message?.['content'];
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block['type'] === 'thinking' && typeof block['signature'] === 'string') this.thinking.set(block['signature'], String(block['thinking'] ?? ''));
      if (block['type'] === 'redacted_thinking' && typeof block['data'] === 'string') this.redacted.add(block['data']);
    }
  }

  /** Why the API would refuse the thinking blocks a request sends back; null when they pass. */
  problem(body: MessagesRequestBody): string | null {
    for (const [m, message] of body.messages.entries()) {
      if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
      for (const [b, block] of message.content.entries()) {
        if (!isRecord(block)) continue;
        const at = `messages.${m}.content.${b}`;
        if (block['type'] === 'thinking' && this.thinking.get(String(block['signature'])) !== block['thinking']) return `${at}: Invalid \`signature\` in \`thinking\` block`;
        if (block['type'] === 'redacted_thinking' && !this.redacted.has(String(block['data']))) return `${at}: Invalid \`data\` in \`redacted_thinking\` block`;
      }
    }
    return null;
  }
}

interface Built {
  message: WireMessage;
  /** The cut JSON of a tool_use block the output ran out in (streamed as it is; not valid JSON). */
  partialJson: Map<number, string>;
}

function buildMessage(reply: MessageReply, model: string, usage: UsageCounts, signatures: Signatures, display?: unknown): Built {
  let outputChars = 0;
  let budget = reply.cutAfterChars ?? Number.POSITIVE_INFINITY;
  const take = (text: string): string => {
    const kept = Array.from(text).slice(0, Math.max(0, budget)).join('');
    budget -= Array.from(text).length;
    outputChars += kept.length;
    return kept;
  };
  const partialJson = new Map<number, string>();
  const content: Array<Record<string, unknown>> = [];
  for (const block of reply.content) {
    if (budget <= 0) break;
    const index = content.length;
    if (block.type === 'text') {
      content.push({ type: 'text', text: take(block.text) });
    } else if (block.type === 'thinking') {
      const whole = budget >= Array.from(block.thinking).length;
      const thinking = take(block.thinking);
      // With display "omitted" the API sends the signature and no text.
      const shown = display === 'omitted' ? '' : thinking;
      content.push({ type: 'thinking', thinking: shown, signature: whole ? signatures.sign(shown) : '' });
    } else if (block.type === 'redacted_thinking') {
      content.push({ type: 'redacted_thinking', data: signatures.redact() });
    } else {
      const json = JSON.stringify(block.input ?? {});
      const kept = take(json);
      if (kept.length < json.length) partialJson.set(index, kept);
      content.push({ type: 'tool_use', id: block.id ?? randomId('toolu_'), name: block.name, input: kept.length < json.length ? {} : block.input ?? {} });
    }
  }
  const cut = reply.cutAfterChars !== undefined && budget < 0;
  const stopReason = cut ? 'max_tokens' : reply.stopReason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const stopDetails = stopReason === 'refusal' ? { type: 'refusal', category: null, explanation: null, ...reply.stopDetails } : null;
  return {
    message: {
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: stopDetails,
      container: null,
      usage: { ...usage, output_tokens: reply.outputTokens ?? Math.max(1, tokensOf(outputChars)), service_tier: 'standard', server_tool_use: null },
    },
    partialJson,
  };
}

function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** The SSE the API sends for a whole message. */
function messageEvents(message: WireMessage, chunkChars: number, partialJson: ReadonlyMap<number, string> = new Map()): SseEvent[] {
  const size = Math.max(1, Math.floor(chunkChars));
  const usage = message.usage;
  const events: SseEvent[] = [
    { event: 'message_start', data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, stop_details: null, usage: { ...usage, output_tokens: 1 } } } },
    { event: 'ping', data: { type: 'ping' } },
  ];
  const delta = (index: number, d: Record<string, unknown>) => events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  message.content.forEach((block, index) => {
    if (block['type'] === 'tool_use') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} } } });
      for (const partial of pieces(partialJson.get(index) ?? JSON.stringify(block['input']), size)) delta(index, { type: 'input_json_delta', partial_json: partial });
    } else if (block['type'] === 'thinking') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } } });
      for (const thinking of pieces(String(block['thinking']), size)) delta(index, { type: 'thinking_delta', thinking });
      if (block['signature']) delta(index, { type: 'signature_delta', signature: block['signature'] });
    } else if (block['type'] === 'redacted_thinking') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...block } } });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const text of pieces(String(block['text'] ?? ''), size)) delta(index, { type: 'text_delta', text });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null, stop_details: message.stop_details, container: null },
      usage: {
        output_tokens: usage['output_tokens'],
        input_tokens: usage['input_tokens'],
        cache_creation_input_tokens: usage['cache_creation_input_tokens'],
        cache_read_input_tokens: usage['cache_read_input_tokens'],
        server_tool_use: null,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** The Message a recorded stream adds up to, for a non-streaming request replayed from SSE. */
export function assembleMessage(events: SseEvent[]): Record<string, unknown> | null {
  let message: Record<string, unknown> | null = null;
  const content: Array<Record<string, unknown>> = [];
  const json: string[] = [];
  for (const { data } of events) {
    if (!isRecord(data)) continue;
    const index = typeof data['index'] === 'number' ? data['index'] : -1;
    switch (data['type']) {
      case 'message_start':
        if (isRecord(data['message'])) message = { ...data['message'], usage: { ...(data['message']['usage'] as object) } };
        break;
      case 'content_block_start':
        if (isRecord(data['content_block'])) content[index] = { ...data['content_block'] };
        json[index] = '';
        break;
      case 'content_block_delta': {
        const delta = data['delta'];
        const block = content[index];
        if (!isRecord(delta) || !block) break;
        if (delta['type'] === 'text_delta') block['text'] = String(block['text'] ?? '') + String(delta['text']);
        if (delta['type'] === 'input_json_delta') json[index] = (json[index] ?? '') + String(delta['partial_json']);
        if (delta['type'] === 'thinking_delta') block['thinking'] = String(block['thinking'] ?? '') + String(delta['thinking']);
        if (delta['type'] === 'signature_delta') block['signature'] = String(delta['signature']);
        break;
      }
      case 'content_block_stop': {
        const block = content[index];
        if (block && block['type'] === 'tool_use' && json[index]) {
          try {
            block['input'] = JSON.parse(json[index]);
          } catch {
            // Cut off by max_tokens: the API's input is not a whole object.
            block['input'] = {};
          }
        }
        break;
      }
      case 'message_delta':
        if (message && isRecord(data['delta'])) Object.assign(message, data['delta']);
        if (message && isRecord(data['usage'])) {
          const usage = message['usage'] as Record<string, unknown>;
          for (const [k, v] of Object.entries(data['usage'])) if (v != null) usage[k] = v;
        }
        break;
    }
  }
  if (message) message['content'] = content.filter(Boolean);
  return message;
}

function errorBody(type: string, message: string): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type, message } };
}

const sseChunk = ({ event, data }: SseEvent): string => `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Hop-by-hop and framing headers of a recording that the fake must set itself. */
const NOT_REPLAYED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding', 'date', 'set-cookie', 'content-type']);
function replayHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (!NOT_REPLAYED.has(k.toLowerCase())) out[k.toLowerCase()] = v;
  return out;
}

export function startFakeMessagesApi(options?: { key?: string; models?: string[]; responder?: Responder; port?: number }): Promise<FakeMessagesApi> {
  const key = options?.key ?? DEFAULT_FAKE_KEY;
  const models = options?.models ?? DEFAULT_FAKE_MODELS;
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let responder: Responder | null = options?.responder ?? null;
  let messageIndex = 0;
  const cache = new PromptCache();
  const signatures = new Signatures();

  const authorised = (req: IncomingMessage): boolean => {
    const bearer = req.headers['authorization'];
    const apiKey = req.headers['x-api-key'];
    return bearer === `Bearer ${key}` || apiKey === key;
  };

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'request-id': randomId('req_'), ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const sendError = (res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void =>
    sendJson(res, status, errorBody(type, message), headers);

  /** Resolves once the bytes are handed to the kernel, so a destroy after it cannot swallow them. */
  const write = (res: ServerResponse, chunk: string): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed || res.writableEnded) return resolve();
      res.write(chunk, () => resolve());
    });

  const writeSse = async (res: ServerResponse, events: SseEvent[], delayMs: number, headers: Record<string, string> = {}, holds: ReadonlyArray<Promise<unknown>> = []): Promise<void> => {
    res.writeHead(200, { 'request-id': randomId('req_'), ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const holdAt = new Map(holds.map((hold, i) => [Math.floor(((i + 1) * events.length) / (holds.length + 1)), hold]));
    for (const [i, event] of events.entries()) {
      if (res.destroyed) return;
      if (delayMs > 0 && i > 0) await sleep(delayMs);
      await holdAt.get(i)?.catch(() => undefined);
      await write(res, sseChunk(event));
    }
    res.end();
  };

  /** message_start and text deltas of `textBefore`: the part of a stream a failure comes after. */
  const openingEvents = (body: MessagesRequestBody, textBefore: string): SseEvent[] => {
    const { message } = buildMessage({ kind: 'message', content: [{ type: 'text', text: textBefore }] }, body.model, cache.usage(body), signatures);
    const events = messageEvents(message, 12);
    const stop = events.findIndex((e) => e.event === 'content_block_stop');
    return events.slice(0, stop < 0 ? events.length : stop);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, body: MessagesRequestBody, reply: ScriptedReply): Promise<void> => {
    const streaming = body.stream === true;
    switch (reply.kind) {
      case 'message': {
        const display = isRecord(body['thinking']) ? body['thinking']['display'] : undefined;
        const { message, partialJson } = buildMessage(reply, body.model, cache.usage(body), signatures, display);
        if (!streaming) return sendJson(res, 200, message);
        return writeSse(res, messageEvents(message, reply.chunkChars ?? 12, partialJson), reply.delayMs ?? 0, {}, reply.holds);
      }
      case 'http_error': {
        const type = reply.errorType ?? DEFAULT_ERROR_TYPES[reply.status] ?? 'api_error';
        const headers: Record<string, string> = {};
        if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
        if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
        if (reply.shouldRetry !== undefined) headers['x-should-retry'] = String(reply.shouldRetry);
        return sendError(res, reply.status, type, reply.message ?? DEFAULT_ERROR_MESSAGES[type] ?? type, headers);
      }
      case 'stream_error': {
        const type = reply.errorType ?? 'overloaded_error';
        const message = reply.message ?? DEFAULT_ERROR_MESSAGES[type] ?? type;
        // A non-streaming request cannot fail mid-body; the API answers it with the error status instead.
        if (!streaming) return sendError(res, type === 'overloaded_error' ? 529 : 500, type, message);
        const events = openingEvents(body, reply.textBefore ?? 'Partial answer ');
        events.push({ event: 'error', data: errorBody(type, message) });
        return writeSse(res, events, 0);
      }
      case 'drop': {
        if (streaming) {
          res.writeHead(200, { 'request-id': randomId('req_'), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
          res.flushHeaders();
          for (const event of openingEvents(body, reply.textBefore ?? 'Partial answer ')) await write(res, sseChunk(event));
        }
        req.socket.destroy();
        return;
      }
      case 'hang':
        return;
      case 'idle': {
        if (!streaming) return;
        res.writeHead(200, { 'request-id': randomId('req_'), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        res.flushHeaders();
        const opening = openingEvents(body, reply.textBefore ?? '');
        // No text: message_start alone, the stream open and silent after it.
        for (const event of reply.textBefore ? opening : opening.slice(0, 1)) await write(res, sseChunk(event));
        return;
      }
      case 'raw_sse': {
        const message = assembleMessage(reply.events);
        signatures.adopt(message);
        if (streaming) return writeSse(res, reply.events, 0, replayHeaders(reply.headers));
        if (message) return sendJson(res, 200, message, replayHeaders(reply.headers));
        return sendError(res, 500, 'api_error', 'recorded stream holds no message');
      }
      case 'raw_json': {
        const recorded = reply.body;
        if (isRecord(recorded)) signatures.adopt(recorded);
        if (streaming && reply.status === 200 && isRecord(recorded) && recorded['type'] === 'message') {
          return writeSse(res, messageEvents(recorded as unknown as WireMessage, 12), 0, replayHeaders(reply.headers));
        }
        return sendJson(res, reply.status, recorded, replayHeaders(reply.headers));
      }
    }
  };

  const nextReply = (body: MessagesRequestBody): ScriptedReply => {
    const index = messageIndex++;
    const queued = queue.shift();
    if (queued) return queued;
    if (responder) return responder(body, index);
    return textReply('(no scripted reply)');
  };

  const listModels = (url: URL, res: ServerResponse): void => {
    const all = models.map((id) => ({
      type: 'model',
      id,
      display_name: id
        .replace(/^claude-/, 'Claude ')
        .replace(/-(\d+)-(\d+)$/, ' $1.$2')
        .replace(/(^| )([a-z])/g, (_m, space: string, letter: string) => space + letter.toUpperCase()),
      created_at: '2026-01-01T00:00:00Z',
      deprecated_at: null,
      retires_at: null,
      lifecycle: 'active',
      capabilities: null,
      line: /^claude-(haiku|sonnet|opus|fable|mythos)\b/.exec(id)?.[1] ?? null,
      max_input_tokens: null,
      max_tokens: null,
    }));
    const limit = Math.max(1, Math.min(1000, Number(url.searchParams.get('limit') ?? 20) || 20));
    const after = url.searchParams.get('after_id');
    const before = url.searchParams.get('before_id');
    let page: typeof all;
    let hasMore: boolean;
    if (before) {
      const end = Math.max(0, all.findIndex((m) => m.id === before));
      page = all.slice(Math.max(0, end - limit), end);
      hasMore = end - limit > 0;
    } else {
      const start = after ? all.findIndex((m) => m.id === after) + 1 : 0;
      page = all.slice(start, start + limit);
      hasMore = start + limit < all.length;
    }
    sendJson(res, 200, { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    // undefined marks a body that is not JSON at all, apart from an empty one (null).
    let parsed: unknown;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    requests.push({ at: Date.now(), path: url.pathname, headers, body: isRecord(parsed) ? (parsed as MessagesRequestBody) : null });

    const route = `${req.method ?? 'GET'} ${url.pathname.replace(/\/+$/, '')}`;
    if (route !== 'POST /v1/messages' && route !== 'GET /v1/models') {
      return sendError(res, 404, 'not_found_error', `${req.method} ${url.pathname} is not served by the fake`);
    }
    if (!authorised(req)) return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    if (route === 'GET /v1/models') return listModels(url, res);

    if (parsed === undefined) return sendError(res, 400, 'invalid_request_error', 'request body is not valid JSON');
    const problem = !isRecord(parsed)
      ? 'request body must be a JSON object'
      : typeof parsed['model'] !== 'string' || !parsed['model']
        ? 'model: Field required'
        : !Array.isArray(parsed['messages'])
          ? 'messages: Field required'
          : typeof parsed['max_tokens'] !== 'number'
            ? 'max_tokens: Field required'
            : null;
    if (problem) return sendError(res, 400, 'invalid_request_error', problem);
    const body = parsed as MessagesRequestBody;
    const changed = signatures.problem(body);
    if (changed) return sendError(res, 400, 'invalid_request_error', changed);

    let reply: ScriptedReply;
    try {
      reply = nextReply(body);
    } catch (error) {
      return sendError(res, 500, 'api_error', `fake responder threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    await answer(req, res, body, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', `fake failed: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options?.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        script: (...replies) => void queue.push(...replies),
        clear: () => void queue.splice(0),
        respond: (next) => void (responder = next),
        close: () =>
          new Promise<void>((done, fail) => {
            if (!server.listening) return done();
            server.close((error) => (error ? fail(error) : done()));
            // Hung requests and keep-alive sockets would otherwise hold close() open forever.
            server.closeAllConnections();
          }),
      });
    });
  });
}
