import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/main/tools/define.js';
import { TOOL_MODULES, toolJsonSchema } from '../../../src/main/tools/index.js';
import { createToolRegistry } from '../../../src/main/tools/registry.js';
import type { ToolContext } from '../../../src/main/tools/types.js';
import { userSchema } from '../../../src/shared/contracts/agent-api.js';
import { envelopeSchema } from '../../../src/shared/contracts/assistant.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** A tool that exists only in this test: one defineTool, nothing registered anywhere else. */
const echo = defineTool({
  name: 'agent.echoCount',
  label: 'echo count',
  description: 'Counts to the given number and says how far it got. A tool made only for the test of the tool modules, '
    + 'to show that one module is all a tool needs to be offered, validated and run.',
  input: z.strictObject({ upTo: z.number().int().min(1).max(10) }),
  output: z.object({ counted: z.number().int() }),
  allowedRoles: ['agent'], isDestructive: false, card: null, entities: {},
  invoke: async (args) => ({ counted: args.upTo }),
  say: (out) => `Counted to ${out.counted}.`,
});

const user = userSchema.parse({
  id: '33333333-3333-4333-8333-333333333333', username: 'tester', name: 'Tester', role: 'agent', timezone: 'Asia/Kolkata',
});
const ctx = { api: null as never, user, requestId: 'r1' } satisfies ToolContext;

describe('a tool is one module', () => {
  it('a module alone is registered, listed for its roles with its JSON Schema, validated and run', async () => {
    const registry = createToolRegistry({ tools: [...TOOL_MODULES, echo] });
    expect(registry.get('agent.echoCount')).toBe(echo);
    expect(registry.forRole('agent').map((d) => d.name)).toContain('agent.echoCount');
    expect(registry.forRole('platform_admin').map((d) => d.name)).not.toContain('agent.echoCount');
    const listing = registry.forRole('agent').map((d) => ({ name: d.name, description: d.description, input_schema: toolJsonSchema(d) }));
    expect(listing.find((t) => t.name === 'agent.echoCount')?.input_schema).toMatchObject({
      type: 'object', required: ['upTo'], additionalProperties: false, properties: { upTo: { type: 'integer', minimum: 1, maximum: 10 } },
    });
    const ran = await registry.call('agent.echoCount', { upTo: 3 }, ctx);
    expect(envelopeSchema.parse(ran)).toMatchObject({ ok: true, tool: 'agent.echoCount', data: { counted: 3 } });
    const refused = await registry.call('agent.echoCount', { upTo: 30 }, ctx);
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGS' } });
    // Not in the module list, not in the registry: the built-in table is the modules of index.ts.
    expect(createToolRegistry().get('agent.echoCount')).toBeUndefined();
  });

  it('refuses two modules of one name', () => {
    expect(() => createToolRegistry({ tools: [echo, { ...echo }] })).toThrow(/two tools are named agent.echoCount/);
  });
});

/** Every .ts file under src/main, as a path relative to the repository. */
async function mainFiles(dir = join(ROOT, 'src/main')): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? mainFiles(join(dir, e.name)) : Promise.resolve(e.name.endsWith('.ts') ? [join(dir, e.name)] : []))));
  return nested.flat().map((f) => relative(ROOT, f)).sort();
}

describe('each tool is named in one place', () => {
  it.each(TOOL_MODULES.map((m) => [m.name] as const))('%s is spelled in at most two files of src/main (the desk router and the table export aside)', async (name) => {
    // The method part ("getPnL") is what every spelling shares: "agent.getPnL", api.agent.getPnL, a `case`.
    const word = new RegExp(`\\b${name.slice(name.indexOf('.') + 1)}\\b`);
    // The desk's pages read the backend's procedures themselves (the router for a page, the export for its file), not through the tools.
    const files = (await mainFiles()).filter((f) => f !== 'src/main/desk/router.ts' && f !== 'src/main/desk/table-export.ts');
    const naming: string[] = [];
    for (const file of files) if (word.test(await readFile(join(ROOT, file), 'utf8'))) naming.push(file);
    expect(naming.length, naming.join(', ')).toBeGreaterThan(0);
    expect(naming.length, naming.join(', ')).toBeLessThanOrEqual(2);
  });

  it('the renderer\'s words for a tool come from its module (label, in the turn events and the audit list); it names only the actions whose audit rows it summarises', async () => {
    const labels = TOOL_MODULES.map((m) => m.label);
    expect(labels.every((l) => l.length > 0 && l.length <= 80)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
    const renderer = join(ROOT, 'src/renderer/src');
    const files = (await readdir(renderer, { recursive: true })).filter((f) => /\.tsx?$/.test(f));
    const naming: string[] = [];
    for (const file of files) {
      const text = await readFile(join(renderer, file), 'utf8');
      for (const m of TOOL_MODULES) if (text.includes(`'${m.name}'`)) naming.push(`${file}: ${m.name}`);
    }
    // The Audit page's sentences, one for each kind of entry the log holds.
    expect(naming.sort()).toEqual(['agent.editLimit', 'agent.muteAlerts', 'agent.placeHedgeBet', 'agent.settlePlayer', 'agent.shareReport'].map((t) => `lib/audit-sentences.ts: ${t}`));
  });
});
