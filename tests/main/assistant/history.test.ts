import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChatHistoryStore, FileChatHistory, MAX_KEPT_MESSAGES, MemoryChatHistory } from '../../../src/main/assistant/history.js';
import { type ChatMessage, MAX_CONVERSATIONS } from '../../../src/shared/contracts/chat.js';

const USER = '11111111-1111-4111-8111-111111111111';
const message = (i: number): ChatMessage => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, role: i % 2 === 0 ? 'user' : 'assistant', at: new Date(Date.UTC(2026, 10, 20, 0, 0, i)).toISOString(),
  text: `message ${i}`, cards: [], requestId: `r${i}`,
});
const texts = (messages: ChatMessage[]) => messages.map((m) => m.text);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `message ${from + i}`);

/** The one conversation file of USER's folder. */
async function onlyFile(dir: string): Promise<string> {
  const files = (await readdir(join(dir, USER))).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(dir, USER, files[0]!);
}

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
    const file = await onlyFile(dir);
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
    const file = await onlyFile(dir);
    await writeFile(file, `${await readFile(file, 'utf8')}{"id":"torn`);
    const reopened = new FileChatHistory(dir);
    await reopened.append(USER, [message(4), message(5)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 6));
    expect((await readdir(join(dir, USER))).some((f) => f.includes('.damaged-'))).toBe(true);
  });

  it('converts a conversation kept in the format before paging, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    await writeFile(join(dir, `${USER}.json`), JSON.stringify({ version: 1, messages: [message(0), message(1)] }));
    const history = new FileChatHistory(dir);
    await history.append(USER, [message(2), message(3)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 4));
    expect(await readdir(dir)).toEqual([USER]);
    await onlyFile(dir);
  });

  it('keeps the single conversation of before as the first of the user\'s conversations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    await writeFile(join(dir, `${USER}.jsonl`), [message(0), message(1)].map((m) => `${JSON.stringify(m)}\n`).join(''));
    const history = new FileChatHistory(dir);
    expect((await history.list(USER)).map((c) => c.title)).toEqual(['message 0']);
    await history.append(USER, [message(2), message(3)]);
    expect(texts((await new FileChatHistory(dir).page(USER, { limit: 60 })).messages)).toEqual(range(0, 4));
    expect(await readdir(dir)).toEqual([USER]);
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

const OTHER = '22222222-2222-4222-8222-222222222222';
const said = (i: number, text: string): ChatMessage => ({ ...message(i), text });

/** A turn: the user's words and an answer, `i` apart from every other turn's ids and times. */
const turn = (i: number, question: string, answer = `answer ${i}`): ChatMessage[] => [said(i, question), { ...said(i + 1, answer), role: 'assistant' }];

/**
 * Several conversations per user: the one a turn adds to is the current one; the list names each
 * by its first message, a search looks at titles and messages, and a user's calls reach their own
 * conversations only.
 */
describe.each([
  ['in files', async () => new FileChatHistory(await mkdtemp(join(tmpdir(), 'history-')))],
  ['in memory', async () => new MemoryChatHistory()],
] as Array<[string, () => Promise<ChatHistoryStore>]>)('conversations %s', (_where, make) => {
  it('starts another conversation, lists both latest first with their titles, and switches between them', async () => {
    const history = await make();
    await history.append(USER, turn(0, 'Who owes me the most?'));
    await history.start(USER);
    expect((await history.page(USER, { limit: 60 })).messages).toEqual([]);
    // A conversation with nothing in it is not listed yet.
    expect(await history.list(USER)).toHaveLength(1);
    await history.append(USER, turn(2, '  Show my\n downline  '));
    const list = await history.list(USER);
    expect(list.map((c) => [c.title, c.current, c.messages])).toEqual([['Show my downline', true, 2], ['Who owes me the most?', false, 2]]);
    expect(await history.open(USER, list[1]!.id)).toBe(true);
    expect(texts((await history.page(USER, { limit: 60 })).messages)).toEqual(['Who owes me the most?', 'answer 0']);
    await history.append(USER, turn(4, 'and today?'));
    expect((await history.list(USER)).map((c) => [c.title, c.current])).toEqual([['Who owes me the most?', true], ['Show my downline', false]]);
  });

  it('conversations stamped at the same moment (a clock held still) are listed by which was added to last', async () => {
    const history = await make();
    await history.append(USER, turn(0, 'Who owes me the most?'));
    await history.start(USER);
    await history.append(USER, turn(0, 'Show my downline'));
    expect((await history.list(USER)).map((c) => c.title)).toEqual(['Show my downline', 'Who owes me the most?']);
    await history.open(USER, (await history.list(USER))[1]!.id);
    await history.append(USER, turn(0, 'and today?'));
    expect((await history.list(USER)).map((c) => c.title)).toEqual(['Who owes me the most?', 'Show my downline']);
  });

  it('a long first message makes a title of one short line', async () => {
    const history = await make();
    await history.append(USER, turn(0, `${'very '.repeat(40)}long`));
    const [only] = await history.list(USER);
    expect(only!.title.length).toBeLessThanOrEqual(60);
    expect(only!.title.endsWith('…')).toBe(true);
  });

  it('searches titles and messages, in any case, and says which message holds the words', async () => {
    const history = await make();
    await history.append(USER, turn(0, 'Exposure on India vs Australia', 'Your exposure is 12,000.00 points'));
    await history.start(USER);
    await history.append(USER, turn(2, 'Show my downline', 'Karan Malhotra owes you 5,000.00 points'));
    expect((await history.list(USER, 'india')).map((c) => c.title)).toEqual(['Exposure on India vs Australia']);
    const [karan, ...rest] = await history.list(USER, 'KARAN malhotra');
    expect(rest).toEqual([]);
    expect(karan!.title).toBe('Show my downline');
    expect(karan!.match).toBe('Karan Malhotra owes you 5,000.00 points');
    expect(await history.list(USER, 'points')).toHaveLength(2);
    expect(await history.list(USER, 'nobody said this')).toEqual([]);
    expect(await history.list(USER, '  ')).toHaveLength(2);
  });

  it('deletes one conversation; deleting the current one (or clearing it) leaves an empty current one', async () => {
    const history = await make();
    await history.append(USER, turn(0, 'first'));
    await history.start(USER);
    await history.append(USER, turn(2, 'second'));
    const [second, first] = await history.list(USER);
    expect(await history.remove(USER, first!.id)).toBe(true);
    expect(await history.remove(USER, first!.id)).toBe(false);
    expect((await history.list(USER)).map((c) => c.title)).toEqual(['second']);
    expect(texts((await history.page(USER, { limit: 60 })).messages)).toEqual(['second', 'answer 2']);
    expect(await history.remove(USER, second!.id)).toBe(true);
    expect(await history.list(USER)).toEqual([]);
    expect((await history.page(USER, { limit: 60 })).messages).toEqual([]);
    await history.append(USER, turn(4, 'third'));
    await history.clear(USER);
    expect(await history.list(USER)).toEqual([]);
    expect(await history.open(USER, second!.id)).toBe(false);
  });

  it("one user never sees, opens or deletes another's conversations", async () => {
    const history = await make();
    await history.append(USER, turn(0, 'my secret book'));
    const [mine] = await history.list(USER);
    expect(await history.list(OTHER)).toEqual([]);
    expect(await history.list(OTHER, 'secret')).toEqual([]);
    expect(await history.open(OTHER, mine!.id)).toBe(false);
    expect(await history.remove(OTHER, mine!.id)).toBe(false);
    expect((await history.page(OTHER, { limit: 60 })).messages).toEqual([]);
    await history.append(OTHER, turn(2, 'their question'));
    await history.clear(OTHER);
    expect((await history.list(USER)).map((c) => c.id)).toEqual([mine!.id]);
    expect(texts((await history.page(USER, { limit: 60 })).messages)).toEqual(['my secret book', 'answer 0']);
  });

  it(`keeps ${MAX_CONVERSATIONS} conversations: one more deletes the one used longest ago`, async () => {
    const history = await make();
    for (let i = 0; i < MAX_CONVERSATIONS + 1; i++) {
      await history.start(USER);
      await history.append(USER, turn(2 * i, `question ${i}`));
    }
    const titles = (await history.list(USER)).map((c) => c.title);
    expect(titles).toHaveLength(MAX_CONVERSATIONS);
    expect(titles).not.toContain('question 0');
    expect(titles[0]).toBe(`question ${MAX_CONVERSATIONS}`);
  });
});

describe('conversations in files, after a restart', () => {
  it('are all kept, the latest one current', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-'));
    const history = new FileChatHistory(dir);
    await history.append(USER, turn(0, 'older'));
    await history.start(USER);
    await history.append(USER, turn(2, 'newer'));
    const [newer, older] = await history.list(USER);
    await history.open(USER, older!.id);
    const reopened = new FileChatHistory(dir);
    expect((await reopened.list(USER)).map((c) => [c.id, c.title, c.current])).toEqual([[newer!.id, 'newer', true], [older!.id, 'older', false]]);
    expect(await reopened.remove(USER, older!.id)).toBe(true);
    expect((await new FileChatHistory(dir).list(USER)).map((c) => c.title)).toEqual(['newer']);
  });
});
