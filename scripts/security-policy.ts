// The rule `npm run security` enforces on Electronegativity's findings, kept apart from the
// scanner so it can be tested on made-up findings:
// - a HIGH finding always fails;
// - a MEDIUM finding fails unless a row of the justification table in docs/security.md names
//   its check, its file, and a piece of text on its line;
// - a row that no longer matches any finding fails too, so the table only ever lists risks the
//   app still takes;
// - LOW and INFORMATIONAL findings are reported, not gated.

export type Severity = 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL';
export const SEVERITIES: readonly Severity[] = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'];

export interface Finding {
  check: string;
  severity: Severity;
  confidence: string;
  /**
   * Repository-relative (`src/main/electron/app.ts`); a global check, which is about the whole
   * tree rather than a line, carries the scanned root itself (`src/`).
   */
  file: string;
  line: number;
  /** The source line the finding points at ('' for a global check). */
  text: string;
  description: string;
}

export interface Justification {
  check: string;
  file: string;
  /** Must occur in the finding's line; '' only for a global check (file is a root, `src/`). */
  lineContains: string;
  why: string;
  /** Line of docs/security.md, for messages. */
  docLine: number;
}

export const TABLE_START = '<!-- electronegativity-justifications:start -->';
export const TABLE_END = '<!-- electronegativity-justifications:end -->';

const cell = (raw: string) => raw.trim().replace(/^`(.*)`$/, '$1').replace(/\\\|/g, '|');
const isRoot = (file: string) => file.endsWith('/');

/**
 * Reads the table between TABLE_START and TABLE_END: `| check | file | line contains | why |`,
 * each of the first three as inline code, `—` for "no line" (global checks only).
 */
export function parseJustifications(markdown: string): Justification[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === TABLE_START);
  const end = lines.findIndex((l) => l.trim() === TABLE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`docs/security.md: the justification table must sit between ${TABLE_START} and ${TABLE_END}`);
  }
  const rows: Justification[] = [];
  for (let i = start + 1; i < end; i++) {
    const line = lines[i]!.trim();
    if (!line.startsWith('|')) continue;
    // Split on pipes that are not escaped, so a justification may quote `a \| b`.
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split(/(?<!\\)\|/).map(cell);
    if (cells[0] === 'check' || /^[-: ]+$/.test(cells.join(''))) continue;
    const [check, file, contains, why] = cells;
    const docLine = i + 1;
    if (cells.length !== 4 || !check || !file || contains === undefined || !why) {
      throw new Error(`docs/security.md:${docLine}: a justification row needs four cells: check | file | line contains | why`);
    }
    const lineContains = contains === '—' || contains === '-' ? '' : contains;
    if (!lineContains && !isRoot(file)) {
      throw new Error(`docs/security.md:${docLine}: ${check} in ${file} needs the text of the line it justifies`);
    }
    rows.push({ check, file, lineContains, why, docLine });
  }
  return rows;
}

export function justifies(row: Justification, finding: Finding): boolean {
  return row.check === finding.check && row.file === finding.file && finding.text.includes(row.lineContains);
}

export interface Verdict {
  failures: string[];
  /** Each MEDIUM finding with the row that accepts it. */
  accepted: { finding: Finding; row: Justification }[];
  /** Rows about a tree that was not scanned this time (e.g. out/ before a build). */
  unchecked: Justification[];
}

export const where = (f: Finding) => (isRoot(f.file) ? `${f.file} (global)` : `${f.file}:${f.line}`);

/** `scannedRoots`: the roots (`src/`, `out/`) whose findings are in `findings`. */
export function judge(findings: Finding[], rows: Justification[], scannedRoots: string[]): Verdict {
  const failures: string[] = [];
  const accepted: Verdict['accepted'] = [];
  for (const finding of findings) {
    if (finding.severity === 'HIGH') {
      failures.push(`HIGH ${finding.check} at ${where(finding)}: ${finding.description} (a HIGH finding cannot be justified; fix it)`);
    } else if (finding.severity === 'MEDIUM') {
      const row = rows.find((r) => justifies(r, finding));
      if (row) {
        accepted.push({ finding, row });
      } else {
        const hint = isRoot(finding.file) ? '—' : `\`<text of line ${finding.line}>\``;
        failures.push(
          `MEDIUM ${finding.check} at ${where(finding)} is not justified: ${finding.description}` +
            (finding.text ? `\n    line: ${finding.text.trim()}` : '') +
            `\n    fix it, or add a row to the table in docs/security.md: | \`${finding.check}\` | \`${finding.file}\` | ${hint} | why it is acceptable |`,
        );
      }
    }
  }
  const scanned = (row: Justification) => scannedRoots.some((root) => row.file.startsWith(root));
  for (const row of rows) {
    if (scanned(row) && !findings.some((f) => f.severity === 'MEDIUM' && justifies(row, f))) {
      failures.push(
        `docs/security.md:${row.docLine}: the justification for ${row.check} in ${row.file}` +
          (row.lineContains ? ` (line containing "${row.lineContains}")` : '') +
          ' matches no MEDIUM finding any more; remove the row (or correct it if the code only moved)',
      );
    }
  }
  return { failures, accepted, unchecked: rows.filter((r) => !scanned(r)) };
}

/** Counts by severity, then by check, one column per scanned root. */
export function summaryTable(byRoot: { root: string; findings: Finding[] }[]): string {
  const roots = byRoot.map((r) => r.root);
  const rows: [string, ...number[]][] = [];
  for (const severity of SEVERITIES) {
    rows.push([severity, ...byRoot.map((r) => r.findings.filter((f) => f.severity === severity).length)]);
    const checks = [...new Set(byRoot.flatMap((r) => r.findings.filter((f) => f.severity === severity).map((f) => f.check)))].sort();
    for (const check of checks) {
      rows.push([`  ${check}`, ...byRoot.map((r) => r.findings.filter((f) => f.severity === severity && f.check === check).length)]);
    }
  }
  const width = Math.max(8, ...rows.map((r) => r[0].length));
  const column = Math.max(6, ...roots.map((r) => r.length));
  const format = (label: string, values: (string | number)[]) => label.padEnd(width) + values.map((v) => String(v).padStart(column + 2)).join('');
  return [format('severity / check', roots), ...rows.map(([label, ...counts]) => format(label, counts))].join('\n');
}
