/**
 * The desk's tools over MCP: the same tool modules, registry and policy gate as the chat, for the
 * user the MCP process signed in as. The listing is read off the modules, filtered by the user's
 * role, in planner form (players and matches by name, resolved by the gate: a good match or a
 * refusal naming the candidates, never a guess), with each tool's output schema and the
 * annotations a client shows its user.
 *
 * A destructive tool never runs on the call. It previews and becomes a pending approval the user
 * is notified of in the desk (`approval_pending`), and runs only when the user confirms it in the
 * desk's Approvals page. Nothing an MCP client sends can confirm it — no tool, no argument, no
 * answer to a form: the client (or the model driving it) could send any of those without a human
 * having seen the change. A client that supports URL-mode elicitation is asked to open the desk's
 * own view of the approval, and told when it has been answered there; its answer to that request
 * decides nothing. The backend holds the same line: this process's session may only ask.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Card, type Decision, cardSchema } from '../../shared/contracts/assistant.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import { apiToolName, plannerSchema } from '../assistant/claude/tool-catalog.js';
import { sentenceFor } from '../assistant/composer.js';
import { gate } from '../assistant/policy/gate.js';
import { requestApproval } from '../confirm/approvals.js';
import type { ToolContext, ToolDefinition, ToolPreview, ToolRegistry } from '../tools/types.js';

/** What a destructive tool's call returns over MCP: the change waits for the user in the desk, or was refused before it could. */
export const mcpChangeResult = z.strictObject({
  status: z.enum(['pending_approval', 'refused']),
  approvalId: z.string().nullable(),
  /** The change in one line. */
  summary: z.string(),
  /** What happened, for the client's user. */
  message: z.string(),
  /** Where the user answers it: the desk's own view of this approval (null when none is configured). */
  approvalUrl: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The preview the user confirms (or the guardrails' refusal of it). */
  preview: cardSchema.nullable(),
});
export type McpChangeResult = z.infer<typeof mcpChangeResult>;

export interface DeskMcpOptions {
  registry: ToolRegistry;
  /** The signed-in user and their backend client, fresh for each call (a session may be renewed). */
  caller: () => Promise<TurnCaller>;
  log: Logger;
  /** The backend said the session ended: the next call signs in again. */
  signedOut?: () => void;
  /** The desk's view of one approval, sent to a client that can open a URL for its user; none: the result's message only. */
  approvalLink?: (approvalId: string) => string;
  /** Off: never ask the client to open the link (it is still in the result). */
  elicitation?: boolean;
  /** How often a link the user opened is checked for the desk's answer (ms). */
  watchEveryMs?: number;
  version?: string;
}

const DESTRUCTIVE_NOTE = ' Calling this never makes the change by itself: it returns a preview and a pending approval, which only the user can confirm, in Agent Desk (Approvals).';

/**
 * The desk's own page for one approval: the browser shell at DESK_URL (default its loopback
 * address and WEB_PORT). The page asks for the desk's sign-in; only its Confirm button answers.
 */
export function deskApprovalLink(env: NodeJS.ProcessEnv): (approvalId: string) => string {
  const base = new URL(env.DESK_URL?.trim() || `http://127.0.0.1:${env.WEB_PORT?.trim() || '5180'}`);
  return (approvalId) => new URL(`/agent/approvals?id=${encodeURIComponent(approvalId)}`, base).toString();
}

/** The MCP listing of one tool: planner-form input, output schema, annotations. */
export function mcpToolOf(definition: ToolDefinition): Tool {
  const readOnly = !definition.isDestructive && !definition.startsWork && !definition.changesUserSettings;
  const output = definition.isDestructive ? mcpChangeResult : definition.output;
  const outputSchema = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete outputSchema.$schema;
  return {
    name: apiToolName(definition.name),
    title: definition.name,
    description: definition.description + (definition.isDestructive ? DESTRUCTIVE_NOTE : ''),
    inputSchema: plannerSchema(definition) as Tool['inputSchema'],
    // A client checks structuredContent against this; only an object schema may be declared.
    ...(outputSchema.type === 'object' && { outputSchema: outputSchema as Tool['outputSchema'] }),
    annotations: {
      title: definition.name,
      readOnlyHint: readOnly,
      destructiveHint: definition.isDestructive,
      idempotentHint: readOnly,
      openWorldHint: false,
    },
  };
}

export function createDeskMcpServer(options: DeskMcpOptions): Server {
  const server = new Server(
    { name: 'agent-desk', title: 'Agent Desk', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: {} },
      instructions: 'Tools over the signed-in agent\'s own book. Amounts in structured results and arguments are integer paisa '
        + '(100 paisa = 1 point); the text of a result states them in points. Players and matches may be named; an unclear name is '
        + 'refused with the candidates and their ids. Changes (limits, settlements, hedge bets, sharing a report) are only proposed: '
        + 'the user confirms each one in Agent Desk; nothing this client sends can confirm one.',
    },
  );

  // Approvals watched for the client stop with its session.
  const watching = new AbortController();
  const closed = server.onclose;
  server.onclose = () => {
    watching.abort();
    closed?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { user } = await options.caller();
    return { tools: options.registry.forRole(user.role).map(mcpToolOf) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const caller = await options.caller();
    const definition = options.registry.forRole(caller.user.role).find((d) => apiToolName(d.name) === request.params.name || d.name === request.params.name);
    if (!definition) return failure(`there is no tool named ${clip(request.params.name)} for this account`);
    // The approval alert is how the user sees what MCP clients ask for: a client cannot silence it.
    if (definition.changesUserSettings && (request.params.arguments as { kind?: unknown } | undefined)?.kind === 'approval_pending') {
      return failure('approval alerts can be muted only in Agent Desk itself: they are how the user sees what MCP clients ask for');
    }
    const requestId = randomUUID();
    const ctx: ToolContext = { api: caller.api, user: caller.user, requestId, signal: extra.signal };
    const decision: Decision = {
      request_id: requestId, intent: definition.name, action: 'tools', confidence: 1,
      calls: [{ tool: definition.name, args: (request.params.arguments ?? {}) }],
    };
    // The gate, as for a model in the chat: role, names to ids within the user's book, arguments.
    const gated = await gate(decision, options.registry, caller.user, ctx);
    if (gated.action === 'clarify') return failure(clarification(gated.question, gated.card));
    if (gated.action === 'failed') return failure(gated.envelope.ok ? 'the request failed' : gated.envelope.error.message);
    if (gated.action !== 'tools' || gated.calls.length !== 1) return failure('that request could not be formed; name one player or match');
    const call = gated.calls[0]!;
    options.log.info('mcp tool call', { requestId, tool: call.tool, destructive: definition.isDestructive });

    if (!definition.isDestructive) {
      const envelope = await options.registry.call(call.tool, call.args, ctx);
      if (!envelope.ok) return failure(refusal(envelope.error, options));
      const sentence = sentenceFor(call.tool, envelope, call.args, caller.user.timezone);
      return structured(envelope.data as Record<string, unknown>, sentence);
    }

    const prepared = await options.registry.prepare(call.tool, call.args, ctx);
    if (!prepared.ok) return failure(refusal(prepared.error, options));
    const preview = prepared.data as ToolPreview;
    const client = server.getClientVersion();
    const clientName = client ? clip(`${client.name} ${client.version}`, 120) : null;
    const requested = await requestApproval(call.tool, call.args, preview, caller, clientName, requestId);
    if ('refused' in requested) {
      return change({
        status: 'refused', approvalId: null, summary: '', message: `Nothing to confirm: ${requested.refused}`, approvalUrl: null, expiresAt: null, preview: requested.card,
      });
    }
    const approvalUrl = options.approvalLink?.(requested.id) ?? null;
    const pending: McpChangeResult = {
      status: 'pending_approval', approvalId: requested.id, summary: requested.summary, expiresAt: requested.expiresAt, preview: requested.card, approvalUrl,
      message: `Waiting for the user: ${requested.summary}. Nothing has changed. Only the user can confirm or decline it, in Agent Desk (Approvals${approvalUrl ? `: ${approvalUrl}` : ''}), before ${requested.expiresAt}.`,
    };
    if (approvalUrl && options.elicitation !== false && server.getClientCapabilities()?.elicitation?.url) {
      await pointToDesk(server, options, caller, pending, approvalUrl, watching.signal);
    }
    return change(pending);
  });

  return server;
}

