/**
 * The tools as Claude is offered them, read off the tool modules: the ones the user's role may
 * call, each with its model-facing description and its JSON Schema in planner form. Players and
 * fixtures are named, not numbered — `player: "Rahul Sharma"` — so every name the model passes
 * goes through the policy gate's own resolution (good matches only; a picker otherwise), exactly
 * as the offline planner's do. An id from an earlier result is accepted in the same field.
 */
import type { Role } from '../../../shared/contracts/agent-api.js';
import { toolJsonSchema } from '../../tools/index.js';
import type { ToolDefinition, ToolRegistry } from '../../tools/types.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

export interface CatalogTool {
  name: string;
  description: string;
  input_schema: JsonSchema & { type: 'object' };
  cache_control?: { type: 'ephemeral' };
}

export interface ToolCatalog {
  tools: CatalogTool[];
  /** The registry tool behind an API name (API names allow no dots: `agent.getPnL` is `agent_getPnL`). */
  definitionOf(apiName: string): ToolDefinition | undefined;
}

export const apiToolName = (tool: string): string => tool.replaceAll('.', '_');

const NAMED: Record<'player' | 'agent' | 'fixture', string> = {
  agent: 'A sub-agent whose own accounts to list instead of the user\'s ("players under Arjun"): their name as the user wrote it, or an id from an earlier tool result.',
  player: "The player or sub-agent: their name as the user wrote it (the app resolves it, and asks the user when it is unclear), or an id from an earlier tool result.",
  fixture: 'The match: its name as the user wrote it ("Ind v Aus", "the MI game"), or an id from an earlier tool result.',
};

const PROPOSES = ' Calling this never makes the change: the app shows the user a preview to confirm or cancel, and the turn ends there.';

export function toolCatalog(registry: ToolRegistry, role: Role): ToolCatalog {
  const definitions = registry.forRole(role);
  const byName = new Map(definitions.map((d) => [apiToolName(d.name), d]));
  const tools = definitions.map((d): CatalogTool => ({
    name: apiToolName(d.name),
    description: d.description + (d.isDestructive ? PROPOSES : ''),
    input_schema: plannerSchema(d),
  }));
  // One cache breakpoint after the last tool: the whole list is the start of every prompt.
  if (tools.length > 0) tools[tools.length - 1] = { ...tools.at(-1)!, cache_control: { type: 'ephemeral' } };
  return { tools, definitionOf: (apiName) => byName.get(apiName) };
}

/** The tool's input schema with each player or fixture id field replaced by a top-level name-or-id field. */
export function plannerSchema(definition: ToolDefinition): JsonSchema & { type: 'object' } {
  const schema = structuredClone(toolJsonSchema(definition)) as JsonSchema;
  delete schema.$schema;
  for (const kind of ['player', 'agent', 'fixture'] as const) {
    const path = definition.entities[kind];
    if (!path) continue;
    const required = removePath(schema, path.split('.'));
    schema.properties = { ...schema.properties, [kind]: { type: 'string', minLength: 1, maxLength: 120, description: NAMED[kind] } };
    if (required) schema.required = [...(schema.required ?? []), kind];
  }
  return { ...schema, type: 'object' };
}

/** Deletes a property by its path; true when it was required all the way down. */
function removePath(schema: JsonSchema, path: string[]): boolean {
  const [head, ...rest] = path;
  if (!head || !schema.properties?.[head]) return false;
  const required = schema.required?.includes(head) ?? false;
  if (rest.length === 0) {
    // A field that takes a word besides an id (a share's recipient "self") keeps that word; the name
    // field stands beside it, and neither is required: the tool's own schema checks that one came.
    const words = ((schema.properties[head].anyOf ?? []) as JsonSchema[]).filter((o) => o.const !== undefined || o.enum !== undefined);
    if (words.length > 0) schema.properties[head] = words.length === 1 ? words[0]! : { anyOf: words };
    else delete schema.properties[head];
    if (schema.required) schema.required = schema.required.filter((r) => r !== head);
    return required && words.length === 0;
  }
  return removePath(schema.properties[head], rest) && required;
}
