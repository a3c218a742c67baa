/**
 * The file formats a report or a page's table is written in. Each takes lines one batch at a
 * time and writes them out as they come (to a temp file), so a long report never sits in memory
 * as rows. Money arrives as paisa: the spreadsheet holds points as numbers (paisa / 100, shown
 * with `#,##0.00`), the pdf shows formatPoints' text, the csv the same digits without separators.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import type ExcelJS from 'exceljs';
import type PDFKitDocument from 'pdfkit';
import { formatDay, formatOdds, formatPoints } from '../../shared/format.js';
import { PAISA_PER_POINT } from '../../shared/money.js';
import type { Cell, Column, Line } from './report-rows.js';

export interface ReportHeading {
  /** The title's words, also the first line of the file. */
  title: string;
  /** Sheet name (at most 31 characters, as Excel allows). */
  sheetName: string;
  /** Filters in words, and when and in which timezone it was made. */
  subtitle: string;
  /** What the signs of the amounts mean: the spreadsheet keeps signed numbers, and says so; '' for a table with no signed amounts. */
  legend: string;
  timezone: string;
}

export interface ReportWriter {
  write(lines: Line[]): void;
  /** Finishes the file; answers its size in bytes. */
  finish(): Promise<number>;
}

export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
} as const;
export type WriterFormat = keyof typeof CONTENT_TYPES;

/**
 * exceljs and pdfkit load with the first report, not with the backend: together they are about a
 * fifth of the modules the desk loads before its login page works (bench/ui.ts, start-up).
 */
export async function openWriter(format: WriterFormat, path: string, heading: ReportHeading, columns: Column[]): Promise<ReportWriter> {
  switch (format) {
    case 'xlsx': return xlsxWriter((await import('exceljs')).default, path, heading, columns);
    case 'pdf': return pdfWriter((await import('pdfkit')).default, path, heading, columns);
    case 'csv': return csvWriter(path, heading, columns);
  }
}

// ── xlsx ─────────────────────────────────────────────────────────────────────────────────────
const POINTS_FORMAT = '#,##0.00';
const COUNT_FORMAT = '#,##0';
const ODDS_FORMAT = '0.00';
const DATETIME_FORMAT = 'd mmm yyyy hh:mm';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The instant as the requester's wall clock, in a UTC Date: a spreadsheet date has no timezone,
 * so it must hold the local time the pdf and the desk show. Intl's formatToParts costs
 * microseconds a call, too much for every cell of 100,000 rows; a zone's offset changes at most
 * once in an hour, so it is looked up once per hour of instants (checked at both ends of the
 * hour) and an hour in which it changes is done cell by cell. One reader per file: its cache
 * lives as long as the writer.
 */
function wallClockReader(timeZone: string): (iso: string) => Date {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  const offsetAt = (ms: number) => {
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!) - ms;
  };
  const offsets = new Map<number, number | null>();
  return (iso) => {
    // Whole seconds, as the wall clock is read: the spreadsheet and the pdf show no less.
    const ms = Math.floor(Date.parse(iso) / 1000) * 1000;
    const hour = Math.floor(ms / HOUR_MS);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const start = offsetAt(hour * HOUR_MS);
      offset = start === offsetAt((hour + 1) * HOUR_MS - 1000) ? start : null;
      offsets.set(hour, offset);
    }
    return new Date(ms + (offset ?? offsetAt(ms)));
  };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T/;

/** The value a cell holds and its number format; text in a numeric column (a totals label) stays text. */
function xlsxCell(cell: Cell, column: Column, wallClock: (iso: string) => Date): { value: ExcelJS.CellValue; numFmt?: string } {
  if (cell === null) return { value: null };
  if (typeof cell === 'object') return { value: cell.paisa / PAISA_PER_POINT, numFmt: POINTS_FORMAT };
  if (typeof cell === 'string') return column.kind === 'datetime' && ISO_INSTANT.test(cell)
    ? { value: wallClock(cell), numFmt: DATETIME_FORMAT }
    : { value: cell };
  switch (column.kind) {
    case 'points': return { value: cell / PAISA_PER_POINT, numFmt: POINTS_FORMAT };
    case 'odds': return { value: cell / 100, numFmt: ODDS_FORMAT };
    case 'count': return { value: cell, numFmt: COUNT_FORMAT };
    default: return { value: cell };
  }
}

