/**
 * The clients of a fault run: desks as main runs them against a remote backend (BACKEND_URL).
 * A change goes the way the desk confirms one — the tool's preview, a proposal under a nonce,
 * the user's Confirm, the frozen call under the nonce's idempotency key with its retries — and
 * every answer is kept in the agent's own audit log (main's hash chain), as on a real desk.
 * Every failure a client sees is tallied by its code and words, for the "clear error" check.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TRPCClientError } from '@trpc/client';
import { silentLogger } from '../../src/infra/log.js';
import { AuditLog } from '../../src/main/audit/audit-log.js';
import { type BackendClient, type BackendConnection, connectBackend } from '../../src/main/backend/connection.js';
import { NonceStore } from '../../src/main/confirm/nonce-store.js';
import { Proposals } from '../../src/main/confirm/proposals.js';
import { type ToolRegistryOptions, createToolRegistry } from '../../src/main/tools/registry.js';
import type { ToolPreview, ToolRegistry } from '../../src/main/tools/types.js';
import type { User } from '../../src/shared/contracts/agent-api.js';
import type { Card, Envelope } from '../../src/shared/contracts/assistant.js';

/** The demo book's desk passwords: `demo-<username>` for the whole cast. */
export const demoPassword = (username: string) => `demo-${username}`;