/**
 * Asks the client to send its user to the desk's view of the approval (URL-mode elicitation).
 * The answer decides nothing: `accept` means only that the user agreed to open the link, and a
 * client may send it unasked. When the user did, the approval is watched, and the client is told
 * when the desk has answered it (`notifications/elicitation/complete`), or it expired.
 */
async function pointToDesk(server: Server, options: DeskMcpOptions, caller: TurnCaller, pending: McpChangeResult, url: string, stop: AbortSignal): Promise<void> {
  const approvalId = pending.approvalId!;
  const elicitationId = randomUUID();
  let answer: Awaited<ReturnType<Server['elicitInput']>>;
  try {
    answer = await server.elicitInput({
      mode: 'url', elicitationId, url,
      message: `Agent Desk: ${pending.summary}. Open Agent Desk to confirm or decline this change; nothing changes until you do there. It expires at ${pending.expiresAt}.`,
    });
  } catch (error) {
    options.log.info('mcp elicitation not answered', { approvalId, reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  if (answer.action !== 'accept') return;
  const notify = server.createElicitationCompletionNotifier(elicitationId);
  void watchUntilAnswered(caller, approvalId, Date.parse(pending.expiresAt!), options.watchEveryMs ?? 2_000, stop)
    .then((answered) => (answered ? notify() : undefined))
    .catch((error: unknown) => options.log.info('mcp approval watch ended', { approvalId, reason: error instanceof Error ? error.message : String(error) }));
}

/** True once the approval is no longer pending (answered in the desk, or expired); false if the session closed first. */
async function watchUntilAnswered(caller: TurnCaller, approvalId: string, expiresAtMs: number, everyMs: number, stop: AbortSignal): Promise<boolean> {
  while (!stop.aborted) {
    const approval = await caller.api.approvals.get.query({ id: approvalId });
    if (approval.status !== 'pending') return true;
    // Past its expiry the backend reads it as expired; one more look says so.
    const wait = Math.max(0, Math.min(everyMs, expiresAtMs - Date.now() + 50));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      timer.unref();
      stop.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
  }
  return false;
}

function structured(data: Record<string, unknown>, sentence: string): CallToolResult {
  // Text for clients that read only content: the sentence, then the same JSON as structuredContent.
  return { content: [{ type: 'text', text: [sentence, JSON.stringify(data)].filter(Boolean).join('\n\n') }], structuredContent: data };
}

const change = (result: McpChangeResult): CallToolResult => structured(mcpChangeResult.parse(result), result.message);

/** A tool's refusal for the client; a session the backend ended is renewed on the next call. */
function refusal(error: { code: string; message: string }, options: DeskMcpOptions): string {
  if (error.code === 'UNAUTHORIZED') {
    options.signedOut?.();
    return 'the desk session ended and is being renewed: call again';
  }
  return error.message;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** A question the gate asks instead of guessing, with the candidates it offers, ids included. */
function clarification(question: string, card: Card | undefined): string {
  if (card?.type === 'player_picker') {
    return `${question}\n${card.data.players.map((c) => `- ${c.name} (${c.username}, under ${c.agentName}), id ${c.id}`).join('\n')}\nCall again with the id of the one the user means.`;
  }
  if (card?.type === 'fixture_picker') {
    return `${question}\n${card.data.fixtures.map((c) => `- ${c.name} (${c.startsAt}), id ${c.id}`).join('\n')}\nCall again with the id of the one the user means.`;
  }
  return question;
}

const clip = (text: string, max = 64) => (text.length > max ? `${text.slice(0, max)}…` : text);
