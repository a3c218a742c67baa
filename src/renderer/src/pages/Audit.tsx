import { PlayerLink } from '../cards/PlayerLink';
import { playerHref } from '../cards/shared';
import { auditSentence, clip, obj, paisa, recordedPlayerName, str } from '../lib/audit-sentences';
import type { desk } from '../lib/desk';
import { formatCount, formatDateTime, formatPoints } from '../lib/format';
import { useSession } from '../lib/session';
import { auditListQuery, playerNamesQuery } from '../lib/queries';
import { useDeskQuery } from '../lib/useQuery';
import { Loadable } from '../components/States';
import { ExportMenu } from '../components/ExportMenu';

/**
 * Main's audit log: every proposal the user confirmed, cancelled or had refused, newest first,
 * and what verification found, naming the rows and why: the file's own hash chain, and the
 * executed entries against the backend's records of those changes. Everything in
 * an entry came from a file on disk: it is shown as text only, never as markup or a link
 * target (a player link needs a well-formed id).
 */
/** audit.list's answer as the client sees it (auditListOutput in src/shared/contracts/audit.ts). */
type AuditListOutput = Awaited<ReturnType<typeof desk.audit.list.query>>;
type AuditEntry = AuditListOutput['entries'][number];
type AuditOutcome = AuditEntry['outcome'];

export function AuditPage() {
  const state = useDeskQuery(auditListQuery());
  return (
    <section aria-labelledby="audit-title">
      <div className="section-head">
        <h1 id="audit-title">Audit</h1>
        {state.status === 'ready' && <button type="button" onClick={state.reload} data-testid="audit-reload">Verify again</button>}
      </div>
      <p className="muted hint-line">
        Every change the assistant proposed and you answered, as kept in the hash-chained log on this computer.
      </p>
      <Loadable state={state}>
        {(d) => (
          <>
            <VerificationBanner data={d} />
            {d.entries.length > 0 && <ExportMenu request={{ table: 'audit', query: {} }} />}
            {d.entries.length === 0
              ? <p className="state empty" data-testid="audit-empty">No audited actions yet.</p>
              : <AuditTable entries={d.entries} toolLabels={d.toolLabels} flagged={flaggedEntries(d)} />}
          </>
        )}
      </Loadable>
    </section>
  );
}

function shortHash(hash: string): string {
  return `${hash.slice(0, 10)}…`;
}

