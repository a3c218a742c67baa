/**
 * Makes the demo book's snapshot for the code as it stands: `out/demo-book/<key>/`, a PGlite data folder, (or in
 * DEMO_BOOK_DIR), by generating and writing the default book once. A first start then restores it
 * (src/server/seed/snapshot.ts). The build runs this after bundling main (electron.vite.config.ts);
 * a snapshot whose key is unchanged is kept, and snapshots of other keys (older code) are removed.
 *
 *   npx tsx scripts/demo-book.ts [--bundle out/main]
 *
 * `--bundle`: also tells that bundle the digest of the generator's sources it was built from (a
 * bundle has no sources to read it from).
 */
import { performance } from 'node:perf_hooks';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_BOOK } from '../src/server/seed/generate.js';
import { SOURCE_DIGEST_FILE, demoBookKey, demoBookSnapshotDir, generatorSourceDigest, writeDemoBookSnapshot } from '../src/server/seed/snapshot.js';

const { values } = parseArgs({ options: { bundle: { type: 'string' } } });
if (values.bundle) writeFileSync(join(values.bundle, SOURCE_DIGEST_FILE), `${generatorSourceDigest()}\n`);

const dir = demoBookSnapshotDir();
const inputs = { options: DEFAULT_BOOK };
const key = demoBookKey(inputs);
const folder = join(dir, key);
if (existsSync(join(folder, 'PG_VERSION'))) {
  process.stdout.write(`demo book snapshot up to date: ${folder}\n`);
} else {
  process.stdout.write('demo book snapshot: generating and writing the default book (the generator, the cast or a migration changed)…\n');
  const started = performance.now();
  await writeDemoBookSnapshot(dir, inputs);
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  process.stdout.write(`demo book snapshot written in ${((performance.now() - started) / 1000).toFixed(1)} s: ${folder} (${files} files)\n`);
}
for (const other of readdirSync(dir)) if (other !== key && /^[0-9a-f]{32}(\.tar\.gz)?$/.test(other)) rmSync(join(dir, other), { recursive: true, force: true });
