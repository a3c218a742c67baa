import { type ReactNode, useDeferredValue, useState } from 'react';
import { STATEMENT_KINDS, type StatementKind } from '../../../shared/contracts/agent-api';
import { PAGE_SIZE_MAX } from '../../../shared/contracts/page-size';
import { isIsoDate } from '../../../shared/dates';
import { STATEMENT_KIND_LABELS, useStatementColumns } from '../cards/StatementTable';
import { SortableTable } from '../cards/shared';
import { ExportMenu } from '../components/ExportMenu';
import { Link } from '../components/Link';
import { More } from '../components/More';
import { NotFound } from '../components/NotFound';
import { Loadable } from '../components/States';
import { Tile } from '../components/Tile';
import { isNotFoundCode } from '../lib/errors';
import { formatCount, formatPeriod, formatPoints, signClass, takeTowards } from '../lib/format';
import { type PanelOutput, panelPages, panelQuery } from '../lib/queries';
import { buildHref, useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { useDeskQuery } from '../lib/useQuery';
import { usePaged } from '../lib/usePaged';

/** Ids the backend hands out; anything else names no account, so it is not asked for. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type StatementOutput = PanelOutput<'statement'>;

/** The kinds in the query (`kind=bet_result,settlement`), in the statement's own order; unknown words are dropped. */
function kindsFromQuery(value: string | undefined): StatementKind[] {
  const asked = new Set((value ?? '').split(','));
  return STATEMENT_KINDS.filter((k) => asked.has(k));
}

/** `/agent/statement?account=ID[&from&to&kind]`: one account's statement; without an account, a search for one. */
export function StatementPage() {
  const { path, query, navigate } = useRoute();
  const account = query.account ?? '';
  const from = query.from ?? '';
  const to = query.to ?? '';
  const kinds = kindsFromQuery(query.kind);
  let problem: string | null = null;
  if ((from && !isIsoDate(from)) || (to && !isIsoDate(to))) problem = 'Dates must be calendar days.';
  else if (from && to && from > to) problem = 'The start date is after the end date.';
  const setQuery = (patch: Record<string, string | undefined>) => navigate(buildHref(path, { ...query, ...patch }));
  const toggleKind = (k: StatementKind) => {
    const next = kinds.includes(k) ? kinds.filter((x) => x !== k) : [...kinds, k];
    setQuery({ kind: STATEMENT_KINDS.filter((x) => next.includes(x)).join(',') || undefined });
  };
  if (!account) return <AccountPicker />;
  if (!UUID.test(account)) return <AccountNotFound />;
  const filters = (
    <div className="filters" role="group" aria-label="Filters">
      <label>From <input type="date" value={from} max={to || undefined} data-testid="statement-from" onChange={(e) => setQuery({ from: e.target.value })} /></label>
      <label>To <input type="date" value={to} min={from || undefined} data-testid="statement-to" onChange={(e) => setQuery({ to: e.target.value })} /></label>
      <fieldset className="checks" data-testid="statement-kinds">
        <legend>Kinds</legend>
        {STATEMENT_KINDS.map((k) => (
          <label key={k}><input type="checkbox" checked={kinds.includes(k)} onChange={() => toggleKind(k)} data-testid={`statement-kind-${k}`} /> {STATEMENT_KIND_LABELS[k]}</label>
        ))}
      </fieldset>
      {(from || to || kinds.length > 0) && <button type="button" onClick={() => navigate(buildHref(path, { account }))}>Clear filters</button>}
    </div>
  );
  return <StatementView key={account} accountId={account} from={problem ? '' : from} to={problem ? '' : to} kinds={kinds} filters={filters} problem={problem} />;
}

function AccountNotFound() {
  return (
    <NotFound title="No such account in your downline" back={{ to: '/agent/statement', label: 'Find an account' }}>
      The link may be mistyped or out of date, or the account is not in your book.
    </NotFound>
  );
}

/**
 * One account's statement. The heading and filters stay while another filter's lines load; the
 * account is the one the last answer named (the same for every filter of this view).
 */
function StatementView({ accountId, from, to, kinds, filters, problem }: {
  accountId: string; from: string; to: string; kinds: StatementKind[]; filters: ReactNode; problem: string | null;
}) {
  const me = useSession((s) => s.user)!;
  const state = usePaged(panelPages('statement', {
    accountId, limit: PAGE_SIZE_MAX.statement, ...(from && { from }), ...(to && { to }), ...(kinds.length > 0 && { kinds }),
  }), (p: StatementOutput) => p.lines);
  const [account, setAccount] = useState<StatementOutput['account'] | null>(null);
  const loaded = state.status === 'ready' ? state.data.first.account : null;
  if (loaded && loaded !== account) setAccount(loaded);
  if (state.status === 'error' && isNotFoundCode(state.code)) return <AccountNotFound />;
  const a = loaded ?? account;
  return (
    <section aria-labelledby="statement-title">
      <p className="crumbs">
        <Link to="/agent/downline">Downline</Link> › {a && (a.role === 'player'
          ? <Link to={`/agent/players/${a.id}`}>{a.name}</Link> : <Link to={buildHref('/agent/downline', { agentId: a.id })}>{a.name}</Link>)}{a && ' › '}<span>Statement</span>
      </p>
      <h1 id="statement-title" data-testid="statement-name">{a ? `Statement · ${a.name}` : 'Statement'}</h1>
      {filters}
      <ExportMenu disabled={problem !== null} request={{
        table: 'statement', query: { accountId, ...(from && { from }), ...(to && { to }), ...(kinds.length > 0 && { kinds }) },
      }} />
      {problem ? <p className="state error" role="alert">{problem}</p> : (
        <Loadable state={state}>
          {(d) => {
            const acc = d.first.account;
            const parent = { id: acc.parentId, name: acc.parentName };
            return (
              <>
                <div className="tiles">
                  <Tile label="Balance now" value={formatPoints(Math.abs(acc.take))} note={takeTowards(acc.take, parent, me.id)} tone={signClass(acc.take)} testId="statement-take" />
                  <Tile label="Credit limit" value={formatPoints(acc.creditLimit)} testId="statement-cl" />
                  {d.first.period && <Tile label="Opening balance" value={formatPoints(d.first.openingBalance)} note={formatPeriod(d.first.period)} tone={signClass(d.first.openingBalance)} testId="statement-opening" />}
                  {d.first.period && <Tile label="Closing balance" value={formatPoints(d.first.closingBalance)} tone={signClass(d.first.closingBalance)} testId="statement-closing" />}
                  <Tile label="Lines" value={formatCount(d.first.matched)} note={`net ${formatPoints(d.first.net)}`} testId="statement-lines" />
                </div>
                {d.rows.length === 0 ? <p className="state empty" data-testid="statement-empty">No lines match.</p> : (
                  <>
                    <StatementLines rows={d.rows} account={acc} />
                    <More hasMore={d.nextCursor !== null} loading={d.loadingMore} error={d.moreError} loadMore={state.loadMore} shown={d.rows.length} />
                  </>
                )}
              </>
            );
          }}
        </Loadable>
      )}
    </section>
  );
}

function StatementLines({ rows, account }: { rows: StatementOutput['lines']; account: StatementOutput['account'] }) {
  const columns = useStatementColumns(account);
  return <SortableTable rows={rows} columns={columns} rowKey={(l) => l.id} label="Statement" rowTestId="statement-row" testId="statement-table" minWidth={0} page />;
}

/** Whose statement: the downline's accounts by name, each a link to its statement. */
function AccountPicker() {
  const [text, setText] = useState('');
  const typed = useDeferredValue(text.trim()).slice(0, 200);
  const found = useDeskQuery({ ...panelQuery('searchPlayers', { query: typed || ' ', limit: 20 }), enabled: typed !== '' });
  return (
    <section aria-labelledby="statement-title">
      <h1 id="statement-title">Statement</h1>
      <p className="muted">A player's or sub-agent's account with its upline, line by line: bet results, commission, settlements and credit-limit changes, with the running balance.</p>
      <div className="table-search" role="search">
        <input type="search" value={text} placeholder="Search by name" aria-label="Find an account of your downline" data-testid="statement-account-search"
          onChange={(e) => setText(e.target.value)} />
      </div>
      {typed !== '' && found.status === 'ready' && (found.data.players.length === 0 ? <p className="state empty">Nobody in your downline matches.</p> : (
        <ul className="statement-accounts" data-testid="statement-accounts">
          {found.data.players.map((p) => (
            <li key={p.id}><Link to={buildHref('/agent/statement', { account: p.id })}>{p.name}</Link> <span className="muted">{p.role} · under {p.agentName}</span></li>
          ))}
        </ul>
      ))}
    </section>
  );
}
