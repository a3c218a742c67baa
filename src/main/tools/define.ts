/**
 * One tool, one module: `defineTool({...})` in src/main/tools/<name>.ts holds everything the app
 * knows about a tool — what a model is told, its schemas and roles, its handlers, the card and the
 * sentence its result makes, and how the rule planner recognises a request for it. The registry,
 * the JSON Schema a model is offered, the planner's intents, the gate's name searches and the
 * composer's sentences are all read off these modules (index.ts lists them).
 */
import type { z } from 'zod';
import type { Card } from '../../shared/contracts/assistant.js';
import type { ToolContext, ToolDefinition, ToolPreview } from './types.js';

export interface ToolModule<N extends string = string, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType>
  extends ToolDefinition<I, O> {
  name: N;
  /** The tool in a few words, for people: the chat's "Looking up live exposure…", the Audit page's "Limit change". */
  label: string;
  /** Absent: the tool is planned and gated but refused as "not available in this version". */
  invoke?(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
  /** The card for a result (may depend on the arguments), or undefined when nothing is shown. */
  render?(output: z.output<O>, args: z.output<I>): Card | undefined;
  /** Destructive tools: the preview the user confirms and the snapshot confirmation re-checks. */
  prepare?(args: z.output<I>, ctx: ToolContext): Promise<ToolPreview>;
  /** The composer's words for a successful result; `args` are the call's, ids in place. */
  say?(output: z.output<O>, args: Record<string, unknown>, timeZone: string): string;
}

/** Keeps a module's literal name and schema types, so its handlers are checked against its own schemas. */
export function defineTool<const N extends string, I extends z.ZodType, O extends z.ZodType>(tool: ToolModule<N, I, O>): ToolModule<N, I, O> {
  return tool;
}
