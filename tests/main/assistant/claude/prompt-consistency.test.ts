// One consistent prompt: the system prompt and the tools' descriptions say what the tools offered
// to the model actually take (the planner-form schemas of tool-catalog.ts), by the names the model
// sees, and carry the seed's rules. Each check reads the prompt and the registry, so a tool added,
// renamed or made a change without its words following fails here.
import { describe, expect, it } from 'vitest';
import { CHANGE_TOOLS, systemPrompt } from '../../../../src/main/assistant/claude/system-prompt.js';
import { type CatalogTool, apiToolName, toolCatalog } from '../../../../src/main/assistant/claude/tool-catalog.js';
import { createToolRegistry } from '../../../../src/main/tools/registry.js';
import type { Role } from '../../../../src/shared/contracts/agent-api.js';

const registry = createToolRegistry();
const ROLES: readonly Role[] = ['agent', 'platform_admin'];
const catalogs = ROLES.map((role) => ({ role, catalog: toolCatalog(registry, role) }));
const every: readonly CatalogTool[] = [...new Map(catalogs.flatMap((c) => c.catalog.tools).map((t) => [t.name, t])).values()];
const apiNames = new Set(every.map((t) => t.name));
const registryNames = new Set(registry.forRole('agent').concat(registry.forRole('platform_admin')).map((d) => d.name));

const prompt = (role: Role) => systemPrompt({ today: '2026-11-20', timeZone: 'Asia/Kolkata', role, userName: 'Priya Nair', page: { path: '/agent/dashboard', query: {} } })
  .map((b) => b.text).join('\n');

/** Words of a text split at anything but letters, digits, '.' and '_': tool names stay whole. */
const words = (text: string): string[] => text.split(/[^A-Za-z0-9._]+/).map((w) => w.replace(/\.+$/, '')).filter(Boolean);
/** A word that names a tool, in the API's spelling or the registry's dotted one. */
const toolWords = (text: string): string[] => words(text).filter((w) => apiNames.has(w) || registryNames.has(w) || /^(agent|match)[._][a-z]/.test(w));

describe('the prompt the model reads', () => {
  it('names only tools the model is offered, by their API names', () => {
    for (const role of ROLES) {
      const texts = [prompt(role), ...every.map((t) => t.description)];
      for (const text of texts) {
        for (const name of toolWords(text)) {
          expect(apiNames.has(name), `"${name}" in: ${text.slice(0, 80)}…`).toBe(true);
        }
      }
    }
  });

  it('lists every change tool among the changes it proposes, and no read', () => {
    const changes = registry.forRole('agent').filter((d) => d.isDestructive).map((d) => apiToolName(d.name));
    expect(changes).toContain('agent_shareReport');
    expect([...CHANGE_TOOLS].sort()).toEqual([...changes].sort());
    const changesLine = prompt('agent').split('\n').find((line) => line.startsWith('- Changes ('))!;
    for (const name of changes) expect(changesLine).toContain(name);
    expect(toolWords(changesLine).every((w) => changes.includes(w))).toBe(true);
  });

  it('mentions in each description only the arguments its schema takes', () => {
    for (const tool of every) {
      // A search tool names the ids its results carry, for the other tools.
      if (registry.get(tool.name.replace('_', '.'))?.resolves) continue;
      const properties = Object.keys(tool.input_schema.properties ?? {});
      // An id field named in a description ("playerId") must be one the model can pass.
      for (const field of words(tool.description).filter((w) => /^[a-z]+Id$/.test(w))) {
        expect(properties, `${tool.name} mentions ${field}`).toContain(field);
      }
    }
  });

  it('takes a name where a description says the name is passed, and still lets a share go to the user', () => {
    for (const tool of every) {
      const properties = Object.keys(tool.input_schema.properties ?? {});
      for (const id of ['playerId', 'counterpartyId', 'fixtureId', 'underAgentId']) expect(properties, tool.name).not.toContain(id);
    }
    const share = every.find((t) => t.name === 'agent_shareReport')!;
    expect(share.input_schema.properties).toMatchObject({ recipient: { const: 'self' }, player: { type: 'string' } });
    expect(share.input_schema.required ?? []).not.toContain('player');
  });

  it('carries the seed\'s rules', () => {
    const text = prompt('agent');
    for (const rule of [
      'integer paisa', 'pass it in paisa', // points vs paisa, both ways
      'Rahul owes you', // take direction in words
      'available = CL − take', // CL and available
      'in that timezone', 'A request with no date means today', // today in the agent's zone
      'ask once', // an unclear date is asked about once
      'looking at this page', // page context
      'preview card', // every change through its preview
      'where, orderBy', // the row operators as arguments
    ]) expect(text, rule).toContain(rule);
  });

  it('offers the row operators as arguments of each read that declares its rows, where the backend takes them', () => {
    // Live exposure declares rows for the offline answer, but its backend read takes no filter,
    // order or limit: the model is not offered them (docs/claude.md, "One Claude turn").
    const WITHOUT_OPERATORS = new Set(['agent.getLiveExposure']);
    for (const definition of registry.forRole('agent').filter((d) => d.rows && !WITHOUT_OPERATORS.has(d.name))) {
      const tool = every.find((t) => t.name === apiToolName(definition.name))!;
      expect(Object.keys(tool.input_schema.properties ?? {}), definition.name).toEqual(expect.arrayContaining(['where', 'limit']));
    }
  });
});
