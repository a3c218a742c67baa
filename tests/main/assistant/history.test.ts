import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileChatHistory, MAX_KEPT_MESSAGES, MemoryChatHistory } from '../../../src/main/assistant/history.js';
import type { ChatMessage } from '../../../src/shared/contracts/chat.js';

const USER = '11111111-1111-4111-8111-111111111111';
const message = (i: number): ChatMessage => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, role: i % 2 === 0 ? 'user' : 'assistant', at: new Date(Date.UTC(2026, 10, 20, 0, 0, i)).toISOString(),
  text: `message ${i}`, cards: [], requestId: `r${i}`,
});
const texts = (messages: ChatMessage[]) => messages.map((m) => m.text);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `message ${from + i}`);

async function filled(count: number): Promise<{ dir: string; history: FileChatHistory }> {
  const dir = await mkdtemp(join(tmpdir(), 'history-'));
  const history = new FileChatHistory(dir);
  for (let i = 0; i < count; i += 2) await history.append(USER, [message(i), message(i + 1)]);
  return { dir, history };
}

/**
 * The conversation file: an append writes its own lines and nothing else (a turn's cost must not
 * grow with the conversation), the history is read a page at a time, and the last
 * MAX_KEPT_MESSAGES are kept in order across a restart.
 */
describe('the conversation file', () => {
  it('appends lines without rewriting the file, and compacts to the newest once it holds twice the cap', async () => {
    const { dir, history } = await filled(4);
    const file = join(dir, `${USER}.jsonl`);
    // Were the file rewritten from what the process holds, this edit would be lost.
    const edited = (await readFile(file, 'utf8')).replace('message 0', 'message zero');
    await writeFile(file, edited);
    await history.append(USER, [message(4), message(5)]);
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toContain('message zero');

    for (let i = 6; i < 2 * MAX_KEPT_MESSAGES; i += 2) await history.append(USER, [message(i), message(i + 1)]);
    const compacted = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(compacted).toHaveLength(MAX_KEPT_MESSAGES);
    expect(compacted[0]).toContain(`message ${MAX_KEPT_MESSAGES}`);
  });

  it('starts a conversation in a folder that does not exist yet', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'history-')), 'conversations');
    await new FileChatHistory(dir).append(USER, [message(0), message(1)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 2));
  });

  it('pages back by cursor to the oldest kept message, the same after a restart', async () => {
    const { dir, history } = await filled(130);
    for (const reader of [history, new FileChatHistory(dir)]) {
      const first = await reader.page(USER, { limit: 60 });
      expect(texts(first.messages)).toEqual(range(70, 130));
      expect(first.earlier).toBe(true);
      const second = await reader.page(USER, { limit: 60, before: first.messages[0]!.id });
      expect(texts(second.messages)).toEqual(range(10, 70));
      expect(second.earlier).toBe(true);
      const last = await reader.page(USER, { limit: 60, before: second.messages[0]!.id });
      expect(texts(last.messages)).toEqual(range(0, 10));
      expect(last.earlier).toBe(false);
      expect(await reader.page(USER, { limit: 60, before: last.messages[0]!.id })).toEqual({ messages: [], earlier: false });
    }
  });

  it('answers an empty conversation, an exact page, and a cursor it does not hold with nothing earlier', async () => {
    const { history } = await filled(0);
    expect(await history.page(USER, { limit: 60 })).toEqual({ messages: [], earlier: false });
    await history.append(USER, [message(0), message(1)]);
    expect(await history.page(USER, { limit: 2 })).toEqual({ messages: [message(0), message(1)], earlier: false });
    expect(await history.page(USER, { limit: 1 })).toEqual({ messages: [message(1)], earlier: true });
    // Cleared in another window, or trimmed past: nothing is before a message that is not kept.
    expect(await history.page(USER, { limit: 60, before: message(99).id })).toEqual({ messages: [], earlier: false });
    await history.clear(USER);
    expect(await history.page(USER, { limit: 60 })).toEqual({ messages: [], earlier: false });
  });

  it('a page asked for during an append waits for it', async () => {
    const { history } = await filled(2);
    const appending = history.append(USER, [message(2), message(3)]);
    const page = await history.page(USER, { limit: 60 });
    await appending;
    expect(texts(page.messages)).toEqual(range(0, 4));
  });

  it('a torn last write is set aside, and the next append starts a clean line', async () => {
    const { dir } = await filled(4);
    const file = join(dir, `${USER}.jsonl`);
    await writeFile(file, `${await readFile(file, 'utf8')}{"id":"torn`);
    const reopened = new FileChatHistory(dir);
    await reopened.append(USER, [message(4), message(5)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 6));
    expect((await readdir(dir)).some((f) => f.includes('.damaged-'))).toBe(true);
  });

  it('converts a conversation kept in the format before paging, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    await writeFile(join(dir, `${USER}.json`), JSON.stringify({ version: 1, messages: [message(0), message(1)] }));
    const history = new FileChatHistory(dir);
    await history.append(USER, [message(2), message(3)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 4));
    expect(await readdir(dir)).toEqual([`${USER}.jsonl`]);
  });
});

describe('the conversation in memory', () => {
  it('pages the same way and keeps at least the last MAX_KEPT_MESSAGES', async () => {
    const history = new MemoryChatHistory();
    for (let i = 0; i < 2 * MAX_KEPT_MESSAGES + 10; i += 2) await history.append(USER, [message(i), message(i + 1)]);
    const latest = await history.page(USER, { limit: 100 });
    expect(latest.messages.at(-1)!.text).toBe(`message ${2 * MAX_KEPT_MESSAGES + 9}`);
    let oldest = latest;
    while (oldest.earlier) oldest = await history.page(USER, { limit: 100, before: oldest.messages[0]!.id });
    expect(Number(oldest.messages[0]!.text.split(' ')[1])).toBeLessThanOrEqual(MAX_KEPT_MESSAGES + 10);
  });
});
