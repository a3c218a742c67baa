// README's table of demo accounts against the seed itself: every desk account of the cast is in
// it, with the password, name, role, upline and share the generated book gives it, and nothing
// else is; the book's other desk accounts follow the rule the README states.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCast } from '../src/server/seed/cast.js';
import { DEFAULT_BOOK, generateBook } from '../src/server/seed/generate.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ROLE_WORDS = { platform_admin: 'platform admin', agent: 'agent', player: 'player' } as const;

/** The rows of the first table after `heading`, each a record by column name, backticks dropped. */
function tableAfter(markdown: string, heading: string): Array<Record<string, string>> {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no "${heading}"`);
  const lines = markdown.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split('|').map((c) => c.trim().replaceAll('`', '')));
  }
  const [header, , ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
}

describe('README', () => {
  // The accounts do not depend on the bets: the book is generated without them, in a tenth of a second.
  const book = generateBook(loadCast(), { ...DEFAULT_BOOK, bets: 0 });
  const byId = new Map(book.accounts.map((a) => [a.id, a]));
  const cast = new Set(loadCast().accounts.map((a) => a.username));
  const rows = tableAfter(README, '### Demo accounts');

  it('lists every desk account of the cast as the seed writes it, and only those', () => {
    const desk = book.accounts.filter((a) => a.role !== 'player' && cast.has(a.username));
    expect(rows.map((r) => r.username).sort()).toEqual(desk.map((a) => a.username).sort());
    for (const a of desk) {
      const parent = a.parentId ? byId.get(a.parentId)!.username : '—';
      expect(rows.find((r) => r.username === a.username), a.username).toMatchObject({
        password: a.password, name: a.displayName, role: ROLE_WORDS[a.role], upline: parent,
        share: a.role === 'agent' ? `${a.shareBps / 100}%` : '—',
      });
    }
  });

  it('says how the other desk accounts sign in, and that players do not', () => {
    const others = book.accounts.filter((a) => a.role !== 'player' && !cast.has(a.username));
    expect(others.length).toBeGreaterThan(0);
    for (const a of others) expect(a.password).toBe(`demo-${a.username}`);
    expect(README).toContain(`e.g. \`${others[0]!.username}\``);
    expect(README).toMatch(/password\s+`demo-<username>`/);
    expect(book.accounts.filter((a) => a.role === 'player').every((a) => a.password === null)).toBe(true);
    expect(README).toContain('Players have no desk login');
  });
});