/** A message a person can act on: words, not a stack trace, a dump, a bare errno or nothing. */
export function isClearError(message: string | null | undefined): boolean {
  if (typeof message !== 'string') return false;
  const text = message.trim();
  if (text.length < 8 || text.length > 500 || !/[a-z]{3}/i.test(text)) return false;
  // A bare errno (ECONNREFUSED, ENOSPC) is case-sensitive: "editLimit" is a word, not an errno.
  if (/\bE[A-Z]{4,}\b/.test(text)) return false;
  return !/\n\s*at\s|\bat .+:\d+:\d+|^[[{]|\[object Object\]|^(?:Type|Reference|Syntax|Range)?Error\b|^fetch failed$|socket hang up|undefined|^null$/i.test(text);
}

/** Every failure the clients saw, by where, code and words. */
export class ErrorTally {
  private readonly counts = new Map<string, { where: string; code: string; message: string; count: number }>();

  add(where: string, code: string, message: string): void {
    // "try again in 29 s", "in 28 s"…: one message, however many seconds were left.
    message = message.replace(/try again in \d+ s/g, 'try again in N s');
    const key = `${where}\u0000${code}\u0000${message}`;
    const seen = this.counts.get(key);
    if (seen) seen.count++;
    else this.counts.set(key, { where, code, message, count: 1 });
  }

  /** From anything thrown by a tRPC call (an event stream, a report download). */
  addThrown(where: string, error: unknown): void {
    if (error instanceof TRPCClientError) {
      const code = (error.data as { code?: unknown } | undefined)?.code;
      this.add(where, typeof code === 'string' ? code : 'NO_ANSWER', error.message);
    } else this.add(where, 'THROWN', error instanceof Error ? error.message : String(error));
  }

  get total(): number {
    return [...this.counts.values()].reduce((n, e) => n + e.count, 0);
  }

  list(): Array<{ where: string; code: string; message: string; count: number }> {
    return [...this.counts.values()].sort((a, b) => b.count - a.count);
  }

  unclear(): Array<{ where: string; code: string; message: string; count: number }> {
    return this.list().filter((e) => !isClearError(e.message));
  }
}

export type ChangeEnd =
  /** Executed (or replayed after a lost reply): `data` is the backend's answer. */
  | { end: 'confirmed'; data: Record<string, unknown>; nonce: string }
  /** The guardrails said no (in the preview or at the write); nothing moved. */
  | { end: 'refused'; code: string; message: string }
  /** It could not be done (the backend down, a dropped connection); the proposal's ending is audited. */
  | { end: 'failed'; code: string; message: string; nonce: string | null };

export interface DeskAgentOptions {
  url: string;
  username: string;
  /** Where its audit log goes. */
  dir: string;
  errors: ErrorTally;
  registry?: ToolRegistryOptions;
}

/** One signed-in desk. Several workers may share it (one audit log per user, as on a desktop). */
export class DeskAgent {
  readonly audit: AuditLog;
  private readonly proposals: Proposals;

  private constructor(
    readonly user: User, readonly token: string, readonly api: BackendClient, readonly connection: BackendConnection,
    private readonly registry: ToolRegistry, private readonly errors: ErrorTally, dir: string,
  ) {
    this.audit = new AuditLog(join(dir, `audit-${user.username}.jsonl`));
    this.proposals = new Proposals({ registry, nonces: new NonceStore(), audit: this.audit, log: silentLogger });
  }

  static async signIn(options: DeskAgentOptions): Promise<DeskAgent> {
    const connection = await connectBackend({ mode: 'remote', url: options.url, timeoutMs: 10_000 }, silentLogger);
    const { token } = await connection.client(null).auth.login.mutate({ username: options.username, password: demoPassword(options.username) });
    const api = connection.client(token);
    const user = await api.auth.me.query();
    return new DeskAgent(user, token, api, connection, createToolRegistry({ ...options.registry, log: silentLogger }), options.errors, options.dir);
  }

  /** A read through the tool layer, its failure tallied. */
  async read(tool: string, args: Record<string, unknown>): Promise<Envelope> {
    const envelope = await this.registry.call(tool, args, { api: this.api, user: this.user, requestId: randomUUID() });
    if (!envelope.ok) this.errors.add(tool, envelope.error.code, envelope.error.message);
    return envelope;
  }

  /** Preview, proposal, Confirm: the desk's one way to change money or limits. */
  async change(tool: string, args: Record<string, unknown>): Promise<ChangeEnd> {
    const ctx = { api: this.api, user: this.user, requestId: randomUUID() };
    const prepared = await this.registry.prepare(tool, args, ctx);
    if (!prepared.ok) {
      this.errors.add(`${tool} preview`, prepared.error.code, prepared.error.message);
      return { end: 'failed', code: prepared.error.code, message: prepared.error.message, nonce: null };
    }
    const preview = prepared.data as ToolPreview;
    if (preview.refusal !== null) return { end: 'refused', code: 'PREVIEW_REFUSED', message: preview.refusal };
    const card = this.proposals.propose(tool, args, preview, this.user);
    const confirm = (card as { actions?: Array<{ id: string; nonce?: string; payloadHash?: string }> }).actions?.find((a) => a.id === 'confirm');
    if (!confirm?.nonce || !confirm.payloadHash) return { end: 'refused', code: 'NO_PROPOSAL', message: 'the preview had nothing to confirm' };
    const answer = await this.proposals.answer({ nonce: confirm.nonce, payloadHash: confirm.payloadHash }, { user: this.user, api: this.api }, 'confirm', ctx.requestId);
    if (answer.audit === 'executed' || answer.audit === 'no_op') {
      const entries = await this.audit.entries();
      const mine = entries.findLast((e) => e.nonce === confirm.nonce);
      return { end: 'confirmed', data: (mine?.after ?? {}) as Record<string, unknown>, nonce: confirm.nonce };
    }
    const error = errorOf(answer.cards);
    this.errors.add(`${tool} confirm`, error.code, answer.text);
    return answer.audit === 'refused'
      ? { end: 'refused', code: error.code, message: answer.text }
      : { end: 'failed', code: error.code, message: answer.text, nonce: confirm.nonce };
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

function errorOf(cards: Card[]): { code: string; message: string } {
  const card = cards.find((c): c is Extract<Card, { type: 'error_card' }> => c.type === 'error_card');
  return card ? { code: card.data.code, message: card.data.message } : { code: 'NONE', message: '' };
}

/** Waits as a person would before trying again after a failure. */
export const pause = (ms: number) => sleep(ms);