function VerificationBanner({ data }: { data: AuditListOutput }) {
  const v = data.verification;
  const broken = v.findings.length > 0;
  const mark = v.ok ? '✓' : broken ? '✗' : '!';
  return (
    <div className={`audit-status ${v.ok ? 'ok' : 'bad'}`} data-testid="audit-status" data-ok={String(v.ok)}
      data-backend-checked={String(v.backendChecked)} role={v.ok ? 'status' : 'alert'}>
      <p className="audit-status-main">
        <span aria-hidden="true" className="audit-status-mark">{mark}</span>{' '}
        {v.ok
          ? (v.head
            ? <>Log verified: {formatCount(v.count)} {v.count === 1 ? 'entry' : 'entries'}, head #{v.head.seq} (<code title={v.head.hash}>{shortHash(v.head.hash)}</code>), and it agrees with the backend&apos;s records.</>
            : <>Log verified: the log is empty, and the backend has no records of changes by you.</>)
          : broken
            ? <>The log does not verify: {formatCount(v.findings.length)} {v.findings.length === 1 ? 'problem' : 'problems'} found.</>
            : <>The log&apos;s own chain holds, but it could not be checked against the backend&apos;s records.</>}
      </p>
      <p className="audit-status-backend" data-testid="audit-backend-head">
        {v.backend === null
          ? 'The backend could not be reached: executed changes were not checked against its records. Verify again when it is back.'
          : v.backend.head === null
            ? 'The backend has recorded no changes by you.'
            : <>The backend has recorded {formatCount(v.backend.records)} {v.backend.records === 1 ? 'change' : 'changes'} by you, the last #{v.backend.head.seq} (<code title={v.backend.head.hash}>{shortHash(v.backend.head.hash)}</code>).</>}
      </p>
      {broken && (
        <ul className="audit-findings" data-testid="audit-findings">
          {v.findings.map((f, i) => (
            <li key={i} data-testid="audit-finding" data-entries={f.entries.join(',')} data-anchors={f.anchors.join(',')}>
              <b>{capitalise(clip(f.where, 300))}</b>: {clip(f.reason, 1000)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const OUTCOMES: Record<AuditOutcome, string> = {
  executed: 'Executed',
  no_op: 'No change',
  refused: 'Refused',
  cancelled: 'Cancelled',
  expired: 'Expired',
  failed: 'Failed',
  edited: 'Edited',
};

/** The player an entry acts on: its id, and a name from this entry or another one about them. */
function playerOf(entry: AuditEntry, names: Map<string, string>): { id: string; name: string } | null {
  const id = str(obj(entry.args)?.playerId) ?? str(obj(entry.after)?.playerId);
  if (!id) return null;
  return { id, name: names.get(id) ?? `player ${id.slice(0, 8)}…` };
}

/** The names the entries recorded for their players, when they were answered. */
function namesOf(entries: readonly AuditEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of entries) {
    const id = str(obj(e.args)?.playerId) ?? str(obj(e.after)?.playerId);
    const name = recordedPlayerName(e);
    if (id && name && !names.has(id)) names.set(id, clip(name, 80));
  }
  return names;
}

/**
 * Why an entry ended as it did, when it says: a refused or failed entry's error, the reason the
 * user gave for declining, the amount an edited proposal was changed to.
 */
function reasonOf(entry: AuditEntry): string | null {
  if (entry.outcome === 'cancelled') return entry.reason ? `Your reason: “${clip(entry.reason, 300)}”` : null;
  if (entry.outcome === 'edited') return editedTo(entry);
  if (entry.outcome !== 'refused' && entry.outcome !== 'failed') return null;
  const error = obj(obj(entry.after)?.error);
  const message = str(error?.message);
  return message ? clip(message, 300) : null;
}

/** An edited entry's new amount, when its arguments name one the old ones did too. */
function editedTo(entry: AuditEntry): string | null {
  const to = obj(obj(obj(entry.after)?.editedTo)?.args);
  const from = obj(entry.args) ?? {};
  if (!to) return null;
  const changed = Object.entries(to).find(([k, v]) => paisa(v) !== null && from[k] !== v && /amount|value|stake/i.test(k));
  return changed ? `Changed on the card to ${formatPoints(changed[1] as number)}` : 'Changed on the card';
}

/** At most this many players are looked up by id for their names (one call each). */
const NAME_LOOKUPS = 25;

/**
 * Names for the players no entry names (entries keep the name the preview showed; an older or
 * damaged one may not): looked up by id, well-formed ids only. A failed lookup leaves the short id.
 */
function usePlayerNames(entries: readonly AuditEntry[]): Map<string, string> {
  const known = namesOf(entries);
  const missing = [...new Set(entries.map((e) => str(obj(e.args)?.playerId)))]
    .filter((id): id is string => id !== null && !known.has(id) && playerHref(id) !== null)
    .sort()
    .slice(0, NAME_LOOKUPS);
  const looked = useDeskQuery(playerNamesQuery(missing));
  if (looked.status === 'ready') {
    for (const [id, name] of looked.data) if (name) known.set(id, clip(name, 80));
  }
  return known;
}

/** The seqs of the entries some finding names, with its reasons, for marking their rows. */
function flaggedEntries(data: AuditListOutput): Map<number, string[]> {
  const flagged = new Map<number, string[]>();
  for (const f of data.verification.findings) {
    for (const seq of f.entries) flagged.set(seq, [...(flagged.get(seq) ?? []), f.reason]);
  }
  return flagged;
}

function AuditTable({ entries, toolLabels, flagged }: { entries: AuditEntry[]; toolLabels: AuditListOutput['toolLabels']; flagged: Map<number, string[]> }) {
  const timezone = useSession((s) => s.user?.timezone ?? 'UTC');
  const names = usePlayerNames(entries);
  return (
    <div className="table-scroll">
      <table className="table audit-table" data-testid="audit-table">
        <caption className="visually-hidden">Your audit entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col" className="num">Seq</th><th scope="col">Time</th><th scope="col">Action</th><th scope="col" className="col-p2">Player</th>
            <th scope="col">Details</th><th scope="col">Outcome</th><th scope="col" className="col-p3">Hash</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const player = playerOf(e, names);
            const reason = reasonOf(e);
            return (
              <tr key={`${e.seq}:${e.hash}`} data-testid="audit-row" data-seq={e.seq} data-outcome={e.outcome}
                data-flagged={flagged.has(e.seq) ? 'true' : undefined} className={flagged.has(e.seq) ? 'audit-flagged' : undefined}
                title={flagged.has(e.seq) ? clip(flagged.get(e.seq)!.join('; '), 500) : undefined}>
                <td className="num">{e.seq}</td>
                <td className="nowrap">{formatDateTime(e.ts, timezone, { seconds: true })}</td>
                <td data-testid="audit-tool" title={clip(e.tool, 64)}>
                  {capitalise(Object.hasOwn(toolLabels, e.tool) ? toolLabels[e.tool]! : e.tool)}
                  {e.channel === 'mcp' && <span className="muted" data-testid="audit-channel"> (asked over MCP)</span>}
                </td>
                <td data-testid="audit-player" className="col-p2">{player ? <PlayerLink id={player.id} name={player.name} /> : '—'}</td>
                <td data-testid="audit-summary" className="audit-summary">
                  {auditSentence(e, { playerName: player?.name, toolLabel: Object.hasOwn(toolLabels, e.tool) ? toolLabels[e.tool] : undefined, timeZone: timezone })}
                  {reason && <span className="audit-reason muted">{reason}</span>}
                </td>
                <td>
                  <span className={`badge audit-outcome ${e.outcome}`} data-testid="audit-outcome">{OUTCOMES[e.outcome] ?? e.outcome}</span>
                  {e.stepUp && <span className="muted" data-testid="audit-step-up"> with your password</span>}
                </td>
                <td className="col-p3"><code className="audit-hash" title={e.hash}>{shortHash(e.hash)}</code></td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
