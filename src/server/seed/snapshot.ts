/**
 * The demo book written ahead of time: a first start copies a PGlite data folder instead of
 * generating and writing the book (docs/benchmarks.md, "Start-up"). A folder rather than PGlite's
 * `dumpDataDir` tarball: restoring the tarball through `loadDataDir` took 3–5 times the CPU of
 * opening the book (PGlite unpacks it file by file through its WebAssembly file system), copying the
 * folder a fifth of it. The generator stays the source
 * of truth: a snapshot is only ever made by generating and writing (`writeDemoBookSnapshot`, run
 * by the build), and it is found by a key over everything the written book depends on — the
 * generator's own sources, the cast, the book's options and the migrations — so a change to any of
 * them makes the old snapshot unreachable instead of stale.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Db, MIGRATIONS_DIR, openDatabase, queryRows } from '../db/client.js';
import { DEFAULT_CAST_PATH, loadCast } from './cast.js';
import { type BookOptions, generateBook } from './generate.js';
import { writeBook } from './write.js';

/**
 * Written by the build beside the bundle (electron.vite.config.ts): the generator's source digest
 * at build time. A bundle has no sources to read, and the bundle's code is what that digest names.
 */
export const SOURCE_DIGEST_FILE = 'demo-book-source.txt';

/** The modules whose code decides the rows of a written book; their relative imports are followed. */
const GENERATOR_ENTRIES = ['./generate.ts', './write.ts'];
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g;

/** The generator's source files and every module they import from this project, sorted. */
export function generatorSources(entries: readonly URL[] = GENERATOR_ENTRIES.map((e) => new URL(e, import.meta.url))): string[] {
  const seen = new Set<string>();
  const pending = entries.map((e) => fileURLToPath(e));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, path] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = join(dirname(file), `${path}.ts`);
      if (existsSync(target)) pending.push(target);
    }
  }
  // Sorted, so the order the imports were found in never changes the digest.
  return [...seen].sort();
}

/** A digest of `generatorSources()`: their paths inside src/ and their text. */
export function generatorSourceDigest(entries?: readonly URL[]): string {
  const hash = createHash('sha256');
  for (const file of generatorSources(entries)) {
    hash.update(`${file.slice(file.replaceAll('\\', '/').lastIndexOf('/src/'))}\0${readFileSync(file, 'utf8')}\0`);
  }
  return hash.digest('hex');
}

/** The digest of the code that runs here: the build's, in a bundle; the sources', under tsx. */
function runningSourceDigest(): string {
  const built = new URL(`./${SOURCE_DIGEST_FILE}`, import.meta.url);
  return existsSync(built) ? readFileSync(built, 'utf8').trim() : generatorSourceDigest();
}

export interface SnapshotInputs {
  options: BookOptions;
  /** Defaults are the running code's: its cast, its migrations, its generator. */
  castPath?: string | URL;
  migrationsDir?: string;
  sourceDigest?: string;
}

/** The key a snapshot is filed under: changes with the generator, the cast, the options or any migration. */
export function demoBookKey(inputs: SnapshotInputs): string {
  const hash = createHash('sha256');
  hash.update(`source\0${inputs.sourceDigest ?? runningSourceDigest()}\0`);
  hash.update(`cast\0${readFileSync(inputs.castPath ?? DEFAULT_CAST_PATH, 'utf8')}\0`);
  const { seed, players, bets, days } = inputs.options;
  hash.update(`options\0${JSON.stringify({ seed, players, bets, days })}\0`);
  const migrationsDir = inputs.migrationsDir ?? MIGRATIONS_DIR;
  const migrations = readdirSync(migrationsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of migrations) hash.update(`migration\0${file.slice(migrationsDir.length)}\0${readFileSync(file, 'utf8')}\0`);
  return hash.digest('hex').slice(0, 32);
}

/**
 * Where the build leaves the snapshot: `out/demo-book/`, beside the bundle's folder (out/main), so
 * that emptying out/main on each build keeps a snapshot whose key has not changed. DEMO_BOOK_DIR
 * names another folder.
 */
export function demoBookSnapshotDir(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.DEMO_BOOK_DIR?.trim();
  if (named) return named;
  const bundled = existsSync(new URL(`./${SOURCE_DIGEST_FILE}`, import.meta.url));
  return fileURLToPath(new URL(bundled ? '../demo-book/' : '../../../out/demo-book/', import.meta.url));
}

/**
 * The snapshot of the book these inputs would write, when one was made: a PGlite data folder to
 * copy into a new one. Null otherwise.
 */
export function findDemoBookSnapshot(dir: string, inputs: SnapshotInputs): string | null {
  // Packaged, the folder is unpacked beside the app's archive (electron-builder.yml): copied from there.
  const folder = join(dir, demoBookKey(inputs)).replace(/\.asar([\\/])/, '.asar.unpacked$1');
  return existsSync(join(folder, 'PG_VERSION')) ? folder : null;
}

const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Generates and writes the book into a new data folder, shut down cleanly, filed as `<dir>/<key>`
 * (made beside it and renamed, so a reader never sees half a book). Returns the folder.
 */
export async function writeDemoBookSnapshot(dir: string, inputs: SnapshotInputs): Promise<string> {
  const key = demoBookKey(inputs);
  const folder = join(dir, key);
  const partial = join(dir, `.${key}.${process.pid}.partial`);
  mkdirSync(dir, { recursive: true });
  rmSync(partial, { recursive: true, force: true });
  try {
    const writing = await openDatabase({ engine: 'pglite', dataDir: partial }, inputs.migrationsDir);
    let currentSegment: string;
    try {
      await writeBook(writing.db, generateBook(loadCast(inputs.castPath), inputs.options));
      await writing.db.execute(sql`checkpoint`);
      currentSegment = (await queryRows<{ name: string }>(writing.db, sql`select pg_walfile_name(pg_current_wal_lsn()) as name`))[0]!.name;
    } finally {
      await writing.close();
    }
    // Writing the book filled a dozen WAL segments, which Postgres keeps, renamed ahead of the
    // current one, to reuse: more than half the folder. Past a clean shutdown nothing needs them,
    // and the server makes new ones when it wants them.
    for (const name of readdirSync(join(partial, 'pg_wal'))) {
      if (WAL_SEGMENT.test(name) && name > currentSegment) rmSync(join(partial, 'pg_wal', name));
    }
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
    return folder;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    rmSync(`${partial}.lock`, { force: true });
  }
}

/**
 * A digest of every row of every table in the current schema, table by table in name order and
 * rows in their text form's order: two databases holding the same book give the same digest
 * whatever order their rows were written in.
 */
export async function bookDigest(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(db, sql`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '\_\_drizzle%'
    order by table_name`);
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ digest: string | null; n: number }>(db, sql`
      select md5(coalesce(string_agg(r::text, E'\n' order by r::text), '')) as digest, count(*)::int as n from ${sql.identifier(name)} r`);
    digests[name] = `${row!.n}:${row!.digest}`;
  }
  return digests;
}
