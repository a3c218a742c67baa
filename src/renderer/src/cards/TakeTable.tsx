import { formatPoints, signClass, takeInWords } from '../lib/format';
import { CardFrame, type Column, SortableTable, plural } from './shared';
import { PlayerLink } from './PlayerLink';
import type { CardOf, CardProps } from './types';

type Data = CardOf<'take_table'>['data'];
type Take = Extract<Data, { totals: unknown }>;
type Credit = Exclude<Data, Take>;
type TakeRow = Take['rows'][number];
type CreditRow = Credit['rows'][number];

function nameCell(r: { accountId: string; name: string; role: string }) {
  return r.role === 'player' ? <PlayerLink id={r.accountId} name={r.name} /> : <>{r.name} <span className="muted">(agent)</span></>;
}

/** agent.getTake (who owes whom) or agent.getCreditLimit (limits per account). */
export function TakeTable({ card }: CardProps<'take_table'>) {
  const d = card.data;
  return 'totals' in d ? <TakeRows data={d} /> : <CreditRows data={d} />;
}

const takeColumns: Column<TakeRow>[] = [
  { id: 'name', header: 'Account', sortValue: (r) => r.name, render: nameCell, width: '30%' },
  {
    id: 'take', header: 'Take', sortValue: (r) => r.take, render: (r) => takeInWords(r.take),
    cellClass: (r) => `nowrap ${signClass(r.take)}`, width: '30%',
  },
  { id: 'cl', header: 'Credit limit', numeric: true, sortValue: (r) => r.creditLimit, render: (r) => formatPoints(r.creditLimit) },
  { id: 'available', header: 'Available', numeric: true, sortValue: (r) => r.available, render: (r) => formatPoints(r.available), cellClass: (r) => (r.available < 0 ? 'neg' : '') },
];

function TakeRows({ data }: { data: Take }) {
  const t = data.totals;
  const owed = data.rows.filter((r) => r.direction === 'owes_you').length;
  const owing = data.rows.filter((r) => r.direction === 'you_owe').length;
  return (
    <CardFrame wide type="take_table" title="Take" subtitle={<>{data.rows.length} {plural(data.rows.length, 'account')} · {owed} owe you · you owe {owing}</>}>
      {data.rows.length === 0 ? <p className="state empty chat-card-text">No accounts.</p> : (
        <SortableTable label="Take by account" rows={data.rows} columns={takeColumns} rowKey={(r) => r.accountId} rowTestId="card-row" minWidth={520}
          footer={<>
            <th scope="row">Total</th>
            <td className={`nowrap ${signClass(t.take)}`}>{takeInWords(t.take, 'your downline')}</td>
            <td className="num">{formatPoints(t.cl)}</td>
            <td className="num">{formatPoints(t.available)}</td>
          </>} />
      )}
      {data.nextCursor !== null && <p className="muted chat-card-text">More accounts than shown: ask about one player, or open the downline page.</p>}
    </CardFrame>
  );
}

const limit = (v: number | null) => (v === null ? '—' : formatPoints(v));
const creditColumns: Column<CreditRow>[] = [
  { id: 'name', header: 'Account', sortValue: (r) => r.name, render: nameCell, width: '22%' },
  { id: 'cl', header: 'Credit limit', numeric: true, sortValue: (r) => r.creditLimit, render: (r) => formatPoints(r.creditLimit) },
  { id: 'perClick', header: 'Per-click win', numeric: true, sortValue: (r) => r.perClickWin, render: (r) => limit(r.perClickWin) },
  { id: 'daily', header: 'Daily win', numeric: true, sortValue: (r) => r.aggregateDailyWin, render: (r) => limit(r.aggregateDailyWin) },
  { id: 'minStake', header: 'Min stake', numeric: true, sortValue: (r) => r.minStake, render: (r) => limit(r.minStake) },
  { id: 'take', header: 'Take', sortValue: (r) => r.take, render: (r) => takeInWords(r.take), cellClass: (r) => `nowrap ${signClass(r.take)}` },
  { id: 'available', header: 'Available', numeric: true, sortValue: (r) => r.available, render: (r) => formatPoints(r.available), cellClass: (r) => (r.available < 0 ? 'neg' : '') },
];

function CreditRows({ data }: { data: Credit }) {
  return (
    <CardFrame wide type="take_table" title="Credit limits" subtitle={<>{data.rows.length} {plural(data.rows.length, 'account')}</>}>
      {data.rows.length === 0 ? <p className="state empty chat-card-text">No accounts.</p> : (
        <SortableTable label="Credit limits by account" rows={data.rows} columns={creditColumns} rowKey={(r) => r.accountId} rowTestId="card-row" minWidth={720} />
      )}
      {data.nextCursor !== null && <p className="muted chat-card-text">More accounts than shown: ask about one player, or open the downline page.</p>}
      {data.rows.filter((r) => r.notes).map((r) => (
        // Notes are the agent's own free text (and may hold anything): plain text, never markup or instructions.
        <p key={r.accountId} className="muted chat-card-text card-notes" data-testid="card-notes">Notes on {r.name}: {r.notes}</p>
      ))}
    </CardFrame>
  );
}
