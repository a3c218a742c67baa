import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, createContext, memo, useContext, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import type { CardType } from '../../../shared/contracts/assistant';
import { type SortDir, sortRows } from '../../../shared/table-sort';
import { blockRange } from '../lib/row-blocks';
import { useSession } from '../lib/session';
import type { CardAction } from './types';

const NO_ROWS: readonly never[] = [];

/** Tables longer than this render only the rows in view. */
export const VIRTUALIZE_OVER = 50;
const ROW_HEIGHT = 32;
/** Rows drawn beyond each edge of a virtualized table's box, before the range is widened to whole blocks (lib/row-blocks.ts). */
const OVERSCAN_ROWS = 5;
/** Rows from the end of a virtualized table at which `onNearEnd` asks for more. */
const NEAR_END_ROWS = 50;
/** A column narrower than this clips its figures: the table scrolls sideways instead. */
const MIN_COLUMN_PX = 96;

/** True while an answer is being copied: its tables draw every row, not only those in view (chat/copy.ts). */
export const AllRows = createContext(false);

/** The filter and order a card's rows were read with, as main stated it: shown under the card's title, as text. */
export const CardCaption = createContext<string | null>(null);

/** The frame every card shares: a titled section whose root carries `card-<type>`. */
export function CardFrame({ type, title, subtitle, tone, badge, wide, children }: {
  type: CardType; title: ReactNode; subtitle?: ReactNode; tone?: 'warn' | 'bad' | 'good' | 'done' | undefined;
  /** Shown at the end of the header line (a proposal's state). */
  badge?: ReactNode;
  /** A table with more columns than the panel shows: the card can open full width over the page. */
  wide?: boolean;
  children?: ReactNode;
}) {
  const id = useId();
  const caption = useContext(CardCaption);
  const [expanded, setExpanded] = useState(false);
  return (
    <section className={`chat-card${tone ? ` ${tone}` : ''}${expanded ? ' expanded' : ''}`} data-testid={`card-${type}`} data-card-type={type}
      data-expanded={wide ? String(expanded) : undefined} aria-labelledby={id}
      onKeyDown={expanded ? (e) => { if (e.key === 'Escape') { e.stopPropagation(); setExpanded(false); } } : undefined}>
      <header className="chat-card-head">
        <h3 id={id}>{title}</h3>
        {subtitle !== undefined && <span className="muted chat-card-sub">{subtitle}</span>}
        {badge}
        {wide && (
          <button type="button" className="chat-card-wide" aria-pressed={expanded} data-testid="card-full-width"
            title={expanded ? 'Back into the panel (Esc)' : 'Open this card across the window'} onClick={() => setExpanded((v) => !v)}>
            {expanded ? 'Back to panel' : 'Full width'}
          </button>
        )}
      </header>
      {caption && <p className="muted chat-card-caption" data-testid="card-caption">{caption}</p>}
      {children}
    </section>
  );
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/**
 * A card's confirm / cancel buttons. Without a handler they are shown but disabled; once one is
 * pressed, all are disabled so a confirmation cannot be sent twice. `blockConfirm` (a refusal)
 * disables confirm only.
 */
export function ActionBar({ actions, onAction, blockConfirm }: {
  actions: CardAction[] | undefined; onAction: ((action: CardAction) => void) | undefined; blockConfirm?: boolean;
}) {
  const [pressed, setPressed] = useState<string | null>(null);
  if (!actions || actions.length === 0) return null;
  return (
    <div className="chat-card-actions" role="group" aria-label="Actions">
      {actions.map((a, i) => {
        const label = a.label.trim() || (a.id === 'confirm' ? 'Confirm' : a.id === 'cancel' ? 'Cancel' : 'Choose');
        return (
          <button key={`${a.id}:${i}`} type="button" className={a.id === 'confirm' ? 'primary' : undefined}
            data-testid={`card-action-${a.id}`} aria-pressed={pressed === `${a.id}:${i}` ? true : undefined}
            disabled={!onAction || pressed !== null || (a.id === 'confirm' && blockConfirm === true)}
            onClick={() => { setPressed(`${a.id}:${i}`); onAction?.(a); }}>
            {label}
          </button>
        );
      })}
      {!onAction && <span className="muted chat-hint">Confirming from the chat is not available here yet.</span>}
    </div>
  );
}

// ── sortable, virtualized table ──────────────────────────────────────────────────────────────

export interface Column<R> {
  id: string;
  header: string;
  numeric?: boolean;
  /** Sorting key; a column without one is not sortable. Nulls sort last either way. */
  sortValue?: (row: R) => number | string | null;
  render: (row: R) => ReactNode;
  /** Extra classes for the cell (e.g. the sign colour). */
  cellClass?: (row: R) => string;
  /** Fixed width, used when the table is virtualized (fixed layout). */
  width?: string;
  /**
   * A column that gives way on a narrow page (styles.css, column priorities): 3 hides first (a
   * laptop-wide page), 2 on a phone-wide one. Without it the column always shows.
   */
  priority?: ColumnPriority;
  /** The cell's whole text as a tooltip, for a column narrow enough to cut it. */
  title?: (row: R) => string;
}

export type ColumnPriority = 2 | 3;

/** The class that hides a column of this priority where the page is too narrow for it. */
export function priorityClass(priority: ColumnPriority | undefined): string {
  return priority ? `col-p${priority}` : '';
}

export type Sort = { id: string; dir: SortDir } | null;

/**
 * A table sortable by its column headers (buttons, with aria-sort on the header cell), in a box
 * of fixed max height; over VIRTUALIZE_OVER rows only the rows in view are rendered.
 */
export function SortableTable<R>({ rows, columns, rowKey, label, footer, footerRows, initialSort, minWidth, rowTestId, testId, page, onNearEnd, onSortChange }: {
  rows: readonly R[];
  columns: Column<R>[];
  rowKey: (row: R, index: number) => string;
  /** The table's accessible name. */
  label: string;
  /** Cells of a totals row (same column count). */
  footer?: ReactNode;
  /** Further footer rows, whole `<tr>`s, after the totals row (not with virtualization's row indexes). */
  footerRows?: ReactNode;
  initialSort?: Sort;
  minWidth?: number;
  rowTestId?: string;
  /** On the table element. */
  testId?: string;
  /** A page's table: a taller scroll box than a card's. */
  page?: boolean;
  /** A virtualized table scrolled to within NEAR_END_ROWS of its last row: a list that pages can ask for the next page. */
  onNearEnd?: (() => void) | undefined;
  /** Told the column and direction the rows are sorted by, each time they change (a page's export sorts by it too). */
  onSortChange?: ((sort: Sort) => void) | undefined;
}) {
  const [sort, setSort] = useState<Sort>(initialSort ?? null);
  // A page of rows arriving is drawn in React's background render, which hands the main thread
  // back to the browser every few milliseconds: a long card fills in chunks between frames
  // instead of in one long task. Until it is done the rows shown are the ones before it. A long
  // table's first rows too: the frame its card arrives in lays out the card and the answer
  // (the chat brings the new message into view by reading its layout there), not the rows.
  const shown = useDeferredValue(rows, rows.length > VIRTUALIZE_OVER ? NO_ROWS : rows);
  // State, not a ref: the virtualized body needs a render once the box exists (refs attach after
  // the body's own layout effects have run).
  const [scrollEl, setScrollEl] = useState<HTMLDivElement | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return shown;
    const col = columns.find((c) => c.id === sort.id);
    return col?.sortValue ? sortRows(shown, col.sortValue, sort.dir) : shown;
  }, [shown, columns, sort]);
  // The page's export follows the order shown.
  useEffect(() => onSortChange?.(sort), [sort, onSortChange]);

  const toggle = (c: Column<R>) => setSort((prev) => {
    if (prev?.id === c.id) return { id: c.id, dir: prev.dir === 'asc' ? 'desc' : 'asc' };
    return { id: c.id, dir: c.numeric ? 'desc' : 'asc' };
  });

  const all = useContext(AllRows);
  const virtual = !all && shown.length > VIRTUALIZE_OVER;
  return (
    <div className={`card-scroll${virtual ? ' virtual' : ''}${page ? ' page-scroll' : ''}`} ref={setScrollEl} tabIndex={0} role="region" aria-label={label}>
      <table className={`table card-table${virtual ? ' fixed' : ''}`} data-testid={testId} aria-rowcount={virtual ? shown.length + 1 + (footer ? 1 : 0) : undefined}
        style={{ minWidth: `${minWidth ?? columns.length * MIN_COLUMN_PX}px` }}>
        {virtual && (
          <colgroup>{columns.map((c) => <col key={c.id} className={priorityClass(c.priority) || undefined} style={c.width ? { width: c.width } : undefined} />)}</colgroup>
        )}
        <thead>
          <tr aria-rowindex={virtual ? 1 : undefined}>
            {columns.map((c) => {
              const active = sort?.id === c.id;
              return (
                <th key={c.id} scope="col" className={[c.numeric ? 'num' : '', priorityClass(c.priority)].filter(Boolean).join(' ') || undefined}
                  aria-sort={c.sortValue ? (active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}>
                  {c.sortValue ? (
                    <button type="button" className="sort-button" onClick={() => toggle(c)} data-testid={`sort-${c.id}`}>
                      {c.header}
                      <span aria-hidden="true" className="sort-mark">{active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                    </button>
                  ) : c.header}
                </th>
              );
            })}
          </tr>
        </thead>
        {virtual
          // No asking for more while rows that arrived are still being drawn: the end in view is not the end held.
          ? <VirtualBody rows={sorted} columns={columns} rowKey={rowKey} scrollEl={scrollEl} rowTestId={rowTestId} onNearEnd={shown === rows ? onNearEnd : undefined} />
          : (
            <tbody>
              {sorted.map((r, i) => <Row key={rowKey(r, i)} row={r} columns={columns} rowTestId={rowTestId} />)}
            </tbody>
          )}
        {(footer || footerRows) && (
          <tfoot>
            {footer && <tr aria-rowindex={virtual ? shown.length + 2 : undefined}>{footer}</tr>}
            {footerRows}
          </tfoot>
        )}
      </table>
    </div>
  );
}

function TableRow<R>({ row, columns, rowTestId, index }: { row: R; columns: Column<R>[]; rowTestId: string | undefined; index?: number }) {
  return (
    <tr data-testid={rowTestId} data-index={index} aria-rowindex={index === undefined ? undefined : index + 2}
      style={index === undefined ? undefined : { height: `${ROW_HEIGHT}px` }}>
      {columns.map((c) => {
        const cls = [c.numeric ? 'num' : '', priorityClass(c.priority), c.cellClass?.(row) ?? ''].filter(Boolean).join(' ');
        return <td key={c.id} className={cls || undefined} title={c.title?.(row)}>{c.render(row)}</td>;
      })}
    </tr>
  );
}

/**
 * Memoised: a scroll step redraws the virtualized body, and without it every row in view would be
 * drawn again (each cell formatted anew) when only the few coming into view are new.
 */
const Row = memo(TableRow) as typeof TableRow;

function VirtualBody<R>({ rows, columns, rowKey, scrollEl, rowTestId, onNearEnd }: {
  rows: readonly R[]; columns: Column<R>[]; rowKey: (row: R, index: number) => string;
  scrollEl: HTMLDivElement | null; rowTestId: string | undefined; onNearEnd: (() => void) | undefined;
}) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollEl,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    rangeExtractor: blockRange,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : -1;
  const nearEnd = lastIndex >= 0 && lastIndex >= rows.length - NEAR_END_ROWS;
  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  }, [nearEnd, rows.length, onNearEnd]);
  const top = items.length ? items[0]!.start : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  // The spacers span one column: a span over all of them would bring back, empty, the columns a
  // narrow page hides (styles.css, column priorities), and they would take width from the rest.
  return (
    <tbody>
      {top > 0 && <tr aria-hidden="true" className="spacer"><td style={{ height: `${top}px` }} /></tr>}
      {items.map((item) => {
        const r = rows[item.index]!;
        return <Row key={rowKey(r, item.index)} row={r} columns={columns} rowTestId={rowTestId} index={item.index} />;
      })}
      {bottom > 0 && <tr aria-hidden="true" className="spacer"><td style={{ height: `${bottom}px` }} /></tr>}
    </tbody>
  );
}

/** The signed-in user as cards need them: for "you" in directions and for times. */
export function useMe(): { id: string; name: string; timezone: string } {
  const user = useSession((s) => s.user);
  return { id: user?.id ?? '', name: user?.name ?? '', timezone: user?.timezone ?? 'UTC' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The panel page of a player, only for a well-formed id (never from free text). */
export function playerHref(id: string): string | null {
  return UUID.test(id) ? `/agent/players/${id}` : null;
}

/** The panel route for a page with id-valued query parameters, only when every id is well formed. */
export function idHref(path: string, ids: Record<string, string>): string | null {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(ids)) {
    if (!UUID.test(v)) return null;
    params.set(k, v);
  }
  return `${path}?${params.toString()}`;
}
