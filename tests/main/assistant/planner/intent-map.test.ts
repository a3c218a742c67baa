import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../../src/main/assistant/planner/rule-planner.js';
import { clarifyReason } from '../../../../src/shared/contracts/assistant.js';

/** docs/intent-map.md is the planner in words: it must name everything the code has. */
describe('docs/intent-map.md is in step with the planner', async () => {
  const doc = await readFile(new URL('../../../../docs/intent-map.md', import.meta.url), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| (\d+) \| `(\w+)` \| `([\w.]+)` \| (yes|no) \|/gm)].map((m) => [m[2]!, m]));

  it.each(INTENTS.map((i) => [i.id, i] as const))('intent %s: precedence, tool and exclusivity as in the code', (id, intent) => {
    const row = rows.get(id);
    expect(row, `no row for ${id}`).toBeDefined();
    expect(Number(row![1])).toBe(intent.precedence);
    expect(row![3]).toBe(intent.tool);
    expect(row![4]).toBe(intent.exclusive ? 'yes' : 'no');
  });

  it('has no intent the code does not', () => {
    expect([...rows.keys()].sort()).toEqual(INTENTS.map((i) => i.id).sort());
  });

  it.each(clarifyReason.options)('clarify reason %s is documented', (reason) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${reason}\` \\|`, 'm'));
  });
});
