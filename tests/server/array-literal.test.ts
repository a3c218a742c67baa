import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from '../../src/server/db/client.js';
import { arrayElement } from '../../src/server/seed/write.js';
import { testBookCopy } from '../helpers/backend.js';

describe('the array literals a book is written with', () => {
  let database: Database;
  // The test book's copy: cheaper to open than a new database its migrations would have to build.
  const copy = testBookCopy();
  beforeAll(async () => { database = await openDatabase(copy.config); });
  afterAll(async () => { await database.close(); copy.remove(); });

  /** The literal's elements as PostgreSQL reads them back, each through `expr` of `x` (text by default). */
  const roundTrip = async (values: unknown[], type: string, expr = sql`x::text`) => {
    const literal = `{${values.map(arrayElement).join(',')}}`;
    const rows = await queryRows<{ v: string | null }>(database.db, sql`select ${expr} as v from unnest(${literal}::${sql.raw(type)}[]) with ordinality as u(x, n) order by n`);
    return rows.map((r) => r.v);
  };

  it('gives back every text as it was, whatever it holds', async () => {
    const texts = ['plain', '', 'NULL', 'null', 'with space', ' leading', 'tab\there', 'new\nline', 'a,b', '{braces}', 'say "hi"', 'back\\slash', '\\"', 'Sharma & Sons', 'नमस्ते'];
    expect(await roundTrip(texts, 'text')).toEqual(texts);
  });

  it('gives back nulls, numbers, instants and uuids', async () => {
    expect(await roundTrip([1, null, -250_000, 0], 'bigint')).toEqual(['1', null, '-250000', '0']);
    const at = new Date('2026-11-20T06:30:00.123Z');
    expect(await roundTrip([at], 'timestamptz', sql`(extract(epoch from x) * 1000)::bigint::text`)).toEqual([String(at.getTime())]);
    expect(await roundTrip(['9b79c641-61a7-4d63-8983-2d14ad212af6', null], 'uuid')).toEqual(['9b79c641-61a7-4d63-8983-2d14ad212af6', null]);
  });
});
