/**
 * The tool registry: the one place a tool call is checked and run. Whatever asked for the call (a
 * model, the rule planner, a confirmation), it goes through the same gates in the same order —
 * known tool, role, arguments, implementation, circuit breaker — and always comes back as an
 * envelope that has passed the contract, never as an exception. A destructive tool either
 * previews (`prepare`) or runs confirmed, with its idempotency key; it never runs otherwise.
 */
import { TRPCClientError } from '@trpc/client';
import {
  BrokenCircuitError, type CircuitBreakerPolicy, CircuitState, ExponentialBackoff, type IBackoff, type IBackoffFactory, type IRetryBackoffContext,
  TimeoutStrategy, circuitBreaker, handleWhenResult, noJitterGenerator, retry, timeout, wrap,
} from 'cockatiel';
import { z } from 'zod';
import { type Card, type Envelope, cardSchema, envelopeSchema } from '../../shared/contracts/assistant.js';
import type { Role } from '../../shared/contracts/agent-api.js';
import type { Logger } from '../../infra/log.js';
import { type MainMetrics, mainMetrics } from '../metrics.js';
import { previewSnapshotSchema } from '../confirm/snapshot.js';
import { type BreakerOptions, WindowBreaker } from './breaker.js';
import type { ToolModule } from './define.js';
import { TOOL_MODULES, type ToolImplementations, implementationOf } from './index.js';
import type { ToolCallOptions, ToolContext, ToolDefinition, ToolImplementation, ToolPreview, ToolRegistry } from './types.js';

export interface ToolRegistryOptions {
  /** Milliseconds since the epoch: envelope times (the breaker, like cockatiel, reads Date.now). */
  now?: () => number;
  breaker?: BreakerOptions;
  /** The first retry's delay (then doubled): 50 ms; 0 for tests that do not care to wait. */
  backoffMs?: number;
  /** Extra attempts of a read after a retryable failure, unless the call says otherwise. */
  retries?: number;
  /** Per attempt; a backend that does not answer in time is a TIMEOUT, retried like a failure. */
  timeoutMs?: number;
  /** The tools it holds: every module of index.ts unless given. */
  tools?: readonly ToolModule[];
  /** Handlers by tool, in place of the modules' own (a tool missing here is "not available"). */
  implementations?: ToolImplementations;
  /** Tool names, codes and timings only: never arguments, results or backend messages. */
  log?: Logger;
  /** Where calls and breaker states are counted: this process's metrics unless given. */
  metrics?: Pick<MainMetrics, 'toolCall' | 'breakerState'>;
}

export type ErrorEnvelope = Extract<Envelope, { ok: false }>;

type Mode = 'invoke' | 'prepare';

/** A preview as a handler must return it: the card is checked again with the whole envelope. */
const previewSchema = z.object({ card: cardSchema, snapshot: previewSnapshotSchema, refusal: z.string().nullable(), noOp: z.string().nullable().optional() });

/** Codes of failures that are the tool's own, not the caller's: worth a retry, and what the breaker counts. */
const TRANSIENT = new Set(['INTERNAL', 'TIMEOUT', 'UNAVAILABLE']);

/** Ends the message of a tool that is planned but not built: no retry will help that one. */
const NOT_IN_THIS_VERSION = 'is not available in this version';

const BACKOFF_BASE_MS = 50;
const MAX_MESSAGE = 500;
/** The longest a busy backend's Retry-After holds a read's retry: a turn should not wait on it for long. */
const MAX_RETRY_AFTER_MS = 5_000;

/** A failure already in the envelope's terms. */
class ToolFailure extends Error {
  constructor(readonly code: string, message: string, readonly retryable = TRANSIENT.has(code), readonly retryAfterMs = 0) {
    super(message);
  }
}

