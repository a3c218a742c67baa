/**
 * `npm run report -- --user NAME --template T --format F --from DATE --to DATE --out FILE
 *   [--player NAME] [--fixture NAME]` (docs/reports.md): a report from the command line, made as
 * that user through the procedures the desk calls (reports.generate, reports.get until it is
 * done, reports.read chunk by chunk) on the embedded backend: PGlite in PGLITE_DIR (default
 * ./.data/pglite, as `npm run server`; the demo book is written there on first use), or
 * DATABASE_URL. The password is the demo one, `demo-<user>`, unless REPORT_PASSWORD is set.
 * Not while `npm run server` has the same PGlite folder open: PGlite has one writer.
 *
 * Progress goes to stderr; stdout gets one line, `report: <title> — <rows> rows, <size> → <path>`.
 * Exit 2: a bad command line, or a user, player or match that cannot be used; 1: the report failed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TRPCClientError } from '@trpc/client';
import { z } from 'zod';
import { reportFormat, reportTemplate } from '../src/shared/contracts/agent-actions.js';
import { isoDate } from '../src/shared/contracts/bounds.js';
import type { ReportArtifact } from '../src/shared/contracts/reports.js';
import { openBackend } from '../src/server/backend.js';
import { databaseConfigFromEnv } from '../src/server/db/client.js';
import { silentLogger } from '../src/infra/log.js';
import { type BackendClient, embeddedConnection } from '../src/main/backend/connection.js';

const USAGE = `usage: npm run report -- --user NAME --template ${reportTemplate.options.join('|')} --format ${reportFormat.options.join('|')}
         --from YYYY-MM-DD --to YYYY-MM-DD --out FILE [--player NAME] [--fixture NAME]`;

const POLL_MS = 200;

/** A refusal the user can fix: the reason (and the usage, when it is the command line's), exit 2, no stack trace. */
class UsageError extends Error {
  constructor(message: string, readonly showUsage = false) {
    super(message);
  }
}

const argsSchema = z.object({
  user: z.string({ error: '--user is required' }).trim().min(1, '--user is required'),
  template: reportTemplate,
  format: reportFormat,
  from: isoDate,
  to: isoDate,
  out: z.string({ error: '--out is required' }).trim().min(1, '--out is required'),
  player: z.string().trim().min(1, '--player needs a name').optional(),
  fixture: z.string().trim().min(1, '--fixture needs a name').optional(),
}).refine((a) => a.from <= a.to, { message: '--from must not be after --to', path: ['from'] });

type Args = z.infer<typeof argsSchema>;

function parseCommandLine(argv: string[]): Args {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: Object.fromEntries(['user', 'template', 'format', 'from', 'to', 'out', 'player', 'fixture'].map((k) => [k, { type: 'string' }])),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), true);
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    // One reason a flag: a date that is not a date also fails the range check after it.
    const byFlag = new Map<string, string>();
    for (const i of parsed.error.issues) {
      const flag = `--${String(i.path[0] ?? '')}`;
      // zod's words for a missing value name no flag: say which one.
      if (!byFlag.has(flag)) byFlag.set(flag, i.code === 'invalid_type' && i.input === undefined ? `${flag} is required` : `${flag}: ${i.message}`);
    }
    throw new UsageError([...byFlag.values()].join('\n'), true);
  }
  return parsed.data;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The one candidate a search means: the only one, or the only exact match among several. */
function pick<T>(kind: 'player' | 'match', query: string, found: T[], label: (t: T) => string, exact: (t: T) => boolean): T {
  if (found.length === 1) return found[0]!;
  const exacts = found.filter(exact);
  if (exacts.length === 1) return exacts[0]!;
  if (found.length === 0) {
    throw new UsageError(kind === 'player'
      ? `no player in your downline matches "${query}"`
      : `no match (fixture) matches "${query}"`);
  }
  throw new UsageError(`"${query}" could be ${found.length} ${kind === 'player' ? 'players' : 'matches'}; name one of:\n${found.map((f) => `  ${label(f)}`).join('\n')}`);
}

