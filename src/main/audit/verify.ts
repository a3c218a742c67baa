/**
 * Verification of main's audit log, for the Audit page and `npm run audit:verify`: the file's own
 * hash chain, and, given the backend's records of the user's changes (`audit.anchors`), that the
 * two agree. The file alone can be rewritten whole by whoever can write it (fresh hashes from the
 * edit on); the backend's chain cannot, because the backend writes each record in the
 * transaction of the change itself. So every executed entry must name a backend record that says
 * the same thing, and every backend record must be named by exactly one entry, in order.
 * Cancelled, refused and expired answers moved nothing on the backend and have no record there:
 * only the file's chain covers them.
 *
 * Nothing here throws on what it reads: every bad line, number or record becomes a finding.
 */
import { type AnchoredRowOutput, auditAnchor, auditAnchorsOutput } from '../../shared/contracts/agent-actions.js';
import type { AuditEntry, AuditFinding } from '../../shared/contracts/audit.js';
import { anchorHash } from '../../server/services/audit.js';
import { type AuditHead, GENESIS_HASH, checkLine, sha256, splitLines } from './audit-log.js';
import { TOOL_MODULES } from '../tools/index.js';

/** The backend's idempotency key for a proposal: one nonce, one key, whatever retries happen. */
export function idempotencyKeyFor(nonce: string): string {
  return sha256(`agent-desk:confirm:${nonce}`);
}

/** Past this many findings the rest are counted, not listed: a file of garbage must not flood the page. */
export const MAX_FINDINGS = 100;

export interface AuditVerdict {
  ok: boolean;
  backendChecked: boolean;
  /** Lines in the file. */
  count: number;
  /** The entry with the highest seq that checked. */
  head: AuditHead | null;
  /** Every line that is a valid entry, in file order. */
  entries: AuditEntry[];
  backend: { records: number; head: AuditHead | null } | null;
  findings: AuditFinding[];
}

export interface VerifyOptions {
  /** Whose backend records `anchors` are (the acting user's id): only that user's entries are held to them. */
  user?: string;
  /** The user's whole backend chain, oldest first; undefined or null when it could not be read. */
  anchors?: readonly AnchoredRowOutput[] | null;
  /** The backend's head when it was read, to tell a short read from a short chain. */
  backendHead?: AuditHead | null;
  /** The last entry this process wrote or read, which catches a tail cut off while it ran. */
  localHead?: AuditHead | null;
  /**
   * Backend records that the user's other audit log names (the MCP server's, for changes confirmed
   * in an MCP client's own form; `executedAnchors` of it): accounted for there, not missing here.
   */
  claimedElsewhere?: ReadonlySet<number>;
}

const INT_MAX = 2_147_483_647;
type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= INT_MAX;
const isHash = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** "entry 4", "entries 4 and 5", "entries 4–9"; a list of scattered seqs as "entries 2, 5, 9". */
export function rowsInWords(seqs: readonly number[], noun: [string, string] = ['entry', 'entries']): string {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  if (sorted.length === 0) return noun[1];
  if (sorted.length === 1) return `${noun[0]} ${sorted[0]}`;
  if (sorted.length === 2) return `${noun[1]} ${sorted[0]} and ${sorted[1]}`;
  const contiguous = sorted[sorted.length - 1]! - sorted[0]! === sorted.length - 1;
  if (contiguous) return `${noun[1]} ${sorted[0]}–${sorted[sorted.length - 1]}`;
  const shown = sorted.slice(0, 12).join(', ');
  return `${noun[1]} ${shown}${sorted.length > 12 ? ` and ${sorted.length - 12} more` : ''}`;
}

