/**
 * Writes the test book once per run, before any worker starts: a PGlite data-folder tarball and,
 * when TEST_DATABASE_URL names a server, a PostgreSQL template database. Each test backend then
 * starts from a copy (about 0.4 s) instead of migrating and seeding its own (about 3 s, far more
 * on a loaded machine), and no test sees another's writes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.js';
import { loadCast } from '../../src/server/seed/cast.js';
import { generateBook } from '../../src/server/seed/generate.js';
import { writeBook } from '../../src/server/seed/write.js';
import { TEST_BOOK, postgresUrl } from './test-book.js';

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const book = generateBook(loadCast(), TEST_BOOK);

  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-test-book-'));
  const pgliteSnapshot = join(dir, 'pglite.tar');
  const pglite = await openDatabase({ engine: 'pglite' });
  try {
    await writeBook(pglite.db, book);
    writeFileSync(pgliteSnapshot, Buffer.from(await (await pglite.snapshot!()).arrayBuffer()));
  } finally {
    await pglite.close();
  }

  let postgresTemplate: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    postgresTemplate = `agent_desk_book_${randomBytes(6).toString('hex')}`;
    const name = postgresTemplate;
    await onServer((client) => client.query(`CREATE DATABASE ${name}`));
    const database = await openDatabase({ engine: 'postgres', url: postgresUrl(name) });
    try {
      await writeBook(database.db, book);
    } finally {
      // A template can only be copied while nobody is connected to it.
      await database.close();
    }
  }

  project.provide('testBook', { pgliteSnapshot, postgresTemplate });
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgresTemplate) await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`));
  };
}
