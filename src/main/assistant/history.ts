import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isEntityId } from './policy/gate.js';
import {
  type ChatHistoryInput, type ChatHistoryPage, type ChatMessage, type ConversationSummary, MAX_CONVERSATIONS, MAX_TITLE_LENGTH, chatMessageSchema,
} from '../../shared/contracts/chat.js';
import { normalizeForSearch, oneLine } from '../../shared/text.js';

/**
 * Each user's conversations, kept across restarts. One of them is the current one: the panel
 * shows it (a page at a time) and turns add to it. Every call names the user, and a user's
 * calls only ever reach their own conversations.
 */
export interface ChatHistoryStore {
  /**
   * Up to `limit` messages of the current conversation, oldest first, that come just before the
   * message `before` (the latest ones without it), and whether any earlier ones are kept. A cursor
   * that names no kept message (cleared, or trimmed past) has nothing before it.
   */
  page(userId: string, request: ChatHistoryInput): Promise<ChatHistoryPage>;
  /** Adds to the current conversation (the first message of a new one makes it kept). */
  append(userId: string, messages: ChatMessage[]): Promise<void>;
  /** Deletes the current conversation; the next turn starts a new one. */
  clear(userId: string): Promise<void>;
  /** The kept conversations, latest first; with `query`, those whose title or messages hold its words. */
  list(userId: string, query?: string): Promise<ConversationSummary[]>;
  /** Makes a kept conversation the current one. False when the user keeps none of that id. */
  open(userId: string, conversationId: string): Promise<boolean>;
  /** A new, empty current conversation (listed once it has a message). */
  start(userId: string): Promise<void>;
  /** Deletes one of the user's conversations. False when the user keeps none of that id. */
  remove(userId: string, conversationId: string): Promise<boolean>;
}

/** How many messages a conversation keeps at least; between compactions its file holds up to twice as many. */
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

/** A conversation's title: its first message as the user typed it, on one line. */
export function titleOf(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user' && m.text.trim() !== '') ?? messages[0];
  return oneLine(first?.text ?? '', MAX_TITLE_LENGTH) || 'Conversation';
}

interface Kept {
  /** The conversation's valid messages, in order. */
  messages: ChatMessage[];
  /** How many lines its file holds: when it reaches twice MAX_KEPT_MESSAGES it is compacted. */
  lines: number;
  /** When this process last added to it (a count, not a time): stamps on the book's clock may tie, or run back after a demo restarts. */
  used?: number;
}

let uses = 0;
/** Latest first: by the last message's stamp, and between equal stamps by which this process added to last. */
function latestFirst(a: Kept, b: Kept): number {
  return (b.messages.at(-1)?.at ?? '').localeCompare(a.messages.at(-1)?.at ?? '') || (b.used ?? 0) - (a.used ?? 0);
}

/**
 * What the file and the memory stores share: which conversation is current, the list, titles,
 * search, the caps. A store only says how a user's conversations are read and written.
 */
abstract class ConversationStore implements ChatHistoryStore {
  /** The current conversation of each user seen: absent, the latest kept one is. */
  private readonly current = new Map<string, string>();
  private readonly queue = new Map<string, Promise<void>>();

  /** Every kept conversation of the user, by id (read once, then held). */
  protected abstract held(userId: string): Promise<Map<string, Kept>>;
  /** Adds `messages` to the conversation's record. */
  protected abstract add(userId: string, id: string, messages: readonly ChatMessage[]): Promise<void>;
  /** Writes the conversation's record afresh with `messages` only. */
  protected abstract rewrite(userId: string, id: string, messages: readonly ChatMessage[]): Promise<void>;
  protected abstract erase(userId: string, id: string): Promise<void>;
  /** A write failed: what reached the record is unknown, so it is read again. */
  protected abstract forget(userId: string): void;

  page(userId: string, request: ChatHistoryInput): Promise<ChatHistoryPage> {
    // A page read while an append is under way waits for it: it must not miss its own turn.
    return this.serially(userId, async () => {
      const all = await this.held(userId);
      return pageOf(all.get(this.currentOf(userId, all))?.messages ?? [], request);
    });
  }

  append(userId: string, messages: ChatMessage[]): Promise<void> {
    return this.serially(userId, async () => {
      const all = await this.held(userId);
      const id = this.currentOf(userId, all);
      const kept = all.get(id) ?? { messages: [], lines: 0 };
      if (!all.has(id)) await this.makeRoom(userId, all);
      try {
        if (kept.lines + messages.length >= 2 * MAX_KEPT_MESSAGES) {
          kept.messages = [...kept.messages, ...messages].slice(-MAX_KEPT_MESSAGES);
          await this.rewrite(userId, id, kept.messages);
          kept.lines = kept.messages.length;
        } else {
          await this.add(userId, id, messages);
          kept.messages.push(...messages);
          kept.lines += messages.length;
        }
      } catch (error) {
        this.forget(userId);
        throw error;
      }
      kept.used = ++uses;
      all.set(id, kept);
    });
  }

