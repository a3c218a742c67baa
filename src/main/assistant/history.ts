import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isEntityId } from './policy/gate.js';
import { type ChatHistoryInput, type ChatHistoryPage, type ChatMessage, chatMessageSchema } from '../../shared/contracts/chat.js';

/** Each user's conversation, kept across restarts, read a page at a time. */
export interface ChatHistoryStore {
  /**
   * Up to `limit` messages, oldest first, that come just before the message `before` (the
   * latest ones without it), and whether any earlier ones are kept. A cursor that names no kept
   * message (cleared, or trimmed past) has nothing before it.
   */
  page(userId: string, request: ChatHistoryInput): Promise<ChatHistoryPage>;
  append(userId: string, messages: ChatMessage[]): Promise<void>;
  clear(userId: string): Promise<void>;
}

/** How many messages are kept at least; between compactions the file holds up to twice as many. */
export const MAX_KEPT_MESSAGES = 200;

/** The page of `messages` that `request` asks for (ChatHistoryStore.page). */
export function pageOf(messages: readonly ChatMessage[], request: ChatHistoryInput): ChatHistoryPage {
  let end = messages.length;
  if (request.before !== undefined) {
    // The cursor is nearly always among the latest: search from the end.
    end = messages.findLastIndex((m) => m.id === request.before);
    if (end === -1) return { messages: [], earlier: false };
  }
  const start = Math.max(0, end - request.limit);
  return { messages: messages.slice(start, end), earlier: start > 0 };
}

/** The format before paging (one JSON document, rewritten whole on every append): read once, then converted. */
const legacySchema = z.object({ version: z.literal(1), messages: z.array(chatMessageSchema) });

interface Kept {
  /** The file's valid messages, in order. */
  messages: ChatMessage[];
  /** How many lines the file holds: when it reaches twice MAX_KEPT_MESSAGES it is compacted. */
  lines: number;
}

/**
 * One JSON Lines file per user in the app's data folder: an append writes its own lines and
 * nothing else, so a turn costs the same in the first exchange and the thousandth. The file is
 * a trust boundary (anything could have written it): every line is validated on the first read,
 * and a file with a bad line (a torn last write, an edit) is set aside and its valid messages
 * written afresh, never trusted. After that first read the process answers pages from what it
 * holds, which is what the file holds.
 */
export class FileChatHistory implements ChatHistoryStore {
  private readonly writes = new Map<string, Promise<void>>();
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly dir: string) {}

  private file(userId: string, ext = 'jsonl'): string {
    if (!isEntityId(userId)) throw new Error('not a user id');
    return join(this.dir, `${userId}.${ext}`);
  }

  async page(userId: string, request: ChatHistoryInput): Promise<ChatHistoryPage> {
    // A page read while an append is under way waits for it: it must not miss its own turn.
    return pageOf((await this.serially(userId, () => this.open(userId))).messages, request);
  }

  append(userId: string, messages: ChatMessage[]): Promise<void> {
    return this.serially(userId, async () => {
      const kept = await this.open(userId);
      try {
        if (kept.lines + messages.length >= 2 * MAX_KEPT_MESSAGES) {
          await this.rewrite(userId, [...kept.messages, ...messages].slice(-MAX_KEPT_MESSAGES));
          return;
        }
        // The first line of a conversation may be the first file of the folder.
        if (kept.lines === 0) await mkdir(this.dir, { recursive: true });
        await appendFile(this.file(userId), lines(messages), 'utf8');
      } catch (error) {
        // What reached the file is unknown (a part of a line, say): the next call reads it again.
        this.kept.delete(userId);
        throw error;
      }
      kept.messages.push(...messages);
      kept.lines += messages.length;
    });
  }

  async clear(userId: string): Promise<void> {
    await this.serially(userId, async () => {
      this.kept.delete(userId);
      await rm(this.file(userId), { force: true });
      await rm(this.file(userId, 'json'), { force: true });
    });
  }

  /** Calls of one user run one after another, so two quick turns cannot lose each other. */
  private serially<T>(userId: string, run: () => Promise<T>): Promise<T> {
    const next = (this.writes.get(userId) ?? Promise.resolve()).then(run);
    this.writes.set(userId, next.then(() => undefined, () => undefined));
    return next;
  }

  /** The user's messages, read and validated once per process (and again after a failed write). */
  private async open(userId: string): Promise<Kept> {
    const held = this.kept.get(userId);
    if (held) return held;
    const text = await readFile(this.file(userId), 'utf8').catch(() => null);
    if (text === null) return this.openLegacy(userId);
    const rows = text.split('\n');
    // A file ends with a newline: what follows the last one is a torn write, not a line.
    let clean = rows.pop() === '';
    const messages: ChatMessage[] = [];
    for (const row of rows) {
      const parsed = chatMessageSchema.safeParse(safeJson(row));
      if (parsed.success) messages.push(parsed.data);
      else clean = false;
    }
    if (clean) return this.remember(userId, messages);
    await this.setAside(this.file(userId));
    return this.rewrite(userId, messages.slice(-MAX_KEPT_MESSAGES));
  }

  /** A conversation kept before paging: converted once, its old file then removed. */
  private async openLegacy(userId: string): Promise<Kept> {
    const file = this.file(userId, 'json');
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) return this.remember(userId, []);
    const parsed = legacySchema.safeParse(safeJson(text));
    if (!parsed.success) {
      await this.setAside(file);
      return this.remember(userId, []);
    }
    const kept = await this.rewrite(userId, parsed.data.messages.slice(-MAX_KEPT_MESSAGES));
    await rm(file, { force: true });
    return kept;
  }

  /** Writes the file afresh with `messages` only (atomically: a crash leaves the old file or the new). */
  private async rewrite(userId: string, messages: ChatMessage[]): Promise<Kept> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.file(userId)}.tmp`;
    await writeFile(tmp, lines(messages), 'utf8');
    await rename(tmp, this.file(userId));
    return this.remember(userId, messages);
  }

  private remember(userId: string, messages: ChatMessage[]): Kept {
    const kept = { messages, lines: messages.length };
    this.kept.set(userId, kept);
    return kept;
  }

  private async setAside(file: string): Promise<void> {
    await rename(file, `${file}.damaged-${Date.now()}`).catch(() => undefined);
  }
}

function lines(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `${JSON.stringify(m)}\n`).join('');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A conversation that lives as long as the process: evaluations, benchmarks, throwaway sessions. */
export class MemoryChatHistory implements ChatHistoryStore {
  private readonly byUser = new Map<string, ChatMessage[]>();

  async page(userId: string, request: ChatHistoryInput): Promise<ChatHistoryPage> {
    return pageOf(this.byUser.get(userId) ?? [], request);
  }

  async append(userId: string, messages: ChatMessage[]): Promise<void> {
    const kept = this.byUser.get(userId) ?? [];
    kept.push(...messages);
    // Trimmed by a whole cap at once, so an append does not copy the conversation.
    if (kept.length >= 2 * MAX_KEPT_MESSAGES) kept.splice(0, kept.length - MAX_KEPT_MESSAGES);
    this.byUser.set(userId, kept);
  }

  async clear(userId: string): Promise<void> {
    this.byUser.delete(userId);
  }
}
