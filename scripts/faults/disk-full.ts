/**
 * Fault (d): the disk the backend writes report files on is full. A report job writes its file
 * in the system temp folder (os.tmpdir(), TMPDIR) and keeps it in the database once whole; here
 * TMPDIR is a small tmpfs of the run's own, filled to the last byte. The report must end failed
 * with words that say the disk is full, nothing of it may be served, the backend must go on
 * answering (and settling) meanwhile, and once space is freed the same report must succeed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ReportArtifact } from '../../src/shared/contracts/reports.js';
import { type Check, auditChecks, auditHeads, describe, errorChecks, moneyChecks, settlementIds } from './checks.js';
import type { FaultReport } from './desk-under-fault.js';
import { DeskAgent, ErrorTally, isClearError } from './desk.js';
import { openLab, waitFor } from './lab.js';
import { type Step, playersOf, runWorkers, settler, stepCounts } from './workload.js';

const run = promisify(execFile);

export const DISK_FULL_SIZE = { agent: 'priya', diskBytes: 2 * 1024 * 1024, settlements: 5, amount: 100 };

/** A tmpfs of `bytes` at a fresh folder, or why not (not root, no mount in this container). */
async function mountSmallDisk(bytes: number): Promise<{ dir: string; unmount(): Promise<void> } | { unavailable: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'fault-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=1777`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return { unavailable: `a small disk (tmpfs) could not be mounted for the report files: ${stderr || (error as Error).message}` };
  }
  return {
    dir,
    async unmount() {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Writes zeros until the disk refuses (ENOSPC): every byte taken. */
async function fill(path: string): Promise<number> {
  const file = await open(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) {
      try {
        const { bytesWritten } = await file.write(chunk);
        written += bytesWritten;
        if (bytesWritten < chunk.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
        // The last few bytes a page at a time, so nothing is left.
        for (let small = 4096; ; ) {
          try {
            written += (await file.write(Buffer.alloc(small))).bytesWritten;
          } catch {
            if (small === 1) return written;
            small = Math.max(1, small / 8);
          }
        }
      }
    }
  } finally {
    await file.close();
  }
}

export async function diskFull(size = DISK_FULL_SIZE, print: (line: string) => void = () => {}): Promise<FaultReport> {
  const name = 'disk-full';
  const disk = await mountSmallDisk(size.diskBytes);
  if ('unavailable' in disk) return { name, skipped: disk.unavailable, checks: [], lines: [] };
  const opened = await openLab({ env: { TMPDIR: disk.dir } }).catch(async (error: unknown) => {
    await disk.unmount();
    throw error;
  });
  if ('unavailable' in opened) {
    await disk.unmount();
    return { name, skipped: opened.unavailable, checks: [], lines: [] };
  }
  const lab = opened;
  let agent: DeskAgent | null = null;
  try {
    await lab.startBackend();
    const errors = new ErrorTally();
    agent = await DeskAgent.signIn({ url: lab.url, username: size.agent, dir: await mkdtemp(join(tmpdir(), 'fault-disk-full-')), errors });
    const me = agent;
    const heads = await auditHeads([me]);
    const before = await settlementIds(lab);
    const input = { template: 'bets_by_match' as const, format: 'xlsx' as const, filters: {} };
    const generate = async (): Promise<ReportArtifact> => {
      const started = await me.read('agent.generateReport', input);
      if (!started.ok) throw new Error(`agent.generateReport: ${started.error.code} ${started.error.message}`);
      const { artifactId } = started.data as { artifactId: string };
      let last: ReportArtifact | null = null;
      await waitFor('the report job to end', async () => {
        const crash = lab.crashed();
        if (crash) throw new Error(crash);
        last = await me.api.reports.get.query({ artifactId });
        return last.status !== 'running';
      }, 120_000, 100);
      return last!;
    };

    const filler = join(disk.dir, 'filler');
    const filled = await fill(filler);
    print(`${name}: TMPDIR of the backend is a ${size.diskBytes / 1024} KiB tmpfs at ${disk.dir}; filled with ${filled} bytes`);

    // While the disk is full: the report, and the rest of the desk's work next to it.
    const steps: Step[] = [];
    const [players] = await Promise.all([playersOf(lab, me, 1, size.settlements * size.amount * 2)]);
    const settling = runWorkers(players.map((p) => settler(me, p, size.settlements, size.amount)), { pauseMs: 500, deadlineMs: 120_000, steps });
    const failed = await generate();
    await settling;
    // The report jobs' own folders (the backend's tsx keeps its compile cache in TMPDIR too).
    const leftOnDisk = (await readdir(disk.dir)).filter((f) => f.startsWith('agent-desk-report-'));
    const [stored] = await lab.query<{ content_null: boolean; size_bytes: string | null }>(
      'select content is null as content_null, size_bytes::text from report_artifacts where id = $1', [failed.artifactId]);
    const listed = (await me.api.reports.list.query({ limit: 200 })).reports.find((r) => r.artifactId === failed.artifactId);
    const readWhileFull = await me.read('agent.getTake', {});
    const healthy = (await fetch(`${lab.url}/health`)).ok;
    if (failed.error) errors.add('reports.get (report job)', failed.status.toUpperCase(), failed.error);

    // Space again: the same report, whole this time, and its bytes served.
    await rm(filler);
    const again = await generate();
    let served = 0;
    let zip = false;
    if (again.link) {
      for (let offset = 0; ;) {
        const part = await me.api.reports.read.query({ link: again.link.parts, offset });
        const bytes = Buffer.from(part.data, 'base64');
        if (offset === 0) zip = bytes.subarray(0, 2).toString('latin1') === 'PK';
        served += bytes.length;
        offset += bytes.length;
        if (bytes.length === 0 || offset >= part.totalBytes) break;
      }
    }

    const checks: Check[] = [
      {
        name: 'the report on a full disk ended failed, saying so',
        ok: failed.status === 'failed' && /disk|space/i.test(failed.error ?? '') && isClearError(failed.error),
        detail: `status ${failed.status} after ${failed.rowsDone} of ${failed.rowsTotal} rows: ${JSON.stringify(failed.error)}`,
      },
      {
        name: 'nothing half-written is served or left',
        ok: failed.link === null && stored?.content_null === true && stored.size_bytes === null && listed?.status === 'failed' && listed.link === null && leftOnDisk.length === 0,
        detail: `link ${failed.link === null ? 'none' : 'given'}; stored content ${stored?.content_null ? 'none' : 'present'}, size ${stored?.size_bytes ?? 'none'}; `
          + `listed as ${listed?.status ?? 'missing'}; files left in the report folder: ${leftOnDisk.length}`,
      },
      {
        name: 'the backend stayed healthy',
        ok: healthy && readWhileFull.ok && lab.crashed() === null,
        detail: `/health ${healthy ? 'ok' : 'failing'}, a read ${readWhileFull.ok ? 'answered' : 'failed'} while the disk was full; settlements meanwhile: ${stepCounts(steps)}`,
      },
      {
        name: 'after freeing space the report succeeds',
        ok: again.status === 'ready' && again.sizeBytes !== null && served === again.sizeBytes && zip,
        detail: `status ${again.status}, ${again.rowsDone} rows, ${again.sizeBytes ?? 0} bytes; served ${served} bytes${zip ? ' (a zip: xlsx)' : ''}`,
      },
      ...await moneyChecks(lab, steps.flatMap((s) => (s.change ? [s.change] : [])), before),
      ...await auditChecks([me], heads),
      errorChecks(errors),
    ];
    const lines = describe(checks, errors);
    for (const line of lines) print(line);
    return { name, checks, lines: [`${name}: the backend's TMPDIR a ${size.diskBytes / 1024} KiB tmpfs, filled (${filled} bytes)`, ...lines] };
  } finally {
    await agent?.close();
    await lab.close();
    await disk.unmount();
  }
}
