import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic, { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_KEY, type FakeMessagesApi, startFakeMessagesApi, textReply, toolUseReply, withThinking } from './messages-api.js';
import { type ReplayMismatch, replayResponder, requestKey, startRecordingProxy } from './transcripts.js';

const MODEL = 'claude-haiku-5-5';
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function fake(options?: Parameters<typeof startFakeMessagesApi>[0]): Promise<FakeMessagesApi> {
  const api = await startFakeMessagesApi(options);
  closers.push(() => api.close());
  return api;
}

function client(url: string, extra: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}): Anthropic {
  return new Anthropic({ apiKey: DEFAULT_FAKE_KEY, baseURL: url, maxRetries: 0, ...extra });
}

const ask = (text: string) => ({ model: MODEL, max_tokens: 256, messages: [{ role: 'user' as const, content: text }] });

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!check()) throw new Error('condition never held');
}

describe('fake Messages API', () => {
  it('streams text as several text deltas and the final message has it all, with usage', async () => {
    const api = await fake();
    const answer = 'The open exposure on the book is 1,240 points across three markets.';
    api.script(textReply(answer, { chunkChars: 10 }));
    const deltas: string[] = [];
    const stream = client(api.url).messages.stream(ask('What is my exposure?')).on('text', (d) => void deltas.push(d));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(answer);
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: answer })]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBe(Math.ceil(answer.length / 4));
    expect(api.requests[0]?.headers['authorization']).toBe(`Bearer ${DEFAULT_FAKE_KEY}`);
    expect(api.requests[0]?.body?.stream).toBe(true);
  });

  it('sends a tool_use block as input_json_delta pieces that parse into the input', async () => {
    const api = await fake();
    const input = { player: 'Neha', period: 'this_week', markets: ['cricket', 'football'], limit: 25 };
    api.script(toolUseReply('get_exposure', input, 'Looking that up.'));
    const pieces: string[] = [];
    const stream = client(api.url).messages.stream({ ...ask('exposure for Neha'), tools: [{ name: 'get_exposure', input_schema: { type: 'object' } }] });
    stream.on('inputJson', (partial) => void pieces.push(partial));
    const message = await stream.finalMessage();
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe(JSON.stringify(input));
    expect(message.stop_reason).toBe('tool_use');
    const tool = message.content.find((b) => b.type === 'tool_use');
    expect(tool).toMatchObject({ type: 'tool_use', name: 'get_exposure', input });
    expect(tool?.type === 'tool_use' && tool.id).toMatch(/^toolu_/);
  });

  it('answers a non-streaming request with the assembled message', async () => {
    const api = await fake();
    api.script(toolUseReply('lookup', { q: 'x' }, 'ok'));
    const message = await client(api.url).messages.create(ask('hi'));
    expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('simulates the prompt cache: creation, then a read of the same size, creation again when the prefix changes', async () => {
    const api = await fake();
    const anthropic = client(api.url);
    const system = (rules: string) => [{ type: 'text' as const, text: `You are the desk assistant. ${rules} `.repeat(40), cache_control: { type: 'ephemeral' as const } }];
    const request = (rules: string, question: string) => ({ ...ask(question), system: system(rules) });

    const first = (await anthropic.messages.stream(request('Never guess.', 'first question')).finalMessage()).usage;
    const second = (await anthropic.messages.stream(request('Never guess.', 'a different question')).finalMessage()).usage;
    const third = (await anthropic.messages.stream(request('Always cite.', 'first question')).finalMessage()).usage;

    expect(first.cache_creation_input_tokens).toBeGreaterThan(100);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(0);
    expect(second.input_tokens).toBeGreaterThan(0);
    expect(third.cache_read_input_tokens).toBe(0);
    expect(third.cache_creation_input_tokens).toBeGreaterThan(100);

    // Another model has a cache of its own.
    const other = (await anthropic.messages.stream({ ...request('Never guess.', 'first question'), model: 'claude-sonnet-5-5' }).finalMessage()).usage;
    expect(other.cache_read_input_tokens).toBe(0);
  });

  it('reads the earlier prefix when the breakpoint moves to the newest message, as the API looks back', async () => {
    const api = await fake();
    const anthropic = client(api.url);
    const turn = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text, cache_control: { type: 'ephemeral' as const } }] });
    const plain = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
    const long = 'Show me the settled bets for the last month, grouped by market. '.repeat(20);
    api.script(textReply('first answer'));
    const first = (await anthropic.messages.stream({ model: MODEL, max_tokens: 100, messages: [turn(long)] }).finalMessage()).usage;
    const second = (
      await anthropic.messages
        .stream({ model: MODEL, max_tokens: 100, messages: [plain(long), { role: 'assistant', content: 'first answer' }, turn('and the open ones?')] })
        .finalMessage()
    ).usage;
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('rejects a wrong key with 401 and lists the models', async () => {
    const api = await fake();
    await expect(client(api.url, { apiKey: 'sk-ant-wrong' }).messages.stream(ask('hi')).finalMessage()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client(api.url, { apiKey: 'sk-ant-wrong' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    const ids: string[] = [];
    for await (const model of client(api.url).models.list()) ids.push(model.id);
    expect(ids).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5', 'claude-opus-5-5']);
    const paged: string[] = [];
    for await (const model of client(api.url).models.list({ limit: 1 })) paged.push(model.id);
    expect(paged).toEqual(ids);
  });

  it('accepts the key as x-api-key too, and answers bad bodies with 400', async () => {
    const api = await fake();
    const ok = await fetch(`${api.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': DEFAULT_FAKE_KEY, 'content-type': 'application/json' }, body: JSON.stringify(ask('hi')) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('request-id')).toMatch(/^req_/);
    expect(((await ok.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe('(no scripted reply)');
    const bad = await fetch(`${api.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': DEFAULT_FAKE_KEY }, body: JSON.stringify({ model: MODEL, messages: [] }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const none = await fetch(`${api.url}/v1/messages`, { method: 'POST', body: JSON.stringify(ask('hi')) });
    expect(await none.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
  });

  it('retries a 429 with retry-after-ms and succeeds on the next reply', async () => {
    const api = await fake();
    api.script({ kind: 'http_error', status: 429, retryAfterMs: 5 }, textReply('after the retry'));
    const message = await client(api.url, { maxRetries: 1 }).messages.stream(ask('hi')).finalMessage();
    expect(message.content[0]).toMatchObject({ text: 'after the retry' });
    expect(api.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(2);
  });

  it('sends retry-after and x-should-retry as scripted', async () => {
    const api = await fake();
    api.script({ kind: 'http_error', status: 500, retryAfterSeconds: 7, shouldRetry: false });
    const error = await client(api.url, { maxRetries: 3 }).messages.create(ask('hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).headers?.get('retry-after')).toBe('7');
    expect((error as APIError).type).toBe('api_error');
    expect(api.requests).toHaveLength(1);
  });

  it('gives a 529 as an APIError with status 529', async () => {
    const api = await fake();
    api.script({ kind: 'http_error', status: 529 });
    const error = await client(api.url).messages.stream(ask('hi')).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(529);
    expect((error as APIError).type).toBe('overloaded_error');
  });

  it('fails a stream with event: error after some text arrived', async () => {
    const api = await fake();
    api.script({ kind: 'stream_error', textBefore: 'The settled total is' });
    let text = '';
    const stream = client(api.url).messages.stream(ask('hi')).on('text', (d) => void (text += d));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(text).toBe('The settled total is');
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toMatch(/overloaded/i);
  });

  it('fails a request whose connection drops: mid-stream, and before any answer', async () => {
    const api = await fake();
    api.script({ kind: 'drop', textBefore: 'Half an ans' }, { kind: 'drop' });
    let text = '';
    const stream = client(api.url).messages.stream(ask('hi')).on('text', (d) => void (text += d));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(text).toBe('Half an ans');
    // Past the headers the SDK no longer wraps a socket failure as APIConnectionError: it passes
    // undici's 'terminated' on as a bare AnthropicError, with no status.
    expect(error).toBeInstanceOf(AnthropicError);
    expect(error).not.toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/terminated/);
    await expect(client(api.url).messages.create(ask('hi'))).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('hangs until the client times out, or the caller aborts', async () => {
    const api = await fake();
    api.script({ kind: 'hang' }, { kind: 'hang' });
    await expect(client(api.url, { timeout: 300 }).messages.stream(ask('hi')).finalMessage()).rejects.toBeInstanceOf(APIConnectionTimeoutError);

    const controller = new AbortController();
    const pending = client(api.url).messages.stream(ask('hi'), { signal: controller.signal }).finalMessage();
    const settled = pending.catch((e: unknown) => e);
    await until(() => api.requests.length === 2);
    controller.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
  });

  it('uses the responder when the queue is empty, with the index of the call', async () => {
    const api = await fake({ responder: (body, index) => textReply(`#${index} ${body.model}`) });
    api.script(textReply('queued'));
    const anthropic = client(api.url);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push(await anthropic.messages.stream(ask('hi')).finalText());
    expect(texts).toEqual(['queued', `#1 ${MODEL}`, `#2 ${MODEL}`]);
    api.respond(null);
    expect(await anthropic.messages.stream(ask('hi')).finalText()).toBe('(no scripted reply)');
  });
});

describe('the shapes a real model answers in', () => {
  it('streams thinking with its signature, and refuses a thinking block sent back changed', async () => {
    const api = await fake();
    api.script(withThinking(toolUseReply('lookup', { q: 'x' }), 'I should look it up.'), { kind: 'message', content: [{ type: 'redacted_thinking' }, { type: 'text', text: 'Done.' }] });
    const anthropic = client(api.url);
    const thinking: string[] = [];
    const first = await anthropic.messages.stream(ask('hi')).on('thinking', (d) => void thinking.push(d)).finalMessage();
    expect(thinking.join('')).toBe('I should look it up.');
    const block = first.content[0]!;
    expect(block).toMatchObject({ type: 'thinking', thinking: 'I should look it up.', signature: expect.stringMatching(/^fake-sig-/) });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    const loop = (content: Anthropic.ContentBlockParam[]) => ({
      ...ask('hi'),
      messages: [...ask('hi').messages, { role: 'assistant' as const, content }, { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: use.id, content: 'ok' }] }],
    });
    const second = await anthropic.messages.stream(loop(first.content as Anthropic.ContentBlockParam[])).finalMessage();
    expect(second.content[0]).toMatchObject({ type: 'redacted_thinking', data: expect.stringMatching(/^fake-redacted-/) });
    const edited = first.content.map((b) => (b.type === 'thinking' ? { ...b, thinking: 'Something else.' } : b)) as Anthropic.ContentBlockParam[];
    const refused = await anthropic.messages.stream(loop(edited)).finalMessage().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(400);
    expect((refused as APIError).message).toMatch(/signature/);
  });

  it('sends no thinking text when the request asks for display "omitted"', async () => {
    const api = await fake();
    api.script(withThinking(textReply('Hi.')));
    const message = await client(api.url).messages.stream({ ...ask('hi'), thinking: { type: 'adaptive', display: 'omitted' } }).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: '', signature: expect.stringMatching(/^fake-sig-/) });
  });

  it('cuts an answer off at max_tokens mid-word, and a tool call mid-input', async () => {
    const api = await fake();
    api.script(
      { kind: 'message', content: [{ type: 'text', text: 'Karan owes you twelve thousand points.' }], cutAfterChars: 17 },
      { kind: 'message', content: [{ type: 'thinking', thinking: 'Think.' }, { type: 'tool_use', name: 'edit', input: { player: 'Karan', newValue: 6_000_000 } }], cutAfterChars: 6 + 30 },
      { kind: 'message', content: [{ type: 'thinking', thinking: 'A long thought that never ends.' }, { type: 'text', text: 'Never said.' }], cutAfterChars: 10 },
    );
    const anthropic = client(api.url);
    const text = await anthropic.messages.stream(ask('hi')).finalMessage();
    expect(text.stop_reason).toBe('max_tokens');
    expect(text.content).toEqual([expect.objectContaining({ type: 'text', text: 'Karan owes you tw' })]);
    const pieces: string[] = [];
    const tool = await anthropic.messages.stream(ask('hi')).on('inputJson', (d) => void pieces.push(d)).finalMessage();
    expect(tool.stop_reason).toBe('max_tokens');
    expect(pieces.join('')).toBe(JSON.stringify({ player: 'Karan', newValue: 6_000_000 }).slice(0, 30));
    const thinkingOnly = await anthropic.messages.stream(ask('hi')).finalMessage();
    expect(thinkingOnly.stop_reason).toBe('max_tokens');
    expect(thinkingOnly.content.map((b) => b.type)).toEqual(['thinking']);
  });

  it('ends a refusal with stop_details, and a paused turn with pause_turn', async () => {
    const api = await fake();
    api.script(
      { kind: 'message', content: [{ type: 'text', text: 'I can' }], stopReason: 'refusal', stopDetails: { category: 'general_harms', explanation: 'no' } },
      { kind: 'message', content: [{ type: 'text', text: 'Still working.' }], stopReason: 'pause_turn' },
    );
    const anthropic = client(api.url);
    const refusal = await anthropic.messages.stream(ask('hi')).finalMessage();
    expect(refusal.stop_reason).toBe('refusal');
    expect(refusal.stop_details).toEqual({ type: 'refusal', category: 'general_harms', explanation: 'no' });
    expect((await anthropic.messages.stream(ask('hi')).finalMessage()).stop_reason).toBe('pause_turn');
  });

  it('opens a stream and then goes silent: the first event arrives, nothing after it', async () => {
    const api = await fake();
    api.script({ kind: 'idle' });
    const controller = new AbortController();
    const events: string[] = [];
    const stream = client(api.url).messages.stream(ask('hi'), { signal: controller.signal }).on('streamEvent', (e) => void events.push(e.type));
    const settled = stream.finalMessage().catch((e: unknown) => e);
    await until(() => events.length > 0);
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual(['message_start']);
    controller.abort();
    expect(await settled).toBeInstanceOf(APIUserAbortError);
  });
});

describe('record and replay', () => {
  it('records through a proxy without the key, and a replay gives the same text and tool_use', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-transcripts-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const upstream = await fake();
    upstream.script(textReply('Neha has 3 open bets.'), toolUseReply('list_bets', { player: 'Neha', status: 'open' }));
    const proxy = await startRecordingProxy({ upstream: upstream.url, dir });
    closers.push(() => proxy.close());

    const tools = [{ name: 'list_bets', description: 'Bets of a player', input_schema: { type: 'object' as const, properties: { player: { type: 'string' } } } }];
    const first = { ...ask('How many open bets has Neha?'), system: 'You are the desk assistant.' };
    const second = { ...ask('List them.'), tools };
    const viaProxy = client(proxy.url);
    const recorded1 = await viaProxy.messages.stream(first).finalMessage();
    const recorded2 = await viaProxy.messages.stream(second).finalMessage();
    await proxy.close();

    expect(upstream.requests[0]?.headers['authorization']).toBe(`Bearer ${DEFAULT_FAKE_KEY}`);
    const files = (await readdir(dir)).sort();
    expect(files).toEqual([`0001-${requestKey({ ...first, stream: true })}.json`, `0002-${requestKey({ ...second, stream: true })}.json`]);
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text).not.toContain(DEFAULT_FAKE_KEY);
      expect(JSON.parse(text)).toMatchObject({ status: 200, events: expect.arrayContaining([expect.objectContaining({ event: 'message_stop' })]) });
    }

    const replay = await fake({ responder: replayResponder(dir) });
    const direct = client(replay.url);
    // Asked in the other order: the key, not the sequence, picks the recording.
    const replayed2 = await direct.messages.stream(second).finalMessage();
    const replayed1 = await direct.messages.create(first);
    expect(replayed1.content).toEqual(recorded1.content);
    expect(replayed2.content).toEqual(recorded2.content);
    expect(replayed2.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'list_bets', input: { player: 'Neha', status: 'open' } });
  });

  it('never serves a recording whose request no longer matches: the reply says which recorded turn differs, and where', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-transcripts-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const upstream = await fake();
    upstream.script(textReply('First.'), textReply('Second.'));
    const proxy = await startRecordingProxy({ upstream: upstream.url, dir });
    const first = { ...ask('How many open bets has Neha?'), system: 'You are the desk assistant.' };
    const second = { ...ask('List them.'), messages: [...first.messages, { role: 'assistant' as const, content: 'First.' }, { role: 'user' as const, content: 'List them.' }] };
    await client(proxy.url).messages.stream(first).finalMessage();
    await client(proxy.url).messages.stream(second).finalMessage();
    await proxy.close();

    const drift: ReplayMismatch[] = [];
    const replay = await fake({ responder: replayResponder(dir, { onMismatch: (m) => drift.push(m) }) });
    const direct = client(replay.url);
    expect((await direct.messages.stream(first).finalMessage()).content).toEqual([expect.objectContaining({ text: 'First.' })]);
    const drifted = { ...second, messages: [...first.messages, { role: 'assistant' as const, content: 'First!' }, { role: 'user' as const, content: 'List them.' }] };
    const refused = await direct.messages.stream(drifted).finalMessage().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).message).toMatch(/request 2 .*recorded turn 2.*messages\[1\]/);
    const newSystem = await direct.messages.stream({ ...first, system: 'You are another assistant.' }).finalMessage().catch((e: unknown) => e);
    expect((newSystem as APIError).message).toMatch(/system/);
    expect(drift).toEqual([{ request: 2, recording: 2, differs: 'messages[1]' }, { request: 3, recording: 1, differs: 'system' }]);
  });

  it('keys requests by content, with tool_use ids normalised', () => {
    const withId = (id: string) => ({
      model: MODEL,
      max_tokens: 10,
      messages: [
        { role: 'assistant' as const, content: [{ type: 'tool_use', id, name: 'x', input: {} }] },
        { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      ],
    });
    expect(requestKey(withId('toolu_AAA'))).toBe(requestKey(withId('toolu_BBB')));
    expect(requestKey({ ...withId('toolu_AAA'), max_tokens: 99, stream: true })).toBe(requestKey(withId('toolu_AAA')));
    expect(requestKey(ask('a'))).not.toBe(requestKey(ask('b')));
  });
});
