import { PDF_TABLES, type ExportTableInput, type TableExportFormat } from '../../../shared/contracts/table-export';
import type { SortDir } from '../../../shared/table-sort';
import type { Sort } from '../cards/shared';
import { desk } from '../lib/desk';
import { useSaveFile } from '../lib/save-file';
import { SavedFollowUps } from './SavedFollowUps';

/** A table and the input its page reads it with, without a format: the format is the button pressed. */
export type ExportRequest = ExportTableInput extends infer I ? (I extends { format: unknown } ? Omit<I, 'format'> : never) : never;

/** A SortableTable's sort as an export asks for it (`...exportSort(sort, ids)`): one of the table's sortable columns, or nothing. */
export function exportSort<const K extends string>(sort: Sort, ids: readonly K[]): { sort?: { id: K; dir: SortDir } } {
  const id = ids.find((k) => k === sort?.id);
  return id && sort ? { sort: { id, dir: sort.dir } } : {};
}

/** The page's name search, when something is typed. */
export const exportNames = (query: string): { names?: string } => (query.trim() ? { names: query.trim() } : {});

const FORMAT_LABELS: Record<TableExportFormat, string> = { xlsx: 'Excel', csv: 'CSV', pdf: 'PDF' };

/**
 * Export for a page's table: the page's own filters, search and order go to main, which reads
 * every row (not only those loaded) as the page would and saves the file as a report is saved.
 * PDF only for the tables a report lays out.
 */
export function ExportMenu({ request, disabled, label }: { request: ExportRequest; disabled?: boolean; label?: string }) {
  const file = useSaveFile();
  const formats: TableExportFormat[] = PDF_TABLES.includes(request.table) ? ['xlsx', 'csv', 'pdf'] : ['xlsx', 'csv'];
  const run = (format: TableExportFormat) =>
    void file.save(() => desk.reports.exportTable.mutate({ ...request, format } as ExportTableInput));
  return (
    <div className="export-menu" role="group" aria-label={label ?? 'Export this table'} data-testid={`export-${request.table}`}>
      <span className="muted">{file.busy ? 'Exporting…' : 'Export'}</span>
      {formats.map((f) => (
        <button key={f} type="button" disabled={disabled || file.busy} aria-busy={file.busy || undefined}
          data-testid={`export-${request.table}-${f}`} onClick={() => run(f)}>{FORMAT_LABELS[f]}</button>
      ))}
      <SavedFollowUps file={file} testId={`export-${request.table}`} />
    </div>
  );
}
