import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { type ChatMessage, chatMessageSchema } from '../../shared/contracts/chat.js';

/** Each user's conversation, kept across restarts. */
export interface ChatHistoryStore {
  load(userId: string): Promise<ChatMessage[]>;
  append(userId: string, messages: ChatMessage[]): Promise<void>;
  clear(userId: string): Promise<void>;
}

export const MAX_KEPT_MESSAGES = 200;
const fileSchema = z.object({ version: z.literal(1), messages: z.array(chatMessageSchema) });

/**
 * One JSON file per user in the app's data folder. The file is a trust boundary (anything could
 * have written it): it is validated on read, and a damaged one is set aside, not trusted.
 */
export class FileChatHistory implements ChatHistoryStore {
  private readonly writes = new Map<string, Promise<void>>();
  /**
   * What this process last read or wrote for each user: an append then costs the new messages,
   * not a read and a validation of the whole file (which grew every turn's time with the
   * conversation). The file is still the record; this is only what we know it holds.
   */
  private readonly kept = new Map<string, ChatMessage[]>();

  constructor(private readonly dir: string) {}

  private file(userId: string): string {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new Error('not a user id');
    return join(this.dir, `${userId}.json`);
  }

  async load(userId: string): Promise<ChatMessage[]> {
    await this.writes.get(userId);
    let text: string;
    try {
      text = await readFile(this.file(userId), 'utf8');
    } catch {
      return [];
    }
    const parsed = fileSchema.safeParse(safeJson(text));
    if (parsed.success) {
      this.kept.set(userId, parsed.data.messages);
      return [...parsed.data.messages];
    }
    this.kept.delete(userId);
    await rename(this.file(userId), `${this.file(userId)}.damaged-${Date.now()}`).catch(() => undefined);
    return [];
  }

  append(userId: string, messages: ChatMessage[]): Promise<void> {
    // Appends of one user run one after another, so two quick turns cannot lose each other.
    const next = (this.writes.get(userId) ?? Promise.resolve()).then(async () => {
      const kept = [...(this.kept.get(userId) ?? await this.readRaw(userId)), ...messages].slice(-MAX_KEPT_MESSAGES);
      this.kept.delete(userId);
      await mkdir(this.dir, { recursive: true });
      const tmp = `${this.file(userId)}.tmp`;
      await writeFile(tmp, JSON.stringify({ version: 1, messages: kept }), 'utf8');
      await rename(tmp, this.file(userId));
      this.kept.set(userId, kept);
    });
    this.writes.set(userId, next.catch(() => undefined));
    return next;
  }

  async clear(userId: string): Promise<void> {
    await this.writes.get(userId);
    this.kept.delete(userId);
    await rm(this.file(userId), { force: true });
  }

  private async readRaw(userId: string): Promise<ChatMessage[]> {
    try {
      const parsed = fileSchema.safeParse(safeJson(await readFile(this.file(userId), 'utf8')));
      return parsed.success ? parsed.data.messages : [];
    } catch {
      return [];
    }
  }
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

  async load(userId: string): Promise<ChatMessage[]> {
    return [...(this.byUser.get(userId) ?? [])];
  }

  async append(userId: string, messages: ChatMessage[]): Promise<void> {
    this.byUser.set(userId, [...(this.byUser.get(userId) ?? []), ...messages].slice(-MAX_KEPT_MESSAGES));
  }

  async clear(userId: string): Promise<void> {
    this.byUser.delete(userId);
  }
}
