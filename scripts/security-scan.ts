// Electronegativity, run in-process over one tree and turned into the policy's findings.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, relative, sep } from 'node:path';
import { type Finding, SEVERITIES, type Severity } from './security-policy.js';

const require = createRequire(import.meta.url);

interface EngIssue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string };
  confidence: { name: string };
  description: string;
}
interface EngResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: EngIssue[];
}
type EngRun = (options: Record<string, unknown>, forCli: boolean) => Promise<EngResult>;

/**
 * The one check that needs the network: it downloads Electron's release list from GitHub to
 * look for newer patch releases. It is left out so the scan gives the same answer offline.
 */
export const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

/**
 * The Electron the app ships with. Electronegativity cannot read it from src/ or out/ (no
 * package.json there) and would assume v0.1.0, which brings back checks for APIs removed years
 * ago (REMOTE_MODULE_JS_CHECK: `remote` left Electron in v14).
 */
export function shippedElectronVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
}

export function electronegativityVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('@doyensec/electronegativity/package.json'), 'utf8')) as { version: string }).version;
}

export interface ScanResult {
  findings: Finding[];
  checks: { global: number; atomic: number };
  /** Files Electronegativity could not parse: their findings are unknown, so the scan is incomplete. */
  unparsed: { file: string; message: string }[];
  /** Parsed, with a parser warning. */
  warnings: { file: string; message: string }[];
  /** Files that silence a check inline (eng-disable), which bypasses the justification table. */
  inlineDisables: string[];
  seconds: number;
}

const SCRIPT = new Set(['.js', '.cjs', '.mjs']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/**
 * Built JavaScript goes through Electronegativity's TypeScript parser: for `.js` it uses
 * esprima 4 and then Babel with escope, neither of which knows class private fields
 * (`#head` in src/main/audit/audit-log.ts reaches out/main as is), and it skips `.cjs` and `.mjs`
 * altogether (the preload is out/preload/index.cjs). Babel's TypeScript grammar is a superset of
 * the JavaScript the build emits, so a copy with every script renamed to `<name>.ts` is read in
 * full; findings are mapped back to the built file's own name.
 */
function stageBuiltOutput(root: string): { dir: string; original: (staged: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'eneg-out-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (source) => statSync(source).isDirectory() || !SCRIPT.has(extname(source)),
  });
  for (const file of filesUnder(root).filter((f) => SCRIPT.has(extname(f)))) {
    cpSync(file, join(dir, `${relative(root, file)}.ts`));
  }
  return { dir, original: (staged) => (SCRIPT.has(extname(staged.slice(0, -3))) && staged.endsWith('.ts') ? staged.slice(0, -3) : staged) };
}

const TRANSLATION_NOISE = /^Could not retrieve updated translations/;

/**
 * Scans `absRoot`, labelled `label` (`src/`, `out/`) in the findings. `built` stages the tree
 * first (see stageBuiltOutput).
 */
export async function scanTree(absRoot: string, label: string, options: { built: boolean; electronVersion: string }): Promise<ScanResult> {
  const staged = options.built ? stageBuiltOutput(absRoot) : null;
  try {
    return await scanStaged(absRoot, label, staged, options.electronVersion);
  } finally {
    if (staged) rmSync(staged.dir, { recursive: true, force: true });
  }
}

async function scanStaged(absRoot: string, label: string, staged: ReturnType<typeof stageBuiltOutput> | null, electronVersion: string): Promise<ScanResult> {
  const started = Date.now();
  const input = staged?.dir ?? absRoot;
  const toLabel = (file: string) => {
    const rel = relative(input, file).split(sep).join('/');
    return label + (staged ? staged.original(rel) : rel);
  };
  // Electronegativity fetches its translations from S3 on every run (one second's timeout, then
  // the bundled English); English is asked for so the messages do not depend on LANG.
  const lang = process.env.LANG;
  process.env.LANG = 'en-US';
  const log = console.log;
  const relayed: unknown[][] = [];
  console.log = (...args: unknown[]) => void relayed.push(args);
  let result: EngResult;
  try {
    const run = require('@doyensec/electronegativity') as EngRun;
    result = await run({
      input,
      customScan: [],
      excludeFromScan: EXCLUDED_CHECKS,
      isRelative: false,
      electronVersionOverride: electronVersion,
      parserPlugins: [],
    }, false);
  } finally {
    console.log = log;
    if (lang === undefined) delete process.env.LANG;
    else process.env.LANG = lang;
  }
  for (const args of relayed) {
    if (!TRANSLATION_NOISE.test(String(args[0]))) log('  electronegativity:', ...args);
  }

  const lines = new Map<string, string[]>();
  const lineOf = (file: string, line: number) => {
    if (!lines.has(file)) lines.set(file, readFileSync(file, 'utf8').split('\n'));
    return lines.get(file)![line - 1] ?? '';
  };
  const findings: Finding[] = result.issues.map((issue) => {
    const global = issue.file === 'N/A' || !issue.location.line;
    const severity = issue.severity.name as Severity;
    if (!SEVERITIES.includes(severity)) throw new Error(`unknown severity ${issue.severity.name} from ${issue.id}`);
    return {
      check: issue.id,
      severity,
      confidence: issue.confidence.name,
      file: global ? label : toLabel(issue.file),
      line: global ? 0 : issue.location.line,
      text: global ? '' : lineOf(issue.file, issue.location.line),
      description: issue.description,
    };
  });
  const inlineDisables = filesUnder(absRoot)
    .filter((f) => /\.(?:[cm]?js|tsx?|html?)$/.test(f) && readFileSync(f, 'utf8').includes('eng-disable'))
    .map((f) => label + relative(absRoot, f).split(sep).join('/'));
  return {
    findings,
    checks: { global: result.globalChecks, atomic: result.atomicChecks },
    unparsed: result.errors.filter((e) => !e.tolerable).map((e) => ({ file: toLabel(e.file), message: e.message })),
    warnings: result.errors.filter((e) => e.tolerable).map((e) => ({ file: toLabel(e.file), message: e.message })),
    inlineDisables,
    seconds: (Date.now() - started) / 1000,
  };
}