  async clear(userId: string): Promise<void> {
    await this.serially(userId, async () => {
      const all = await this.held(userId);
      await this.drop(userId, all, this.currentOf(userId, all));
    });
  }

  list(userId: string, query?: string): Promise<ConversationSummary[]> {
    return this.serially(userId, async () => {
      const all = await this.held(userId);
      const current = this.currentOf(userId, all);
      const words = normalizeForSearch(query ?? '');
      const found: ConversationSummary[] = [];
      for (const [id, { messages }] of [...all].sort(([, a], [, b]) => latestFirst(a, b))) {
        const title = titleOf(messages);
        const summary = { id, title, at: messages.at(-1)?.at ?? new Date(0).toISOString(), messages: messages.length, current: id === current };
        if (!words) {
          found.push(summary);
          continue;
        }
        const hit = messages.find((m) => normalizeForSearch(m.text).includes(words));
        if (hit || normalizeForSearch(title).includes(words)) found.push({ ...summary, ...(hit && { match: oneLine(hit.text, 120) }) });
      }
      return found;
    });
  }

  open(userId: string, conversationId: string): Promise<boolean> {
    return this.serially(userId, async () => {
      if (!(await this.held(userId)).has(conversationId)) return false;
      this.current.set(userId, conversationId);
      return true;
    });
  }

  start(userId: string): Promise<void> {
    return this.serially(userId, async () => {
      await this.held(userId);
      this.current.set(userId, randomUUID());
    });
  }

  remove(userId: string, conversationId: string): Promise<boolean> {
    return this.serially(userId, async () => {
      const all = await this.held(userId);
      if (!all.has(conversationId)) return false;
      await this.drop(userId, all, conversationId);
      return true;
    });
  }

  /** Deletes a conversation; when it was the current one, the next turn starts a new one. */
  private async drop(userId: string, all: Map<string, Kept>, id: string): Promise<void> {
    const wasCurrent = this.currentOf(userId, all) === id;
    if (all.has(id)) await this.erase(userId, id);
    all.delete(id);
    if (wasCurrent) this.current.set(userId, randomUUID());
    // The next call reads the user's conversations afresh: one put in place meanwhile (a restored
    // backup, another copy of the app) is listed without a restart.
    this.forget(userId);
  }

  /** A new conversation is about to be kept: at the cap, the one used longest ago goes. */
  private async makeRoom(userId: string, all: Map<string, Kept>): Promise<void> {
    while (all.size >= MAX_CONVERSATIONS) {
      const [oldest] = [...all].sort(([, a], [, b]) => latestFirst(b, a));
      await this.erase(userId, oldest![0]);
      all.delete(oldest![0]);
    }
  }

  /** The current conversation: the one opened or started, else the latest kept, else a new one. */
  private currentOf(userId: string, all: ReadonlyMap<string, Kept>): string {
    const chosen = this.current.get(userId);
    if (chosen !== undefined) return chosen;
    const [latest] = [...all].sort(([, a], [, b]) => latestFirst(a, b));
    const id = latest?.[0] ?? randomUUID();
    this.current.set(userId, id);
    return id;
  }

  /** Calls of one user run one after another, so two quick turns cannot lose each other. */
  private serially<T>(userId: string, run: () => Promise<T>): Promise<T> {
    const next = (this.queue.get(userId) ?? Promise.resolve()).then(run);
    this.queue.set(userId, next.then(() => undefined, () => undefined));
    return next;
  }
}

/** The format before paging (one JSON document, rewritten whole on every append): read once, then converted. */
const legacySchema = z.object({ version: z.literal(1), messages: z.array(chatMessageSchema) });

/** A conversation's file: its id and this ending. */
const CONVERSATION_ENDING = '.jsonl';

/**
 * A folder per user in the app's data folder, a JSON Lines file per conversation in it: an
 * append writes its own lines and nothing else, so a turn costs the same in the first exchange
 * and the thousandth. The files are a trust boundary (anything could have written them): every
 * line is validated on the first read, and a file with a bad line (a torn last write, an edit)
 * is set aside and its valid messages written afresh, never trusted. After that first read the
 * process answers from what it holds, which is what the files hold. A user's single conversation
 * of before (`<user>.jsonl`, or older `<user>.json`) becomes one of their conversations.
 */
export class FileChatHistory extends ConversationStore {
  private readonly users = new Map<string, Map<string, Kept>>();

  constructor(private readonly dir: string) {
    super();
  }