function range(from: number, to: number): number[] {
  // Bounded: a gap the size of the seq space is named by its ends, not listed.
  if (to - from > 999) return [from, to];
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

class Findings {
  readonly list: AuditFinding[] = [];
  #dropped = 0;
  add(f: Partial<Omit<AuditFinding, 'where' | 'reason'>> & { where: string; reason: string }): void {
    if (this.list.length >= MAX_FINDINGS) {
      this.#dropped++;
      return;
    }
    const cap = (xs: number[] | undefined) => (xs ?? []).filter(isSeq).slice(0, 1000);
    this.list.push({
      where: f.where.slice(0, 300), reason: f.reason.slice(0, 1000), entries: cap(f.entries), lines: cap(f.lines), anchors: cap(f.anchors),
    });
  }
  done(): AuditFinding[] {
    if (this.#dropped > 0) this.list.push({ where: 'the rest of the file', reason: `${this.#dropped} more findings not listed`, entries: [], lines: [], anchors: [] });
    return this.list;
  }
}

interface Parsed {
  line: number;
  entry: AuditEntry | null;
  /** For a line that is not a valid entry: its seq and hash if it still states them plausibly. */
  seq: number | null;
  hash: string | null;
  /** For such a line: the backend record it names, if any (it is already reported; its record is not "missing"). */
  anchor: number | null;
}

export function verifyAuditLog(text: string, options: VerifyOptions = {}): AuditVerdict {
  const findings = new Findings();
  const { lines, terminated } = splitLines(text);
  const parsed: Parsed[] = [];
  for (const [i, line] of lines.entries()) {
    const at = i + 1;
    const cutOff = i === lines.length - 1 && !terminated;
    const checked = cutOff ? null : checkLine(line);
    if (checked?.ok) {
      parsed.push({ line: at, entry: checked.entry, seq: checked.entry.seq, hash: checked.entry.hash, anchor: null });
      continue;
    }
    const raw = looseFields(line);
    parsed.push({ line: at, entry: null, seq: raw.seq, hash: raw.hash, anchor: raw.anchor });
    findings.add({
      where: raw.seq === null ? `line ${at}` : `entry ${raw.seq} (line ${at})`,
      reason: checked ? checked.reason : 'cut off (no newline at the end of the file)',
      entries: raw.seq === null ? [] : [raw.seq], lines: [at],
    });
  }

  const head = chainFindings(parsed, findings, options.localHead ?? null);
  const entries = parsed.flatMap((p) => (p.entry ? [p.entry] : []));
  let backend: AuditVerdict['backend'] = null;
  const backendChecked = options.anchors !== undefined && options.anchors !== null && options.user !== undefined;
  if (backendChecked) {
    backend = { records: options.anchors!.length, head: options.backendHead ?? null };
    const namedByDamaged = new Set([...parsed.flatMap((p) => (p.anchor === null ? [] : [p.anchor])), ...(options.claimedElsewhere ?? [])]);
    anchorFindings(entries, options.user!, options.anchors!, options.backendHead ?? null, namedByDamaged, findings);
  }
  const list = findings.done();
  return { ok: list.length === 0 && backendChecked, backendChecked, count: lines.length, head, entries, backend, findings: list };
}

/** The backend records a log's valid executed entries of `user` name: what it accounts for. */
export function executedAnchors(text: string, user: string): Set<number> {
  const named = new Set<number>();
  for (const line of splitLines(text).lines) {
    const checked = checkLine(line);
    if (!checked.ok || checked.entry.user !== user || checked.entry.outcome !== 'executed') continue;
    const ref = auditAnchor.safeParse(obj(checked.entry.after)?.anchor);
    if (ref.success) named.add(ref.data.seq);
  }
  return named;
}

/** The seq and hash a damaged line still claims, if it parses that far. */
function looseFields(line: string): { seq: number | null; hash: string | null; anchor: number | null } {
  try {
    const raw = obj(JSON.parse(line));
    const anchor = obj(obj(raw?.after)?.anchor)?.seq;
    return { seq: isSeq(raw?.seq) ? raw.seq : null, hash: isHash(raw?.hash) ? raw.hash : null, anchor: isSeq(anchor) ? anchor : null };
  } catch {
    return { seq: null, hash: null, anchor: null };
  }
}

/**
 * The file's own chain: seq 1, 2, 3… in order, each entry linking to the one before. Walks on
 * after a break, so every bad place is named, not only the first.
 */
function chainFindings(parsed: Parsed[], findings: Findings, localHead: AuditHead | null): AuditHead | null {
  const present = new Set(parsed.flatMap((p) => (p.seq === null ? [] : [p.seq])));
  const seen = new Map<number, number>();
  const outOfOrder: number[] = [];
  const outOfOrderLines: number[] = [];
  // The highest place filled so far; its hash is null when the line there is not to be trusted.
  let top: { seq: number; hash: string | null } | null = null;
  let head: AuditHead | null = null;
  for (const p of parsed) {
    if (p.seq === null) continue;
    const firstLine = seen.get(p.seq);
    if (firstLine !== undefined) {
      findings.add({ where: `entry ${p.seq}`, reason: `appears twice (lines ${firstLine} and ${p.line})`, entries: [p.seq], lines: [firstLine, p.line] });
      continue;
    }
    seen.set(p.seq, p.line);
    const expected = (top?.seq ?? 0) + 1;
    if (p.seq < expected) {
      outOfOrder.push(p.seq);
      outOfOrderLines.push(p.line);
      continue;
    }
    if (p.seq > expected) {
      const skipped = range(expected, p.seq - 1);
      const missing = skipped.filter((s) => !present.has(s));
      if (missing.length > 0) {
        findings.add({ where: rowsInWords(missing), reason: 'missing from the file (deleted)', entries: missing });
      }
      if (missing.length < skipped.length) {
        outOfOrder.push(p.seq);
        outOfOrderLines.push(p.line);
      }
    } else if (p.entry) {
      const prev = top === null ? GENESIS_HASH : top.hash;
      if (prev !== null && p.entry.prev !== prev) {
        findings.add({
          where: `entry ${p.seq}`,
          reason: top === null ? 'does not start the chain (the entries before it were removed, or it was rewritten)' : `does not link to entry ${top.seq} before it (edited, replaced or re-chained)`,
          entries: [p.seq], lines: [p.line],
        });
      }
    }
    top = { seq: p.seq, hash: p.entry ? p.entry.hash : p.hash };
    if (p.entry) head = { seq: p.entry.seq, hash: p.entry.hash };
  }
  if (outOfOrder.length > 0) {
    findings.add({ where: rowsInWords(outOfOrder), reason: 'out of order (reordered)', entries: outOfOrder, lines: outOfOrderLines });
  }
  if (localHead && isSeq(localHead.seq)) {
    const last = top?.seq ?? 0;
    if (last < localHead.seq) {
      const gone = range(last + 1, localHead.seq);
      findings.add({ where: rowsInWords(gone), reason: 'missing from the end of the file (cut off): this app wrote them', entries: gone });
    } else {
      const there = parsed.find((p) => p.entry?.seq === localHead.seq);
      if (there && there.entry!.hash !== localHead.hash) {
        findings.add({ where: `entry ${localHead.seq}`, reason: 'is not the entry this app wrote there (replaced)', entries: [localHead.seq], lines: [there.line] });
      }
    }
  }
  return head;
}

/** Each destructive tool's backend record, as its module names it. */
const ACTIONS: Record<string, string> = Object.fromEntries(TOOL_MODULES.flatMap((m) => (m.backendAction ? [[m.name, m.backendAction]] : [])));
const ACTION_WORDS: Record<string, [string, string]> = {
  'limits.edit': ['limit change', 'limit changes'],
  'settlements.settle': ['settlement', 'settlements'],
  'reports.share': ['report share', 'report shares'],
  'hedge.place': ['hedge bet', 'hedge bets'],
};

/** The backend's records against the user's executed entries, both ways. */
function anchorFindings(
  entries: AuditEntry[], user: string, anchors: readonly AnchoredRowOutput[], backendHead: AuditHead | null, namedByDamaged: ReadonlySet<number>, findings: Findings,
): void {
  // The backend's own chain, as received: whole, linked, each hash its row's.
  const bySeq = new Map<number, AnchoredRowOutput>();
  let prev: AnchoredRowOutput | null = null;
  for (const row of anchors) {
    const expected = (prev?.seq ?? 0) + 1;
    if (row.seq !== expected || row.prevHash !== (prev?.hash ?? GENESIS_HASH) || safeAnchorHash(user, row) !== row.hash) {
      findings.add({ where: `backend record ${row.seq}`, reason: 'the backend\'s chain does not verify here: its records were altered', anchors: [row.seq] });
    }
    bySeq.set(row.seq, row);
    prev = row;
  }
  // More may have been written since the first page was read; fewer means the read stopped short.
  if (backendHead && (prev?.seq ?? 0) < backendHead.seq) {
    findings.add({ where: 'the backend\'s records', reason: `only ${anchors.length} of ${backendHead.seq} could be read: the rest were not checked`, anchors: [] });
  }

  const claimedBy = new Map<number, number>();
  let lastClaimed: { anchor: number; entry: number } | null = null;
  for (const e of entries) {
    if (e.user !== user || e.outcome !== 'executed') continue;
    const ref = auditAnchor.safeParse(obj(e.after)?.anchor);
    if (!ref.success) {
      findings.add({ where: `entry ${e.seq}`, reason: 'executed, but names no backend record of the change (forged, or written before the backend kept them)', entries: [e.seq] });
      continue;
    }
    const { seq, hash } = ref.data;
    const row = bySeq.get(seq);
    if (!row) {
      findings.add({ where: `entry ${e.seq}`, reason: `names backend record ${seq}, which the backend does not have: not recorded by the backend (forged)`, entries: [e.seq], anchors: [seq] });
      continue;
    }
    if (row.hash !== hash) {
      findings.add({ where: `entry ${e.seq}`, reason: `names backend record ${seq} with another hash (forged or edited)`, entries: [e.seq], anchors: [seq] });
      continue;
    }
    const other = claimedBy.get(seq);
    if (other !== undefined) {
      findings.add({ where: `entries ${other} and ${e.seq}`, reason: `both name backend record ${seq}: one of them is a copy (forged)`, entries: [other, e.seq], anchors: [seq] });
      continue;
    }
    claimedBy.set(seq, e.seq);
    const differs = factsDiffer(e, row);
    if (differs.length > 0) {
      findings.add({ where: `entry ${e.seq}`, reason: `does not say what backend record ${seq} says (${differs.join(', ')} ${differs.length === 1 ? 'differs' : 'differ'}): edited`, entries: [e.seq], anchors: [seq] });
    }
    if (lastClaimed && seq < lastClaimed.anchor) {
      findings.add({
        where: `entries ${lastClaimed.entry} and ${e.seq}`,
        reason: `in another order than the backend recorded them (records ${lastClaimed.anchor} and ${seq}): reordered`,
        entries: [lastClaimed.entry, e.seq], anchors: [lastClaimed.anchor, seq],
      });
    }
    if (!lastClaimed || seq > lastClaimed.anchor) lastClaimed = { anchor: seq, entry: e.seq };
  }

  // Records no entry names, by runs, placed between the entries that name their neighbours.
  const claimed = [...claimedBy.entries()].sort((a, b) => a[0] - b[0]);
  let run: AnchoredRowOutput[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const first = run[0]!.seq;
    const last = run[run.length - 1]!.seq;
    const before = claimed.filter(([a]) => a < first).pop()?.[1];
    const after = claimed.find(([a]) => a > last)?.[1];
    const where = before !== undefined && after !== undefined ? `between entries ${before} and ${after}`
      : before !== undefined ? `after entry ${before}, at the end of the log`
        : after !== undefined ? `before entry ${after}` : 'the whole log';
    const kinds = [...new Set(run.map((r) => r.action))];
    const words = kinds.length === 1 && ACTION_WORDS[kinds[0]!] ? ACTION_WORDS[kinds[0]!]! : ['change', 'changes'] as [string, string];
    const what = run.length === 1 ? `a ${words[0]} (its record ${first})` : `${run.length} ${words[1]} (${rowsInWords(run.map((r) => r.seq), ['record', 'records'])})`;
    const how = after === undefined ? 'truncated or deleted' : 'deleted';
    findings.add({ where, reason: `the backend recorded ${what} that this log does not have: ${how}, or made outside this desk`, anchors: run.map((r) => r.seq) });
    run = [];
  };
  for (const row of anchors) {
    if (claimedBy.has(row.seq) || namedByDamaged.has(row.seq)) {
      flush();
      continue;
    }
    if (run.length > 0 && run[run.length - 1]!.seq !== row.seq - 1) flush();
    run.push(row);
  }
  flush();
}

function safeAnchorHash(user: string, row: AnchoredRowOutput): string | null {
  try {
    return anchorHash(user, row);
  } catch {
    return null;
  }
}

/** The facts an executed entry states that the backend's record states too; the names of those that differ. */
function factsDiffer(e: AuditEntry, row: AnchoredRowOutput): string[] {
  const args = obj(e.args) ?? {};
  const before = obj(e.before) ?? {};
  const after = obj(e.after) ?? {};
  const rb = obj(row.before) ?? {};
  const ra = obj(row.after) ?? {};
  const checks: Array<[string, boolean]> = [
    ['action', ACTIONS[e.tool] === row.action],
    ['proposal', idempotencyKeyFor(e.nonce) === row.idempotencyKey],
  ];
  // A share's record is about the report (its target) and names the recipient; a hedge's is about
  // the bet it placed (from the agent's own account, so no player); the others' target is the player.
  if (row.action === 'reports.share') {
    checks.push(
      ['report', args.artifactId === row.targetId && after.artifactId === row.targetId],
      ['recipient', after.recipientId === ra.recipientId && (args.recipient === 'self' || args.recipient === ra.recipientId)],
    );
  } else if (row.action === 'hedge.place') {
    checks.push(
      ['bet', after.betId === row.targetId && ra.betId === row.targetId],
      ['selection', args.fixtureId === ra.fixtureId && args.marketId === ra.marketId && args.outcomeId === ra.outcomeId],
      ['side', args.side === ra.side && after.side === ra.side],
      ['stake', args.stake === ra.stake && after.stake === ra.stake],
      // The slip's odds are the price the bet had to get: the record's must be the same.
      ['odds', before.odds === ra.odds && after.odds === ra.odds],
      ['liability', after.liability === ra.liability],
    );
  } else checks.push(['player', args.playerId === row.targetId && after.playerId === row.targetId]);
  if (row.action === 'limits.edit') {
    checks.push(
      ['limit', args.limitType === rb.limitType && after.limitType === rb.limitType && ra.limitType === rb.limitType],
      ['before', after.before === rb.value && before.before === rb.value],
      ['after', after.after === ra.value && args.newValue === ra.value],
    );
  } else if (row.action === 'settlements.settle') {
    checks.push(
      ['take before', after.takeBefore === rb.take && before.takeBefore === rb.take],
      ['take after', after.takeAfter === ra.take],
      ['amount', after.amount === ra.amount && (args.mode !== 'amount' || args.amount === ra.amount)],
      ['direction', after.direction === ra.direction],
      ['settlement', after.settlementId === ra.settlementId && args.mode === ra.mode && (args.periodId ?? null) === ra.periodId],
    );
  }
  return checks.filter(([, same]) => !same).map(([name]) => name);
}

/** Pages of `audit.anchors` read per verification at most (PAGE_SIZE_MAX.auditRecords each: 200,000 records). */
const MAX_ANCHOR_PAGES = 1_000;

export interface AnchorsPage {
  anchors: AnchoredRowOutput[];
  next: number | null;
  head: AuditHead | null;
}

/**
 * The user's whole backend chain, page by page (bounded), with the head as the first page saw it.
 * A remote backend's answer is checked like any input; one that is not a page of records throws.
 */
export async function readAnchors(page: (afterSeq: number) => Promise<unknown>): Promise<{ anchors: AnchoredRowOutput[]; head: AuditHead | null }> {
  const anchors: AnchoredRowOutput[] = [];
  let head: AuditHead | null = null;
  let afterSeq = 0;
  for (let i = 0; i < MAX_ANCHOR_PAGES; i++) {
    const parsed = auditAnchorsOutput.safeParse(await page(afterSeq));
    if (!parsed.success) throw new TypeError(`the backend's audit records are malformed (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const got: AnchorsPage = parsed.data;
    if (got.next !== null && got.next <= afterSeq) throw new TypeError('the backend\'s audit records do not move forward');
    if (i === 0) head = got.head;
    anchors.push(...got.anchors);
    if (got.next === null) break;
    afterSeq = got.next;
  }
  return { anchors, head };
}
