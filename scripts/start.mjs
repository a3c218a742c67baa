// `npm start`: build, then open the desktop app in Electron; where Electron's binary is not
// installed (as on machines that cannot download it), say so in one line and serve the same app
// to a browser instead.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

run(process.execPath, [new URL('../node_modules/electron-vite/bin/electron-vite.js', import.meta.url).pathname, 'build']);

if (electronBinary) {
  const child = spawn(electronBinary, ['.'], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`Electron is not installed on this machine (${why}); starting the browser shell instead.`);
  const child = spawn(process.execPath, [new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname, 'src/main/web/main.ts'], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}
