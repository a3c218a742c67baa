import { describe, expect, it } from 'vitest';
import { backendKill, BACKEND_KILL_SIZE } from '../../scripts/faults/backend-kill.js';
import type { FaultReport } from '../../scripts/faults/desk-under-fault.js';
import { DISK_FULL_SIZE, diskFull } from '../../scripts/faults/disk-full.js';
import { EVENT_STREAM_DROP_SIZE, eventStreamDrop } from '../../scripts/faults/event-stream-drop.js';
import { POSTGRES_RESTART_SIZE, postgresRestart } from '../../scripts/faults/postgres-restart.js';
import { isClearError } from '../../scripts/faults/desk.js';

/**
 * The fault runs of `npm run fault` at small sizes: each brings up its own
 * PostgreSQL cluster and standalone backend, injects its fault under load, and must pass every
 * check — no money row lost or duplicated, the audit chains verify, every client recovered,
 * every failure told in words. Where the machine cannot host a run (no PostgreSQL server
 * programs, no root for the cluster's user or a tmpfs), the test is skipped with the reason.
 * The desk's breaker cool-down is shortened (2 s, not 30 s) only so the runs end sooner.
 */
const TIMEOUT = 240_000;

function expectAllPassed(report: FaultReport): void {
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  expect(failed, report.lines.join('\n')).toEqual([]);
  expect(report.checks.length).toBeGreaterThanOrEqual(4);
}

describe('fault runs', () => {
  it('kill -9 of the backend during a settlement burst', { timeout: TIMEOUT }, async (ctx) => {
    const report = await backendKill({
      ...BACKEND_KILL_SIZE, agents: ['priya'], settlers: 2, settlements: 12, editors: 1, edits: 4, readers: 1, reads: 20, faultAfter: 8, downMs: 1_000, breakerCoolDownMs: 2_000,
    });
    if (report.skipped) return ctx.skip(report.skipped);
    expectAllPassed(report);
    // The fault was felt: reads in flight while the backend was dead failed, in words.
    expect(report.lines.join('\n')).toMatch(/error ×\d+ at agent\.get\w+: UNAVAILABLE — the backend could not be reached/);
    // The settlement whose reply the crash swallowed was answered as a replay when resent.
    expect(report.lines.join('\n')).toMatch(/1 of them answered as a replay of a lost reply/);
  });

  it('PostgreSQL restarted under load', { timeout: TIMEOUT }, async (ctx) => {
    const report = await postgresRestart({
      ...POSTGRES_RESTART_SIZE, agents: ['priya'], settlers: 2, settlements: 12, editors: 1, edits: 4, readers: 1, reads: 20, faultAfter: 8, downMs: 1_000, breakerCoolDownMs: 2_000,
    });
    if (report.skipped) return ctx.skip(report.skipped);
    expectAllPassed(report);
    // The outage reached the desk as the backend being unavailable, never as an internal error.
    expect(report.lines.join('\n')).toMatch(/error ×\d+ at agent\.get\w+: UNAVAILABLE — the backend is unavailable/);
    expect(report.lines.filter((l) => l.includes(' error ×') && l.includes('INTERNAL'))).toEqual([]);
  });

  it('the event stream\'s connection dropped while events are produced', { timeout: TIMEOUT }, async (ctx) => {
    const report = await eventStreamDrop({ ...EVENT_STREAM_DROP_SIZE, seconds: 10, cuts: 2, refuseMs: 500, settlements: 5, reads: 20, paceMs: 200 });
    if (report.skipped) return ctx.skip(report.skipped);
    expectAllPassed(report);
  });

  it('the report files\' disk is full', { timeout: TIMEOUT }, async (ctx) => {
    const report = await diskFull({ ...DISK_FULL_SIZE, settlements: 3 });
    if (report.skipped) return ctx.skip(report.skipped);
    expectAllPassed(report);
    expect(report.lines.join('\n')).toMatch(/the disk for report files is full/);
  });
});

describe('what counts as a clear error', () => {
  it('words pass; stack traces, dumps, bare errnos and nothing do not', () => {
    expect(isClearError('the backend could not be reached')).toBe(true);
    expect(isClearError('agent.editLimit is temporarily unavailable; try again in 3 s')).toBe(true);
    expect(isClearError('Nothing was changed: the database is unavailable: try again in a moment.')).toBe(true);
    for (const unclear of ['', '   ', 'fetch failed', 'ECONNREFUSED 127.0.0.1:4100', 'TypeError: x is not a function', 'Error: boom\n    at f (a.ts:1:2)',
      '{"code":"INTERNAL"}', '[object Object]', 'undefined', 'socket hang up']) {
      expect(isClearError(unclear), unclear).toBe(false);
    }
  });
});
