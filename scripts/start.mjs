// `npm start`: build, then open the desktop app in Electron; where Electron's binary is not
// installed (as on machines that cannot download it), say so in one line and serve the same app
// to a browser instead.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

let electronBinary = null;
let why = '';
try {
  electronBinary = require('electron');
  if (typeof electronBinary !== 'string' || !existsSync(electronBinary)) {
    why = `no binary at ${electronBinary}`;
    electronBinary = null;
  }
} catch (error) {
  why = String(error instanceof Error ? error.message : error).split('\n')[0];
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
