/**
 * What every fault run must show afterwards: no money row lost or duplicated,
 * the audit chains verify, every client recovered, and every failure a client saw was told in
 * words. Each check answers ok and a line saying what it found, for the script and the test.
 */
import { readFile } from 'node:fs/promises';
import { readAnchors, verifyAuditLog } from '../../src/main/audit/verify.js';
import type { ChangeEnd, DeskAgent, ErrorTally } from './desk.js';
import type { Lab } from './lab.js';

export interface Check { name: string; ok: boolean; detail: string }

/**
 * The ledger's own consistency, and the clients' view of it:
 * - no idempotency key wrote two settlements or two audited changes (duplicates);
 * - every settlement has its two postings, summing to zero, and every pair's running take is the
 *   sum of its postings (nothing half-written);
 * - every settlement a client was told was made is there (lost), and no settlement is there that
 *   no client's answer names (made, but its client told it failed: an unknown outcome).
 */
export async function moneyChecks(lab: Lab, ends: readonly ChangeEnd[], before: ReadonlySet<string>): Promise<Check[]> {
  const duplicateSettlements = await lab.query<{ key: string; n: string }>(
    'select idempotency_key as key, count(*)::text as n from settlements where idempotency_key is not null group by 1 having count(*) > 1');
  const duplicateAudits = await lab.query<{ key: string; n: string }>(
    'select idempotency_key as key, count(*)::text as n from audit_log where idempotency_key is not null group by 1 having count(*) > 1');
  const badPostings = await lab.query<{ id: string; postings: string; total: string }>(`
    select s.id, count(l.id)::text as postings, coalesce(sum(l.amount), 0)::text as total
    from settlements s left join ledger l on l.settlement_id = s.id
    group by s.id having count(l.id) <> 2 or coalesce(sum(l.amount), 0) <> 0`);
  const driftedTakes = await lab.query<{ child_id: string }>(`
    select b.child_id from balances b
    where b.take <> coalesce((select sum(l.amount) from ledger l where l.account_id = b.parent_id and l.counterparty_id = b.child_id), 0)`);
  const made = (await lab.query<{ id: string; key: string | null }>('select id, idempotency_key as key from settlements')).filter((r) => !before.has(r.id));
  const madeIds = new Set(made.map((r) => r.id));
  const told = ends.flatMap((e) => (e.end === 'confirmed' && typeof e.data.settlementId === 'string' ? [e.data.settlementId] : []));
  const lost = told.filter((id) => !madeIds.has(id));
  const toldIds = new Set(told);
  const unknown = made.filter((r) => !toldIds.has(r.id));
  const replayed = ends.filter((e) => e.end === 'confirmed' && e.data.replayed === true).length;
  return [
    {
      name: 'no money row duplicated',
      ok: duplicateSettlements.length === 0 && duplicateAudits.length === 0,
      detail: `${made.length} settlements made in the run, ${replayed} of them answered as a replay of a lost reply; `
        + `keys with two settlements: ${duplicateSettlements.length}, with two audited changes: ${duplicateAudits.length}`,
    },
    {
      name: 'no money row lost or half-written',
      ok: lost.length === 0 && unknown.length === 0 && badPostings.length === 0 && driftedTakes.length === 0,
      detail: `${told.length} settlements confirmed to clients, ${lost.length} of them missing; ${unknown.length} made but not known to their client; `
        + `settlements without exactly two postings summing to 0: ${badPostings.length}; takes that differ from their postings: ${driftedTakes.length}`,
    },
  ];
}

/**
 * Each agent's audit log: its hash chain, and every executed entry against the backend's own
 * chain of that user's changes (which the verifier also re-hashes). Only the records written
 * during the run are held to the log: the book may have some from before it.
 */
export async function auditChecks(agents: readonly DeskAgent[], headsBefore: ReadonlyMap<string, number>): Promise<Check[]> {
  const checks: Check[] = [];
  for (const agent of agents) {
    const { anchors, head } = await readAnchors((afterSeq) => agent.api.audit.anchors.query({ afterSeq }));
    const before = headsBefore.get(agent.user.id) ?? 0;
    const ours = anchors.filter((a) => a.seq > before);
    const text = await readFile(agent.audit.file, 'utf8').catch(() => '');
    const whole = verifyAuditLog(text, { user: agent.user.id, anchors, backendHead: head });
    // The backend chain whole (hashes and links from genesis), the log against the run's records.
    const chainFindings = whole.findings.filter((f) => f.reason.includes('chain does not verify') || f.reason.includes('could be read'));
    const run = verifyAuditLog(text, { user: agent.user.id, anchors: ours });
    const findings = [...chainFindings, ...run.findings.filter((f) => !f.reason.includes('chain does not verify'))];
    const outcomes = new Map<string, number>();
    for (const e of run.entries) outcomes.set(e.outcome, (outcomes.get(e.outcome) ?? 0) + 1);
    checks.push({
      name: `audit chain verifies (${agent.user.username})`,
      ok: findings.length === 0,
      detail: `main's log: ${run.count} entries (${[...outcomes].map(([o, n]) => `${o} ${n}`).join(', ') || 'none'}); backend records of the run: ${ours.length} of ${anchors.length}`
        + (findings.length > 0 ? `; findings: ${findings.slice(0, 5).map((f) => `${f.where}: ${f.reason}`).join(' | ')}` : ''),
    });
  }
  return checks;
}

/** The head of each agent's backend chain before the run. */
export async function auditHeads(agents: readonly DeskAgent[]): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  for (const agent of agents) {
    const page = await agent.api.audit.anchors.query({ afterSeq: 0 });
    heads.set(agent.user.id, page.head?.seq ?? 0);
  }
  return heads;
}

/** The settlements there before the run: the run's are the rest. */
export async function settlementIds(lab: Lab): Promise<Set<string>> {
  return new Set((await lab.query<{ id: string }>('select id from settlements')).map((r) => r.id));
}

export function errorChecks(errors: ErrorTally): Check {
  const unclear = errors.unclear();
  return {
    name: 'every failure was told clearly',
    ok: unclear.length === 0,
    detail: `${errors.total} failures seen by clients` + (unclear.length > 0 ? `; unclear: ${unclear.map((e) => `${e.where} ${e.code} ${JSON.stringify(e.message)} ×${e.count}`).join(' | ')}` : ''),
  };
}

/** The report's lines: each check, then each distinct failure with how often it was seen. */
export function describe(checks: readonly Check[], errors: ErrorTally): string[] {
  return [
    ...checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`),
    ...errors.list().map((e) => `  error ×${e.count} at ${e.where}: ${e.code} — ${e.message}`),
  ];
}
