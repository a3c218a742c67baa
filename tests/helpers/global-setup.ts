/**
 * Writes the test book once, before any worker starts: a PGlite data folder and, when
 * TEST_DATABASE_URL names a server, a PostgreSQL template database. Each test backend then starts
 * from a copy instead of migrating and seeding its own, and no test sees another's writes.
 *
 * The folder is kept between runs (node_modules/.cache, or TEST_BOOK_CACHE) under the key the
 * demo book's snapshot is filed by — the generator's sources, the cast, the options and every
 * migration — and PGlite's version, so a run writes it again only when one of those changed.
 * A copy is the folder copied, in memory-backed storage where there is some (/dev/shm): about
 * half the CPU of PGlite unpacking a tarball into its in-memory file system, the most frequent
 * cost of the suite after importing it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.js';
import { loadCast } from '../../src/server/seed/cast.js';
import { generateBook } from '../../src/server/seed/generate.js';
import { findDemoBookSnapshot, writeDemoBookSnapshot } from '../../src/server/seed/snapshot.js';
import { writeBook } from '../../src/server/seed/write.js';
import { TEST_BOOK, postgresUrl } from './test-book.js';

/** A cached book not used for this long is removed (another branch's, an old generator's). */
const CACHE_KEPT_MS = 7 * 24 * 3600_000;

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A PGlite data folder holding TEST_BOOK: the cached one when its inputs are unchanged, else
 * written now (as the build writes the demo book's snapshot) and cached.
 */
async function pgliteTestBook(): Promise<string> {
  const cache = process.env.TEST_BOOK_CACHE?.trim() || fileURLToPath(new URL('../../node_modules/.cache/agent-desk/test-book/', import.meta.url));
  // PGlite of another version may not open the folder: each version keeps its own.
  const dir = join(cache, `pglite-${pgliteVersion()}`);
  const inputs = { options: TEST_BOOK };
  const folder = findDemoBookSnapshot(dir, inputs) ?? (await writeDemoBookSnapshot(dir, inputs));
  const now = new Date();
  utimesSync(folder, now, now);
  for (const version of readdirSync(cache, { withFileTypes: true })) {
    const entries = version.isDirectory() ? readdirSync(join(cache, version.name)).map((name) => join(cache, version.name, name)) : [join(cache, version.name)];
    for (const other of entries) {
      if (other !== folder && now.getTime() - statSync(other).mtimeMs > CACHE_KEPT_MS) rmSync(other, { recursive: true, force: true });
    }
  }
  return folder;
}

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
  const pgliteFolder = await pgliteTestBook();
  const pgliteCopies = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'agent-desk-test-books-'));

  let postgresTemplate: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    postgresTemplate = `agent_desk_book_${randomBytes(6).toString('hex')}`;
    const name = postgresTemplate;
    await onServer((client) => client.query(`CREATE DATABASE ${name}`));
    const database = await openDatabase({ engine: 'postgres', url: postgresUrl(name) });
    try {
      await writeBook(database.db, generateBook(loadCast(), TEST_BOOK));
    } finally {
      // A template can only be copied while nobody is connected to it.
      await database.close();
    }
  }

  project.provide('testBook', { pgliteFolder, pgliteCopies, postgresTemplate });
  return async () => {
    rmSync(pgliteCopies, { recursive: true, force: true });
    if (postgresTemplate) await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`));
  };
}