function xlsxWriter(Excel: typeof ExcelJS, path: string, heading: ReportHeading, columns: Column[]): ReportWriter {
  // Our own file stream, heard from the start: exceljs listens for its errors only while it
  // finalizes, so a write that failed before (a full disk) left commit() waiting for ever.
  const out = createWriteStream(path);
  let failure: Error | null = null;
  const failed = new Promise<never>((_, reject) => out.once('error', (error) => { failure = error; reject(error); }));
  failed.catch(() => undefined);
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Agent Desk';
  // Title, subtitle, legend and the header stay in view while scrolling.
  const sheet = workbook.addWorksheet(heading.sheetName, { views: [{ state: 'frozen', xSplit: 0, ySplit: 4 }] });
  sheet.columns = columns.map((c, i) => ({ key: `c${i}`, width: c.width }));
  const title = sheet.addRow([heading.title]);
  title.font = { bold: true, size: 14 };
  title.commit();
  const subtitle = sheet.addRow([heading.subtitle]);
  subtitle.font = { italic: true, color: { argb: 'FF555555' } };
  subtitle.commit();
  if (heading.legend !== '') {
    const legend = sheet.addRow([heading.legend]);
    legend.font = { italic: true, color: { argb: 'FF555555' } };
    legend.commit();
  }
  const header = sheet.addRow(columns.map((c) => c.header));
  header.eachCell((cell, n) => {
    cell.font = { bold: true };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };
    cell.border = { bottom: { style: 'thin' } };
    if (columns[n - 1]!.kind !== 'text') cell.alignment = { horizontal: 'right' };
  });
  header.commit();
  const lastColumn = columns.length;
  const wallClock = wallClockReader(heading.timezone);

  return {
    write(lines) {
      // The file is gone (its stream failed): stop here rather than zip the rest into memory.
      if (failure) throw failure;
      for (const line of lines) {
        if (line.type === 'group') {
          const row = sheet.addRow([line.label]);
          row.font = { bold: true };
          row.commit();
          continue;
        }
        const row = sheet.addRow([]);
        line.cells.forEach((value, i) => {
          const column = columns[i]!;
          const { value: v, numFmt } = xlsxCell(value, column, wallClock);
          const cell = row.getCell(i + 1);
          cell.value = v;
          if (numFmt) cell.numFmt = numFmt;
        });
        if (line.type !== 'row') {
          row.font = { bold: true };
          for (let i = 1; i <= lastColumn; i++) row.getCell(i).border = { top: { style: line.type === 'total' ? 'double' : 'thin' } };
        }
        row.commit();
      }
    },
    async finish() {
      if (failure) throw failure;
      sheet.commit();
      await Promise.race([workbook.commit(), failed]);
      return (await stat(path)).size;
    },
  };
}

// ── pdf ──────────────────────────────────────────────────────────────────────────────────────
const MARGIN = 36;
const ROW_HEIGHT = 14;
const FONT_SIZE = 8;
const FOOTER = 24;

function pdfText(cell: Cell, column: Column, wallClock: (iso: string) => Date): string {
  if (cell === null) return '';
  if (typeof cell === 'object') return cell.words;
  if (typeof cell === 'string') {
    if (column.kind !== 'datetime' || !ISO_INSTANT.test(cell)) return cell;
    // formatDateTime's "20 Nov 2026, 14:05", from the cached wall clock.
    const local = wallClock(cell).toISOString();
    return `${formatDay(local.slice(0, 10))}, ${local.slice(11, 16)}`;
  }
  switch (column.kind) {
    case 'points': return formatPoints(cell);
    case 'odds': return formatOdds(cell);
    case 'count': return cell.toLocaleString('en-US');
    default: return String(cell);
  }
}

/**
 * bufferPages keeps every page's content until the end, and pdfkit holds it as one small byte
 * array per drawing operator: about 2 KB a table cell, 180 MB for 10,000 rows. A page that is
 * full is joined into one buffer (the footer still appends to it at the end), which keeps a
 * buffered page at its own size. Reaches into pdfkit's page content (a PDFReference's `buffer`),
 * so it does nothing unless that is the array of chunks it expects.
 */
function compactPage(doc: PDFKit.PDFDocument): void {
  const content = (doc.page as unknown as { content?: { buffer?: unknown } }).content;
  const chunks = content?.buffer;
  if (!Array.isArray(chunks) || chunks.length < 2 || !chunks.every((c) => c instanceof Uint8Array)) return;
  content!.buffer = [Buffer.concat(chunks as Uint8Array[])];
}

