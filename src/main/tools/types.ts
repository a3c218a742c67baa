/**
 * The tool registry's shapes. A tool is one module (src/main/tools/<name>.ts, made with
 * defineTool): its data (name, description, schemas, roles, card) that planners, the policy gate
 * and a model's listing reason over, and beside it the handlers, the composer's sentence and the
 * planner's intent. A tool without handlers yet can still be planned, gated and refused with a
 * clear card.
 */
import type { z } from 'zod';
import type { Role, User } from '../../shared/contracts/agent-api.js';
import type { Card, CardType, Envelope } from '../../shared/contracts/assistant.js';
import type { BackendClient } from '../backend/connection.js';
import type { PreviewSnapshot } from '../confirm/snapshot.js';
import type { RowsDeclaration } from './rows.js';

/** `agent`: a sub-agent whose accounts a read lists ("players under Arjun"), found by the same search as a player. */
export type EntityKind = 'player' | 'agent' | 'fixture' | 'market' | 'outcome';

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  /** Written for a model: what the tool answers and when to use it. */
  description: string;
  /** The arguments the backend takes, ids included (validated before every call). */
  input: I;
  output: O;
  allowedRoles: readonly Role[];
  /** Moves money or changes limits: never executed on the turn it is planned. */
  isDestructive: boolean;
  /**
   * Not a pure read though not destructive (it starts a job): never retried, since a retry after a
   * lost answer would start a second one. Reads are retried.
   */
  startsWork?: boolean;
  /** Writes only the user's own settings (alert mutes): nothing in the book moves, but it is not a read either. */
  changesUserSettings?: boolean;
  /** The card its result renders as (null: the result is used to resolve names, not shown). */
  card: CardType | null;
  /**
   * Where a resolved entity's id goes in `input` (dot path), for each kind of name a planner may
   * give instead of an id: `{ player: 'playerId' }`, `{ fixture: 'filters.fixtureId' }`.
   */
  entities: Partial<Record<EntityKind, string>>;
  /** A search tool: the policy gate turns names of this kind into ids through it. */
  resolves?: 'player' | 'fixture';
  /** A read's rows as data: what a question may ask of them (rows.ts). */
  rows?: RowsDeclaration;
  /** A destructive tool: the backend record (`limits.edit`) its confirmed write anchors in the audit log. */
  backendAction?: string;
}

export interface ToolContext {
  api: BackendClient;
  user: User;
  requestId: string;
  /** The turn's cancellation; the registry adds its own per-attempt timeout and passes the pair to handlers. */
  signal?: AbortSignal;
  /** A confirmed destructive call only: the key the backend stores its first answer under. */
  idempotencyKey?: string;
  /** A confirmed destructive call only: the state its preview showed, which must still hold. */
  expected?: PreviewSnapshot;
}

/**
 * What a destructive tool shows before anything moves: its card (diff or settlement summary),
 * the state the write must still find (`snapshot`), and the guardrails' refusal, if any.
 */
export interface ToolPreview {
  card: Card;
  snapshot: PreviewSnapshot;
  refusal: string | null;
  /** The change would leave everything as it is (why, in words): nothing to confirm. */
  noOp?: string | null;
}

export interface ToolImplementation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  invoke(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
  /** The card for a result (may depend on the arguments), or undefined when nothing is shown. */
  render?(output: z.output<O>, args: z.output<I>): Card | undefined;
  /** Destructive tools: the dry run the user confirms (the backend's own guardrails, nothing written). */
  prepare?(args: z.output<I>, ctx: ToolContext): Promise<ToolPreview>;
}

export interface ToolCallOptions {
  /** Reads only: how many extra attempts after a retryable failure. */
  retries?: number;
  /**
   * Destructive tools run only with this set, which only the confirmation of a nonce does
   * (src/main/confirm); the context must then carry the idempotency key.
   */
  confirmed?: boolean;
  /**
   * A confirmed write sent again under its key after a transient failure: the breaker does not
   * refuse it, since the first attempt may have committed and only the backend's answer says so.
   */
  resend?: boolean;
}

/** The registry as the rest of main sees it. */
export interface ToolRegistry {
  definitions(): readonly ToolDefinition[];
  get(name: string): ToolDefinition | undefined;
  /** Definitions a role may call (what a model is offered). */
  forRole(role: Role): readonly ToolDefinition[];
  /** Validates, checks the role and the circuit breaker, runs with retries for reads; never throws. */
  call(name: string, args: unknown, ctx: ToolContext, options?: ToolCallOptions): Promise<Envelope>;
  /**
   * A destructive tool's preview, through the same checks; the envelope's `data` is the
   * ToolPreview and its `ui` the card. Never throws.
   */
  prepare(name: string, args: unknown, ctx: ToolContext): Promise<Envelope>;
}
