import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
/** Where dates, times and money may be formatted: the renderer's format module (it re-exports src/shared/format.ts). */
const FORMAT_MODULE = 'src/renderer/src/lib/format.ts';
/** Writes that are data, not text for a person: the instant a failed turn's partial answer is stamped with. */
const ALLOWED: Array<{ file: string; line: RegExp }> = [
  { file: 'src/renderer/src/chat/store.ts', line: /\bat: new Date\(\)\.toISOString\(\)/ },
];
const FORMATTING = [
  /\.toLocale(?:String|DateString|TimeString)\(/,
  /\bIntl\.(?:DateTimeFormat|NumberFormat|RelativeTimeFormat)\b/,
  /\.toISOString\(\)/,
  /\.toFixed\(/,
  /\.toUTCString\(\)|\.toDateString\(\)|\.toTimeString\(\)/,
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Lines of `dir` that format a date, a time or a number themselves, outside the format module. */
function offenders(dir: string): string[] {
  const found: string[] = [];
  for (const path of files(join(ROOT, dir))) {
    const file = relative(ROOT, path);
    if (file === FORMAT_MODULE) continue;
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      if (!FORMATTING.some((re) => re.test(line))) return;
      if (ALLOWED.some((a) => a.file === file && a.line.test(line))) return;
      found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('one date and money format', () => {
  it('no renderer file formats a date, a time or money outside lib/format.ts', () => {
    expect(offenders('src/renderer/src')).toEqual([]);
  });

  it('nor does the assistant\'s composer (it uses src/shared/format.ts)', () => {
    const composer = 'src/main/assistant/composer.ts';
    const lines = readFileSync(join(ROOT, composer), 'utf8').split('\n');
    const own = lines.flatMap((line, i) => ([...FORMATTING, /\.slice\(0, 10\)/].some((re) => re.test(line)) ? [`${composer}:${i + 1}: ${line.trim()}`] : []));
    expect(own).toEqual([]);
  });
});
