// `npm start`: build, then open the desktop app in Electron; where Electron's binary is not
// installed (as on machines that cannot download it), say so in one line and serve the same app
// to a browser instead.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// Electron's package records its binary in path.txt once downloaded; asking require('electron')
// instead would try to download it on the spot.
let electronBinary = null;
let why = '';
try {
  const electronDir = dirname(require.resolve('electron/package.json'));
  const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
  const candidate = join(electronDir, 'dist', relative);
  if (existsSync(candidate)) electronBinary = candidate;
  else why = `no binary at ${candidate}`;
} catch {
  why = 'its binary was never downloaded (node_modules/electron/path.txt is absent)';
}

// The build is skipped when every output is newer than every input: a second start is then as
// quick as the app itself (bench/ui.ts measures it).
const root = new URL('..', import.meta.url).pathname;
const OUTPUTS = ['out/main/index.js', 'out/main/web.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) => join(root, p));
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
const inputs = Math.max(newest(join(root, 'src')), ...['package.json', 'package-lock.json', 'electron.vite.config.ts'].map((f) => statSync(join(root, f)).mtimeMs));
const built = OUTPUTS.every((f) => existsSync(f)) ? Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs)) : 0;
if (built > inputs) console.log('The build is up to date.');
else run(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']);

if (electronBinary) {
  const child = spawn(electronBinary, ['.'], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not installed on this machine (${why}); starting the browser shell instead.`);
  // The browser shell from its bundle (electron.vite.config.ts), not from the sources through tsx,
  // and in this process: a second Node would start from nothing again before serving the page.
  await import(pathToFileURL(join(root, 'out/main/web.js')).href);
}