/** The backoff given, but never sooner than the wait a busy backend asked for (its Retry-After). */
function honouringRetryAfter(factory: IBackoffFactory<IRetryBackoffContext<unknown>>): IBackoffFactory<IRetryBackoffContext<unknown>> {
  return {
    next(context): IBackoff<IRetryBackoffContext<unknown>> {
      const backoff = factory.next(context);
      const outcome = 'value' in context.result ? context.result.value as Outcome : null;
      const asked = outcome && !outcome.ok ? Math.min(outcome.failure.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
      return { duration: Math.max(backoff.duration, asked), next: (later) => honouringRetryAfter(backoff).next(later) };
    },
  };
}

type Outcome = { ok: true; data: unknown } | { ok: false; failure: ToolFailure };

interface Guard {
  policy: CircuitBreakerPolicy;
  /** Date.now() when it last opened or let its probe go. */
  since: number;
}

interface Registered {
  definition: ToolDefinition;
  implementation: ToolImplementation | undefined;
}

/**
 * Pairs each module with its handlers (its own, or those given in their place). Each module's
 * handlers were checked against its own schemas by defineTool; past this point they are handled uniformly.
 */
function register(tools: readonly ToolModule[], impls: ToolImplementations | undefined): Map<string, Registered> {
  const table = new Map<string, Registered>();
  for (const tool of tools) {
    if (table.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    const given = impls as Partial<Record<string, ToolImplementation>> | undefined;
    table.set(tool.name, { definition: tool, implementation: given ? given[tool.name] : implementationOf(tool) });
  }
  return table;
}

export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const now = options.now ?? Date.now;
  const defaultRetries = options.retries ?? 2;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const coolDownMs = options.breaker?.coolDownMs ?? 30_000;
  const metrics = options.metrics ?? mainMetrics;
  const breakers = new Map<string, Guard>();
  /** The tool's circuit breaker (cockatiel's states and half-open probe; WindowBreaker's rule), made on first use. */
  const guardOf = (name: string): Guard => {
    let guard = breakers.get(name);
    if (!guard) {
      const policy = circuitBreaker(handleWhenResult((r) => !(r as Outcome).ok && TRANSIENT.has((r as Outcome & { ok: false }).failure.code)), {
        halfOpenAfter: coolDownMs, breaker: new WindowBreaker(options.breaker),
      });
      const made: Guard = { policy, since: 0 };
      // When it opened, or when its probe went: how long a refused caller is told to wait.
      policy.onBreak(() => { made.since = Date.now(); });
      policy.onHalfOpen(() => { made.since = Date.now(); });
      policy.onStateChange((state) => metrics.breakerState(name, state));
      metrics.breakerState(name, policy.state);
      breakers.set(name, made);
      guard = made;
    }
    return guard;
  };
  /** Reads only: a transient failure is tried again after 50 ms, then 100 ms, or after the Retry-After of a busy backend. */
  const retryPolicy = (attempts: number) => retry(handleWhenResult((r) => !(r as Outcome).ok && (r as Outcome & { ok: false }).failure.retryable), {
    maxAttempts: attempts,
    backoff: honouringRetryAfter(new ExponentialBackoff({ initialDelay: options.backoffMs ?? BACKOFF_BASE_MS, generator: noJitterGenerator })),
  });
  /** Per attempt; cooperative: the attempt itself stops on the signal (and races it, for a handler that does not). */
  const timeoutPolicy = timeout(timeoutMs, TimeoutStrategy.Cooperative);
  const table = register(options.tools ?? (TOOL_MODULES as readonly ToolModule[]), options.implementations);
  const definitions = Object.freeze([...table.values()].map((r) => r.definition));

  const stamp = () => new Date(now()).toISOString();

  const failure = (tool: string, code: string, message: string): ErrorEnvelope => ({
    schema_version: 1, generated_at: stamp(), tool, ok: false, error: { code, message: clip(message) },
  });

  /** One attempt, bounded by the timeout policy's signal (which the caller's cancellation also aborts). */
  async function attempt(entry: Registered & { implementation: ToolImplementation }, args: unknown, ctx: ToolContext, mode: Mode, signal: AbortSignal): Promise<Outcome> {
    if (ctx.signal?.aborted) return { ok: false, failure: new ToolFailure('CANCELLED', 'the request was cancelled', false) };
    let onAbort: (() => void) | undefined;
    // The race, not only the signal, bounds it: a handler that ignores its signal still ends.
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error('aborted'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const work = mode === 'prepare' ? entry.implementation.prepare!(args, { ...ctx, signal }) : entry.implementation.invoke(args, { ...ctx, signal });
      const raw = await Promise.race([work, stopped]);
      const out = (mode === 'prepare' ? previewSchema : entry.definition.output).safeParse(raw);
      if (!out.success) return { ok: false, failure: new ToolFailure('INTERNAL', 'the tool failed', false) };
      return { ok: true, data: out.data };
    } catch (err) {
      if (ctx.signal?.aborted) return { ok: false, failure: new ToolFailure('CANCELLED', 'the request was cancelled', false) };
      if (signal.aborted) return { ok: false, failure: new ToolFailure('TIMEOUT', `${entry.definition.name} did not answer in time`) };
      return { ok: false, failure: classify(err) };
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async function run(name: string, args: unknown, ctx: ToolContext, callOptions: ToolCallOptions, mode: Mode): Promise<Envelope> {
    const entry = table.get(name);
    if (!entry) return failure(clipName(name), 'UNKNOWN_TOOL', `there is no tool named ${clipName(name)}`);
    const def = entry.definition;
    if (!def.allowedRoles.includes(ctx.user.role)) {
      return failure(name, 'FORBIDDEN', `${name} is not available to ${roleName(ctx.user.role)}`);
    }
    const parsed = def.input.safeParse(args ?? {});
    if (!parsed.success) return failure(name, 'INVALID_ARGS', describeIssues(parsed.error, args));
    if (!entry.implementation) return failure(name, 'UNAVAILABLE', `${name} ${NOT_IN_THIS_VERSION}`);
    const implementation = entry.implementation;
    if (mode === 'prepare' && (!def.isDestructive || !implementation.prepare)) {
      return failure(name, 'INVALID_ARGS', `${name} has no preview: call it directly`);
    }
    // The one door to a write: a confirmed call carrying its idempotency key (src/main/confirm).
    if (mode === 'invoke' && def.isDestructive && (callOptions.confirmed !== true || !ctx.idempotencyKey)) {
      return failure(name, 'CONFIRMATION_REQUIRED', `${name} changes money or limits: it runs only after the user confirms its preview`);
    }

    if (ctx.signal?.aborted) return failure(name, 'CANCELLED', 'the request was cancelled');

    const guard = guardOf(name);
    // Half-open: the one probe is out; the rest are told to wait rather than queued behind it.
    const resend = mode === 'invoke' && def.isDestructive && callOptions.resend === true;
    if (guard.policy.state === CircuitState.HalfOpen && !resend) return unavailable(name, guard);

    // Reads are idempotent, so a transient failure is worth another go; a write is never repeated
    // here, since without its idempotency key a retry could move money twice. Breaker outside,
    // then retries, then the per-attempt timeout: the breaker counts a call once, retries and all.
    const retries = def.isDestructive || def.startsWork ? 0 : Math.max(0, callOptions.retries ?? defaultRetries);
    const retrying = retryPolicy(retries);
    retrying.onRetry(({ delay, attempt: n }) => options.log?.debug('tool retry', { requestId: ctx.requestId, tool: name, attempt: n, delayMs: delay }));
    const started = now();
    let outcome: Outcome;
    try {
      const policy = resend ? wrap(retrying, timeoutPolicy) : wrap(guard.policy, retrying, timeoutPolicy);
      outcome = await policy.execute(({ signal }) => attempt({ ...entry, implementation }, parsed.data, ctx, mode, signal), ctx.signal);
    } catch (err) {
      if (err instanceof BrokenCircuitError) return unavailable(name, guard);
      throw err;
    }
    const ms = now() - started;
    if (!outcome.ok) {
      options.log?.warn('tool failed', { requestId: ctx.requestId, tool: name, code: outcome.failure.code, ms });
      return failure(name, outcome.failure.code, outcome.failure.message);
    }
    options.log?.debug('tool ok', { requestId: ctx.requestId, tool: name, ms });
    const ui = mode === 'prepare' ? (outcome.data as ToolPreview).card : implementation.render?.(outcome.data, parsed.data);
    return { schema_version: 1, generated_at: stamp(), tool: name, ok: true, data: outcome.data, ...(ui && { ui }) };
  }

  function unavailable(name: string, guard: Guard): ErrorEnvelope {
    const seconds = Math.max(1, Math.ceil((coolDownMs - (Date.now() - guard.since)) / 1000));
    return failure(name, 'UNAVAILABLE', `${name} is temporarily unavailable; try again in ${seconds} s`);
  }

  async function guarded(name: string, args: unknown, ctx: ToolContext, callOptions: ToolCallOptions, mode: Mode): Promise<Envelope> {
    const started = performance.now();
    const answer = await checkedEnvelope(name, args, ctx, callOptions, mode);
    // A made-up name is one label, not one per guess.
    metrics.toolCall(table.has(name) ? name : 'unknown', answer.ok ? 'ok' : answer.error.code, (performance.now() - started) / 1000);
    return answer;
  }

  async function checkedEnvelope(name: string, args: unknown, ctx: ToolContext, callOptions: ToolCallOptions, mode: Mode): Promise<Envelope> {
    let envelope: Envelope;
    try {
      envelope = await run(name, args, ctx, callOptions, mode);
    } catch {
      // Only a bug here (a render that throws, say) reaches this; the caller still gets an answer.
      envelope = failure(clipName(name), 'INTERNAL', 'the tool failed');
    }
    const checked = envelopeSchema.safeParse(envelope);
    if (checked.success) return checked.data;
    // A result that breaks the contract (a card the renderer cannot draw) is not handed on.
    options.log?.error('tool envelope invalid', { requestId: ctx.requestId, tool: clipName(name) });
    return failure(clipName(name), 'INTERNAL', 'the tool failed');
  }

  return {
    definitions: () => definitions,
    get: (name) => table.get(name)?.definition,
    forRole: (role) => definitions.filter((d) => d.allowedRoles.includes(role)),
    call: (name, args, ctx, callOptions = {}) => guarded(name, args, ctx, callOptions, 'invoke'),
    prepare: (name, args, ctx) => guarded(name, args, ctx, { retries: 0 }, 'prepare'),
  };
}

/** The error card for a failed call: what the user is shown instead of a result. */
export function errorCard(envelope: ErrorEnvelope): Extract<Card, { type: 'error_card' }> {
  const { code, message } = envelope.error;
  const retryable = TRANSIENT.has(code) && !message.endsWith(NOT_IN_THIS_VERSION);
  return { type: 'error_card', data: { code: code.slice(0, 64), message: clip(message), retryable } };
}

/** Maps a backend or transport error onto the envelope's codes, keeping the backend's message for refusals. */
function classify(err: unknown): ToolFailure {
  if (err instanceof ToolFailure) return err;
  if (err instanceof TRPCClientError) {
    const code = (err.data as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string') {
      // The remote client's own deadline passed: the backend already had the whole of it, so
      // another attempt would only keep the turn waiting as long again.
      if (causedByDeadline(err)) return new ToolFailure('TIMEOUT', 'the backend did not answer in time', false);
      // No tRPC error shape: the request never got an answer (refused connection, reset, DNS).
      return new ToolFailure('UNAVAILABLE', 'the backend could not be reached');
    }
    switch (code) {
      case 'INTERNAL_SERVER_ERROR': return new ToolFailure('INTERNAL', 'the tool failed');
      case 'TIMEOUT': case 'GATEWAY_TIMEOUT': return new ToolFailure('TIMEOUT', 'the backend did not answer in time');
      case 'SERVICE_UNAVAILABLE': {
        // A backend at its bound says how long to wait (server/http.ts): worth repeating to the user.
        const wait = (err.data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
        if (typeof wait === 'number' && Number.isFinite(wait) && wait >= 0) {
          return new ToolFailure('UNAVAILABLE', `the backend is busy: try again in ${Math.ceil(wait)} s`, true, wait * 1000);
        }
        return new ToolFailure('UNAVAILABLE', 'the backend is unavailable');
      }
      case 'BAD_GATEWAY': return new ToolFailure('UNAVAILABLE', 'the backend is unavailable');
      // A refusal's own words are kept; a validation dump (JSON) or anything multi-line is not words.
      default: return new ToolFailure(code, looksLikeData(err.message) ? 'the backend did not accept that request' : err.message, false);
    }
  }
  return new ToolFailure('INTERNAL', 'the tool failed');
}

/** True when an AbortSignal.timeout deadline (a DOMException named TimeoutError) is somewhere in the cause chain. */
function causedByDeadline(err: unknown): boolean {
  for (let cause: unknown = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.name === 'TimeoutError') return true;
  }
  return false;
}

/** "playerId: must be an id returned by the API; period: required" — each problem with its field. */
function describeIssues(error: z.ZodError, args: unknown): string {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const missing = issue.path.length > 0 && valueAt(args, issue.path) === undefined && issue.code !== 'custom';
    const message = missing ? 'required' : issue.message;
    return field ? `${field}: ${message}` : message;
  }).join('; ');
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function roleName(role: Role): string {
  return role === 'platform_admin' ? 'the platform admin' : `a ${role}`;
}

function clip(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}

/** A name from a model is untrusted text: bounded before it is echoed anywhere. */
function clipName(name: unknown): string {
  return String(name).slice(0, 80);
}

/** A message that is a serialised payload or spans lines (a schema dump), not a sentence a person can read. */
function looksLikeData(message: string): boolean {
  const start = message.trimStart().charAt(0);
  return message === '' || start === '[' || start === '{' || message.includes('\n');
}
