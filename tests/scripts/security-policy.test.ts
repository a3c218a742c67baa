// The gate of `npm run security`: which Electronegativity findings fail the run.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Finding, TABLE_END, TABLE_START, judge, parseJustifications, summaryTable } from '../../scripts/security-policy.js';
import { scanTree, shippedElectronVersion } from '../../scripts/security-scan.js';

const doc = (...rows: string[]) => ['# Security', '', TABLE_START, '| check | file | line contains | why accepted |', '|---|---|---|---|', ...rows, TABLE_END, ''].join('\n');

const preload: Finding = {
  check: 'PRELOAD_JS_CHECK', severity: 'MEDIUM', confidence: 'FIRM', file: 'src/main/electron/app.ts', line: 67,
  text: '      preload: deps.preload, contextIsolation: true,', description: 'Review the use of preload scripts',
};
const csp: Finding = { check: 'CSP_GLOBAL_CHECK', severity: 'MEDIUM', confidence: 'CERTAIN', file: 'src/', line: 0, text: '', description: 'No CSP has been detected' };
const PRELOAD_ROW = '| `PRELOAD_JS_CHECK` | `src/main/electron/app.ts` | `preload: deps.preload` | sandboxed, two functions |';
const CSP_ROW = '| `CSP_GLOBAL_CHECK` | `src/` | — | a response header |';

