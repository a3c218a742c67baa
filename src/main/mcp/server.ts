/**
 * The desk's tools over MCP (issue 16): the same tool modules, registry and policy gate as the
 * chat, for the user the MCP process signed in as. The listing is read off the modules, filtered
 * by the user's role, in planner form (players and matches by name, resolved by the gate: a good
 * match or a refusal naming the candidates, never a guess), with each tool's output schema and
 * the annotations a client shows its user.
 *
 * A destructive tool never runs on the call. It previews, becomes a pending approval the user is
 * notified of in the desk (`approval_pending`), and runs only when the user confirms it: in the
 * desk's Approvals page, or, when the client can show a form (elicitation), in that form. Nothing
 * an MCP client sends can confirm an approval by itself: there is no tool for it.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { approvalStatus } from '../../shared/contracts/approvals.js';
import { type Card, type Decision, cardSchema } from '../../shared/contracts/assistant.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import { apiToolName, plannerSchema } from '../assistant/claude/tool-catalog.js';
import { sentenceFor } from '../assistant/composer.js';
import { gate } from '../assistant/policy/gate.js';
import type { Answerer, Approvals } from '../confirm/approvals.js';
import type { ToolContext, ToolDefinition, ToolPreview, ToolRegistry } from '../tools/types.js';

/** What a destructive tool's call returns over MCP: the change is waiting, refused, or (after an in-client confirmation) how it ended. */
export const mcpChangeResult = z.strictObject({
  status: z.union([z.literal('pending_approval'), z.literal('refused'), approvalStatus]),
  approvalId: z.string().nullable(),
  /** The change in one line. */
  summary: z.string(),
  /** What happened, for the client's user. */
  message: z.string(),
  expiresAt: z.string().nullable(),
  /** The preview the user confirms (or the guardrails' refusal of it). */
  preview: cardSchema.nullable(),
  /** The backend's answer once the change ran. */
  result: z.json().nullable(),
});
export type McpChangeResult = z.infer<typeof mcpChangeResult>;

export interface DeskMcpOptions {
  registry: ToolRegistry;
  approvals: Approvals;
  /** The signed-in user and their backend client, fresh for each call (a session may be renewed). */
  caller: () => Promise<TurnCaller>;
  log: Logger;
  /** The backend said the session ended: the next call signs in again. */
  signedOut?: () => void;
  /** Ask the client's user to confirm in the client when it can show a form; off: the desk only. */
  elicitation?: boolean;
  version?: string;
}

const DESTRUCTIVE_NOTE = ' Calling this never makes the change by itself: it returns a preview and a pending approval, which the user confirms in Agent Desk (Approvals), or in this client\'s own confirmation form when it shows one.';

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
        + 'the user confirms each one in Agent Desk.',
    },
  );

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
    const requested = await options.approvals.request(call.tool, call.args, preview, caller, clientName, requestId);
    if ('refused' in requested) {
      return change({ status: 'refused', approvalId: null, summary: '', message: `Nothing to confirm: ${requested.refused}`, expiresAt: null, preview: requested.card, result: null });
    }
    const pending: McpChangeResult = {
      status: 'pending_approval', approvalId: requested.id, summary: requested.summary, expiresAt: requested.expiresAt, preview: requested.card, result: null,
      message: `Waiting for the user: ${requested.summary}. Nothing has changed. The user confirms or declines it in Agent Desk (Approvals) before ${requested.expiresAt}.`,
    };
    if (options.elicitation === false || !server.getClientCapabilities()?.elicitation) return change(pending);
    return change(await askInClient(server, options, caller, pending, requestId));
  });

  return server;
}

/**
 * The client's own confirmation form. Accepting with the box ticked confirms; declining rejects;
 * closing the form (or a client that fails to show it) leaves the approval waiting in the desk.
 */
async function askInClient(server: Server, options: DeskMcpOptions, caller: TurnCaller, pending: McpChangeResult, requestId: string): Promise<McpChangeResult> {
  const approvalId = pending.approvalId!;
  let answer: Awaited<ReturnType<Server['elicitInput']>>;
  try {
    answer = await server.elicitInput({
      mode: 'form',
      message: `Agent Desk: ${pending.summary}. Confirm to make this change now, or decline. It expires at ${pending.expiresAt}.`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Make this change', description: pending.summary, default: false } },
        required: ['confirm'],
      },
    });
  } catch (error) {
    options.log.info('mcp elicitation not answered', { requestId, approvalId, reason: error instanceof Error ? error.message : String(error) });
    return pending;
  }
  const via: Answerer = 'mcp_elicitation';
  if (answer.action === 'accept' && answer.content?.confirm === true) {
    const done = await options.approvals.confirm(approvalId, caller, via, requestId);
    return {
      ...pending, status: done.approval?.status ?? 'refused', message: done.text, expiresAt: null, result: (done.approval?.result ?? null),
    };
  }
  if (answer.action === 'decline' || answer.action === 'accept') {
    const done = await options.approvals.reject(approvalId, caller, via, requestId);
    return { ...pending, status: done.approval?.status ?? 'refused', message: done.text, expiresAt: null };
  }
  return { ...pending, message: `${pending.message} (The form was closed: the approval still waits in Agent Desk.)` };
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
