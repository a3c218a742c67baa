import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileChatHistory, MAX_KEPT_MESSAGES } from '../../src/main/assistant/history.js';
import type { ChatMessage } from '../../src/shared/contracts/chat.js';

const USER = '11111111-1111-4111-8111-111111111111';
const message = (i: number): ChatMessage => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, role: i % 2 === 0 ? 'user' : 'assistant', at: new Date(Date.UTC(2026, 10, 20, 0, 0, i)).toISOString(),
  text: `message ${i}`, cards: [], requestId: `r${i}`,
});

/**
 * The conversation file: an append costs the new messages, not a read and validation of the
 * whole file (the cost of a turn must not grow with the conversation), and still keeps the last
 * MAX_KEPT_MESSAGES in order across a restart.
 */
describe('the conversation file', () => {
  it('appends from what it already holds, keeps the newest, and reads back the same after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    const history = new FileChatHistory(dir);
    for (let i = 0; i < MAX_KEPT_MESSAGES + 10; i += 2) await history.append(USER, [message(i), message(i + 1)]);
    const reopened = await new FileChatHistory(dir).load(USER);
    expect(reopened).toHaveLength(MAX_KEPT_MESSAGES);
    expect(reopened[0]!.text).toBe('message 10');
    expect(reopened.at(-1)!.text).toBe(`message ${MAX_KEPT_MESSAGES + 9}`);
  });

  it('does not read the file again to append (what it wrote is what the file holds)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    const history = new FileChatHistory(dir);
    await history.append(USER, [message(0), message(1)]);
    const file = join(dir, `${USER}.json`);
    // Were the file read again, this edit would show up in the next write.
    const edited = JSON.parse(await readFile(file, 'utf8')) as { messages: ChatMessage[] };
    edited.messages[0]!.text = 'edited behind our back';
    await writeFile(file, JSON.stringify(edited));
    await history.append(USER, [message(2), message(3)]);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { messages: ChatMessage[] };
    expect(saved.messages.map((m) => m.text)).toEqual(['message 0', 'message 1', 'message 2', 'message 3']);
  });
});