describe('security policy', () => {
  it('a MEDIUM finding without a row fails, naming the finding and the row to add', () => {
    const verdict = judge([preload], parseJustifications(doc()), ['src/']);
    expect(verdict.failures).toHaveLength(1);
    expect(verdict.failures[0]).toMatch(/MEDIUM PRELOAD_JS_CHECK at src\/main\/electron\/app.ts:67 is not justified/);
    expect(verdict.failures[0]).toContain('| `PRELOAD_JS_CHECK` | `src/main/electron/app.ts` |');
  });

  it('the same finding with its row passes', () => {
    const verdict = judge([preload, csp], parseJustifications(doc(PRELOAD_ROW, CSP_ROW)), ['src/']);
    expect(verdict.failures).toEqual([]);
    expect(verdict.accepted.map((a) => a.row.docLine)).toEqual([6, 7]);
  });

  it('the row must name the check, the file, and text on the finding\'s line', () => {
    for (const row of [
      '| `AUXCLICK_JS_CHECK` | `src/main/electron/app.ts` | `preload: deps.preload` | wrong check |',
      '| `PRELOAD_JS_CHECK` | `src/main/other.ts` | `preload: deps.preload` | wrong file |',
      '| `PRELOAD_JS_CHECK` | `src/main/electron/app.ts` | `preload: somethingElse` | another line |',
    ]) {
      const failures = judge([preload], parseJustifications(doc(row)), ['src/']).failures;
      // The finding is unjustified, and the row that justifies nothing is reported too.
      expect(failures).toHaveLength(2);
      expect(failures[1]).toMatch(/docs\/security.md:6: .* matches no MEDIUM finding any more/);
    }
  });

  it('a HIGH finding fails whatever the table says', () => {
    const high = { ...preload, check: 'NODE_INTEGRATION_JS_CHECK', severity: 'HIGH' as const, description: 'Disable nodeIntegration' };
    const failures = judge([high], parseJustifications(doc('| `NODE_INTEGRATION_JS_CHECK` | `src/main/electron/app.ts` | `preload` | no |')), ['src/']).failures;
    expect(failures[0]).toMatch(/^HIGH NODE_INTEGRATION_JS_CHECK .* cannot be justified/);
  });

  it('LOW and INFORMATIONAL findings are reported, not gated', () => {
    expect(judge([{ ...preload, severity: 'LOW' }, { ...csp, severity: 'INFORMATIONAL' }], [], ['src/']).failures).toEqual([]);
  });

  it('a row about a tree that was not scanned (out/ before a build) is set aside, not failed', () => {
    const verdict = judge([csp], parseJustifications(doc(CSP_ROW, '| `CSP_GLOBAL_CHECK` | `out/` | — | the same |')), ['src/']);
    expect(verdict.failures).toEqual([]);
    expect(verdict.unchecked.map((r) => r.file)).toEqual(['out/']);
  });

  it('the table is read only between its markers, and a line row must say which line', () => {
    expect(() => parseJustifications('| `PRELOAD_JS_CHECK` | `src/a.ts` | `x` | y |')).toThrow(/must sit between/);
    expect(() => parseJustifications(doc('| `PRELOAD_JS_CHECK` | `src/main/electron/app.ts` | — | no line |'))).toThrow(/:6: .* needs the text of the line/);
    expect(() => parseJustifications(doc('| `PRELOAD_JS_CHECK` | `src/a.ts` | `x` |'))).toThrow(/four cells/);
    expect(parseJustifications(doc('| `OPEN_EXTERNAL_JS_CHECK` | `src/a.ts` | `a \\| b` | pipes |'))[0]!.lineContains).toBe('a | b');
  });

  it('the summary counts by severity and check for each tree', () => {
    const table = summaryTable([{ root: 'src/', findings: [preload, csp] }, { root: 'out/', findings: [csp] }]);
    expect(table).toMatch(/^MEDIUM\s+2\s+1$/m);
    expect(table).toMatch(/^ {2}PRELOAD_JS_CHECK\s+1\s+0$/m);
    expect(table).toMatch(/^HIGH\s+0\s+0$/m);
  });

  it("docs/security.md's own table parses, and each row names a file that exists", () => {
    const rows = parseJustifications(readFileSync('docs/security.md', 'utf8'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows.filter((r) => r.file.startsWith('src/') && !r.file.endsWith('/'))) expect(existsSync(row.file), row.file).toBe(true);
  });
});

describe('security scan (Electronegativity itself, on a small tree)', () => {
  it('finds a window without auxclick disabled; the gate fails until it is justified', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eneg-fixture-'));
    try {
      writeFileSync(join(dir, 'window.ts'), [
        "import { BrowserWindow, app, session } from 'electron';",
        'export function open(preloadPath: string): BrowserWindow {',
        '  return new BrowserWindow({ webPreferences: { preload: preloadPath, sandbox: true, contextIsolation: true } });',
        '}',
        // Without these the global checks add a HIGH (navigation) and a MEDIUM (permissions).
        "app.on('web-contents-created', (_e, contents) => {",
        "  contents.on('will-navigate', (event) => event.preventDefault());",
        "  contents.setWindowOpenHandler(() => ({ action: 'deny' }));",
        '});',
        'session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));',
        '',
      ].join('\n'));
      const scan = await scanTree(dir, 'fixture/', { built: false, electronVersion: shippedElectronVersion() });
      expect(scan.unparsed).toEqual([]);
      const auxclick = scan.findings.find((f) => f.check === 'AUXCLICK_JS_CHECK');
      expect(auxclick).toMatchObject({ severity: 'MEDIUM', file: 'fixture/window.ts', line: 3 });
      // The pinned version keeps checks for APIs gone since Electron 14 out of the report.
      expect(scan.findings.map((f) => f.check)).not.toContain('REMOTE_MODULE_JS_CHECK');

      const rows = [
        '| `AUXCLICK_JS_CHECK` | `fixture/window.ts` | `new BrowserWindow(` | denied by the window-open handler |',
        '| `PRELOAD_JS_CHECK` | `fixture/window.ts` | `preload: preloadPath` | reviewed |',
        '| `CSP_GLOBAL_CHECK` | `fixture/` | — | header |',
      ];
      const unjustified = judge(scan.findings, parseJustifications(doc(...rows.slice(1))), ['fixture/']);
      expect(unjustified.failures.join('\n')).toMatch(/MEDIUM AUXCLICK_JS_CHECK at fixture\/window.ts:3 is not justified/);
      expect(judge(scan.findings, parseJustifications(doc(...rows)), ['fixture/']).failures).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