async function resolveFilters(client: BackendClient, args: Args) {
  const filters: { from: string; to: string; playerId?: string; fixtureId?: string } = { from: args.from, to: args.to };
  if (args.player) {
    const q = args.player.toLowerCase();
    const { players } = await client.agent.searchPlayers.query({ query: args.player, limit: 10 });
    filters.playerId = pick('player', args.player, players, (p) => `${p.name} (${p.username}, under ${p.agentName})`,
      (p) => p.match === 'exact' || p.name.toLowerCase() === q || p.username.toLowerCase() === q).id;
  }
  if (args.fixture) {
    const q = args.fixture.toLowerCase();
    const { fixtures } = await client.match.searchFixtures.query({ query: args.fixture, limit: 10 });
    filters.fixtureId = pick('match', args.fixture, fixtures, (f) => `${f.name} (${f.startsAt.slice(0, 10)})`, (f) => f.name.toLowerCase() === q).id;
  }
  return filters;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The file through reports.read into a sibling temp file, renamed over `path` only when whole. */
async function download(client: BackendClient, artifact: ReportArtifact, path: string): Promise<number> {
  const link = artifact.link;
  if (!link) throw new Error('the report is ready but came without a link');
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`);
  const file = await open(temp, 'wx');
  try {
    let offset = 0;
    for (;;) {
      const chunk = await client.reports.read.query({ link: link.parts, offset });
      const bytes = Buffer.from(chunk.data, 'base64');
      await file.write(bytes);
      offset += bytes.length;
      if (offset >= chunk.totalBytes) break;
      if (bytes.length === 0) throw new Error(`the download stopped at ${offset} of ${chunk.totalBytes} bytes`);
    }
    await file.sync();
    await file.close();
    await rename(temp, path);
    return offset;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

async function main(): Promise<number> {
  const args = parseCommandLine(process.argv.slice(2));
  const out = resolve(args.out);
  const database = databaseConfigFromEnv(process.env, resolve('.data/pglite'));
  if (database.engine === 'pglite') process.stderr.write(`opening the book in ${database.dataDir} (the demo book is written on first use, ~15 s)\n`);
  const backend = await openBackend({
    database,
    seedDemoIfEmpty: database.engine === 'pglite' || process.env.SEED_DEMO === '1',
    ...(process.env.CLOCK !== undefined && { clock: process.env.CLOCK }),
  });
  const connection = embeddedConnection(backend, silentLogger);
  let artifactId: string | null = null;
  let client: BackendClient | null = null;
  // Ctrl-C while it runs: the job is cancelled rather than left to finish for no one.
  const interrupt = () => {
    process.stderr.write('\ninterrupted: cancelling the report\n');
    const cancel = artifactId && client ? client.reports.cancel.mutate({ artifactId }).catch(() => undefined) : Promise.resolve();
    void cancel.finally(() => connection.close().finally(() => process.exit(130)));
  };
  process.once('SIGINT', interrupt);
  try {
    let token: string;
    try {
      const password = process.env.REPORT_PASSWORD ?? `demo-${args.user}`;
      token = (await connection.client(null).auth.login.mutate({ username: args.user, password })).token;
    } catch (error) {
      throw new UsageError(`cannot sign in as "${args.user}": ${errorMessage(error)} (is it a user of this book, with the demo password or REPORT_PASSWORD?)`);
    }
    client = connection.client(token);
    const filters = await resolveFilters(client, args);

    let artifact: ReportArtifact;
    try {
      artifact = await client.reports.generate.mutate({ template: args.template, format: args.format, filters });
    } catch (error) {
      // The backend's refusals (a player out of reach, too many rows, no such match) are the user's to fix.
      if (error instanceof TRPCClientError && ['BAD_REQUEST', 'NOT_FOUND', 'FORBIDDEN'].includes(String(error.data?.code))) {
        throw new UsageError(`the backend refused the report: ${error.message}`);
      }
      throw error;
    }
    artifactId = artifact.artifactId;
    process.stderr.write(`${artifact.title}: ${artifact.rowsTotal.toLocaleString('en-US')} rows to write\n`);
    let shown = -1;
    while (artifact.status === 'running') {
      if (artifact.rowsDone !== shown) {
        shown = artifact.rowsDone;
        process.stderr.write(`  ${shown.toLocaleString('en-US')} of ${artifact.rowsTotal.toLocaleString('en-US')} rows\n`);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
      artifact = await client.reports.get.query({ artifactId });
    }
    if (artifact.status !== 'ready') {
      process.stderr.write(`report ${artifact.status}: ${artifact.error ?? 'no reason given'}\n`);
      return 1;
    }
    process.stderr.write(`  ${artifact.rowsDone.toLocaleString('en-US')} of ${artifact.rowsTotal.toLocaleString('en-US')} rows, downloading\n`);
    const size = await download(client, artifact, out);
    process.stdout.write(`report: ${artifact.title} — ${artifact.rowsDone.toLocaleString('en-US')} rows, ${formatSize(size)} → ${out}\n`);
    return 0;
  } finally {
    process.off('SIGINT', interrupt);
    await connection.close();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`report: ${error.message}\n${error.showUsage ? `${USAGE}\n` : ''}`);
    process.exit(2);
  }
  process.stderr.write(`report: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