  private folder(userId: string): string {
    if (!isEntityId(userId)) throw new Error('not a user id');
    return join(this.dir, userId);
  }

  private file(userId: string, id: string): string {
    if (!isEntityId(id)) throw new Error('not a conversation id');
    return join(this.folder(userId), `${id}${CONVERSATION_ENDING}`);
  }

  protected async held(userId: string): Promise<Map<string, Kept>> {
    const held = this.users.get(userId);
    if (held) return held;
    const all = new Map<string, Kept>();
    const names = await readdir(this.folder(userId)).catch(() => [] as string[]);
    for (const name of names) {
      const id = name.endsWith(CONVERSATION_ENDING) ? name.slice(0, -CONVERSATION_ENDING.length) : '';
      if (!isEntityId(id)) continue;
      const messages = await this.read(userId, this.file(userId, id), id);
      if (messages.length > 0) all.set(id, { messages, lines: messages.length });
    }
    await this.adoptLegacy(userId, all);
    this.users.set(userId, all);
    return all;
  }

  protected async add(userId: string, id: string, messages: readonly ChatMessage[]): Promise<void> {
    // The first line of a conversation may be the first file of the folder.
    await mkdir(this.folder(userId), { recursive: true });
    await appendFile(this.file(userId, id), lines(messages), 'utf8');
  }

  /** Atomically: a crash leaves the old file or the new. */
  protected async rewrite(userId: string, id: string, messages: readonly ChatMessage[]): Promise<void> {
    await mkdir(this.folder(userId), { recursive: true });
    const file = this.file(userId, id);
    await writeFile(`${file}.tmp`, lines(messages), 'utf8');
    await rename(`${file}.tmp`, file);
  }

  protected async erase(userId: string, id: string): Promise<void> {
    await rm(this.file(userId, id), { force: true });
  }

  protected forget(userId: string): void {
    this.users.delete(userId);
  }

  /** A file's valid messages; one with a bad line is set aside and written afresh. */
  private async read(userId: string, file: string, id: string): Promise<ChatMessage[]> {
    const { messages, clean } = parseLines(await readFile(file, 'utf8').catch(() => ''));
    if (clean) return messages;
    const kept = messages.slice(-MAX_KEPT_MESSAGES);
    await setAside(file);
    if (kept.length > 0) await this.rewrite(userId, id, kept);
    return kept;
  }

  /** The user's one conversation from before there were several: moved into their folder once. */
  private async adoptLegacy(userId: string, all: Map<string, Kept>): Promise<void> {
    const single = join(this.dir, `${userId}.jsonl`);
    const older = join(this.dir, `${userId}.json`);
    const text = await readFile(single, 'utf8').catch(() => null);
    const parsed = text === null ? null : parseLines(text);
    if (parsed && !parsed.clean) await setAside(single);
    let messages = parsed?.messages.slice(-MAX_KEPT_MESSAGES) ?? [];
    if (messages.length === 0) {
      const document = await readFile(older, 'utf8').catch(() => null);
      const old = document === null ? null : legacySchema.safeParse(safeJson(document));
      if (old && !old.success) await setAside(older);
      messages = old?.success ? old.data.messages.slice(-MAX_KEPT_MESSAGES) : [];
    }
    if (messages.length > 0) {
      const id = randomUUID();
      await this.rewrite(userId, id, messages);
      all.set(id, { messages, lines: messages.length });
    }
    await rm(single, { force: true });
    await rm(older, { force: true });
  }
}

/** A file's valid messages, and whether it held nothing else. */
function parseLines(text: string): { messages: ChatMessage[]; clean: boolean } {
  const rows = text.split('\n');
  // A file ends with a newline: what follows the last one is a torn write, not a line.
  let clean = rows.pop() === '';
  const messages: ChatMessage[] = [];
  for (const row of rows) {
    const parsed = chatMessageSchema.safeParse(safeJson(row));
    if (parsed.success) messages.push(parsed.data);
    else clean = false;
  }
  return { messages, clean };
}

function lines(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `${JSON.stringify(m)}\n`).join('');
}

async function setAside(file: string): Promise<void> {
  await rename(file, `${file}.damaged-${Date.now()}`).catch(() => undefined);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Conversations that live as long as the process: evaluations, benchmarks, throwaway sessions. */
export class MemoryChatHistory extends ConversationStore {
  private readonly users = new Map<string, Map<string, Kept>>();

  protected async held(userId: string): Promise<Map<string, Kept>> {
    let held = this.users.get(userId);
    if (!held) this.users.set(userId, held = new Map());
    return held;
  }

  protected async add(): Promise<void> {}
  protected async rewrite(): Promise<void> {}
  protected async erase(): Promise<void> {}
  protected forget(): void {}
}
