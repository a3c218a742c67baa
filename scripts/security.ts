// `npm run security`: Electronegativity over src/ and over the built app in out/, judged by the
// justification table in docs/security.md (rules in security-policy.ts). Exit 1 on any HIGH, any
// MEDIUM without a row, a row without a finding, or a file the scanner could not read.
// `--require-built` (CI) also fails when out/ has not been built, instead of scanning src/ only.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Finding, judge, parseJustifications, summaryTable, where } from './security-policy.js';
import { EXCLUDED_CHECKS, type ScanResult, electronegativityVersion, scanTree, shippedElectronVersion } from './security-scan.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const requireBuilt = process.argv.includes('--require-built');
// What electron-vite build leaves in out/: all three must be there for the scan to mean anything.
const BUILT = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

const electronVersion = shippedElectronVersion();
console.log(`Electronegativity ${electronegativityVersion()}, as for Electron ${electronVersion} (node_modules/electron); left out: ${EXCLUDED_CHECKS.join(', ')} (needs GitHub)`);

const failures: string[] = [];
const scans: { root: string; result: ScanResult }[] = [];

scans.push({ root: 'src/', result: await scanTree(join(root, 'src'), 'src/', { built: false, electronVersion }) });
const missing = BUILT.filter((f) => !existsSync(join(root, f)));
if (missing.length === 0) {
  scans.push({ root: 'out/', result: await scanTree(join(root, 'out'), 'out/', { built: true, electronVersion }) });
} else {
  const why = `out/ is not built (${missing.join(', ')} missing): the built app was NOT scanned; run \`npm run build\` first`;
  if (requireBuilt) failures.push(why);
  else console.log(`\nnote: ${why}`);
}

for (const { root: label, result } of scans) {
  console.log(`\n${label}: ${result.checks.atomic} atomic and ${result.checks.global} global checks, ${result.seconds.toFixed(1)} s`);
  for (const w of result.warnings) console.log(`  parser warning in ${w.file}: ${w.message}`);
  for (const u of result.unparsed) {
    failures.push(`${u.file} could not be parsed (${u.message}): its findings are unknown, and global checks over ${label} are unreliable`);
  }
  for (const file of result.inlineDisables) {
    failures.push(`${file} silences a check inline (eng-disable): justify the finding in docs/security.md instead`);
  }
}

const findings: Finding[] = scans.flatMap((s) => s.result.findings);
console.log(`\n${summaryTable(scans.map((s) => ({ root: s.root, findings: s.result.findings })))}`);

const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
const verdict = judge(findings, parseJustifications(doc), scans.map((s) => s.root));
failures.push(...verdict.failures);

if (findings.length > 0) console.log('\nfindings:');
for (const finding of findings) {
  const accepted = verdict.accepted.find((a) => a.finding === finding);
  const status = finding.severity === 'HIGH' ? 'FAILS' : finding.severity !== 'MEDIUM' ? 'reported' : accepted ? `justified (docs/security.md:${accepted.row.docLine})` : 'NOT JUSTIFIED';
  console.log(`  ${finding.severity.padEnd(6)} ${finding.check.padEnd(28)} ${where(finding).padEnd(36)} ${status}`);
}
for (const row of verdict.unchecked) {
  console.log(`  (not checked this run: docs/security.md:${row.docLine}, ${row.check} in ${row.file})`);
}

if (failures.length > 0) {
  console.error(`\nsecurity: FAILED (${failures.length})`);
  for (const failure of failures) console.error(`- ${failure}`);
  process.exit(1);
}
console.log(`\nsecurity: passed: no HIGH; every MEDIUM is justified in docs/security.md (${verdict.accepted.length}).`);