function pdfWriter(PDFDocument: typeof PDFKitDocument, path: string, heading: ReportHeading, columns: Column[]): ReportWriter {
  // bufferPages: the page count is known only at the end, and every page says "Page n of m".
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, bufferPages: true, info: { Title: heading.title, Creator: 'Agent Desk' } });
  const out = createWriteStream(path);
  doc.pipe(out);
  const finished = once(out, 'finish');
  // A failed write surfaces at finish(); until then nothing awaits this promise.
  finished.catch(() => undefined);
  const usable = doc.page.width - 2 * MARGIN;
  const totalWidth = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / totalWidth) * usable);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0));
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  const wallClock = wallClockReader(heading.timezone);
  let y = MARGIN;

  const cellText = (text: string, i: number, bold: boolean) => {
    const right = columns[i]!.kind !== 'text' && columns[i]!.kind !== 'datetime';
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE)
      .text(text, xs[i]! + 2, y + 3, { width: widths[i]! - 4, height: ROW_HEIGHT, align: right ? 'right' : 'left', lineBreak: false, ellipsis: true });
  };
  const tableHeader = () => {
    doc.rect(MARGIN, y, usable, ROW_HEIGHT).fill('#E8EEF4').fillColor('black');
    columns.forEach((c, i) => cellText(c.header, i, true));
    y += ROW_HEIGHT;
  };
  const room = () => {
    if (y + ROW_HEIGHT <= bottom()) return;
    compactPage(doc);
    doc.addPage();
    y = MARGIN;
    tableHeader();
  };

  doc.font('Helvetica-Bold').fontSize(14).text(heading.title, MARGIN, y, { width: usable });
  y = doc.y + 2;
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(heading.subtitle, MARGIN, y, { width: usable });
  y = doc.y + 2;
  if (heading.legend !== '') doc.text(heading.legend, MARGIN, y, { width: usable });
  doc.fillColor('black');
  y = doc.y + 8;
  tableHeader();

  return {
    write(lines) {
      for (const line of lines) {
        room();
        if (line.type === 'group') {
          doc.font('Helvetica-Bold').fontSize(FONT_SIZE + 1).text(line.label, MARGIN + 2, y + 3, { width: usable - 4, lineBreak: false, ellipsis: true });
        } else {
          const bold = line.type !== 'row';
          if (bold) doc.moveTo(MARGIN, y).lineTo(MARGIN + usable, y).lineWidth(0.5).stroke();
          line.cells.forEach((cell, i) => cellText(pdfText(cell, columns[i]!, wallClock), i, bold));
        }
        y += ROW_HEIGHT;
      }
    },
    async finish() {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        // Below the bottom margin: pdfkit would otherwise open a new page for the footer.
        doc.page.margins.bottom = 0;
        doc.font('Helvetica').fontSize(8).fillColor('#555555')
          .text(`Page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN - 10, { width: usable, align: 'right', lineBreak: false });
      }
      doc.end();
      await finished;
      return (await stat(path)).size;
    },
  };
}

// ── csv ──────────────────────────────────────────────────────────────────────────────────────
/**
 * A table for other programs: the header, then one record per data row (no title, groups or
 * totals, which a program would read as data), RFC 4180 quoting and CRLF, with a byte order
 * mark so that Excel reads it as UTF-8. Money is points with two decimals from formatPoints'
 * exact digits; times are the requester's wall clock, as in the other formats.
 */
function csvWriter(path: string, heading: ReportHeading, columns: Column[]): ReportWriter {
  const out = createWriteStream(path);
  let failure: Error | null = null;
  out.once('error', (error) => { failure = error; });
  const wallClock = wallClockReader(heading.timezone);
  const record = (fields: string[]) => `${fields.map(csvField).join(',')}\r\n`;
  out.write(`\uFEFF${record(columns.map((c) => c.header))}`);
  return {
    write(lines) {
      if (failure) throw failure;
      let text = '';
      for (const line of lines) if (line.type === 'row') text += record(line.cells.map((cell, i) => csvText(cell, columns[i]!, wallClock)));
      out.write(text);
    },
    async finish() {
      if (failure) throw failure;
      out.end();
      await once(out, 'finish');
      return (await stat(path)).size;
    },
  };
}

function csvText(cell: Cell, column: Column, wallClock: (iso: string) => Date): string {
  if (cell === null) return '';
  if (typeof cell === 'string') {
    if (column.kind !== 'datetime' || !ISO_INSTANT.test(cell)) return cell;
    return wallClock(cell).toISOString().slice(0, 19).replace('T', ' ');
  }
  // An amount said in words is written as its signed number: a CSV keeps numbers, as the spreadsheet does.
  const n = typeof cell === 'number' ? cell : cell.paisa;
  switch (column.kind) {
    // Odds are hundredths as money is paisa: the same exact split into two decimals.
    case 'points': case 'odds': return formatPoints(n).replaceAll(',', '');
    default: return String(n);
  }
}

/**
 * A field quoted when it must be; text a spreadsheet would run as a formula (=, +, -, @, a tab
 * or a carriage return first) gets a leading apostrophe, as OWASP advises for CSV, since names
 * and notes come from people. Numbers are written by csvText and never start that way but a minus.
 */
function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
