import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * The backend embedded in main reads its SQL migrations and the demo cast next to its module
 * (`new URL('./migrations', import.meta.url)`); bundled into out/main, they are copied there.
 */
const copyBackendAssets = {
  name: 'copy-backend-assets',
  writeBundle() {
    cpSync(resolve('src/server/db/migrations'), resolve('out/main/migrations'), { recursive: true });
    cpSync(resolve('src/server/seed/cast.json'), resolve('out/main/cast.json'));
  },
};

/**
 * The demo book's snapshot, made once for the generator as bundled (src/server/seed/snapshot.ts):
 * the bundle is told the digest of the generator's sources it was built from, and
 * scripts/demo-book.ts writes the book into out/demo-book/ when no snapshot has that key yet.
 */
const demoBookSnapshot = {
  name: 'demo-book-snapshot',
  writeBundle() {
    const run = spawnSync(process.execPath, ['--import', 'tsx', resolve('scripts/demo-book.ts'), '--bundle', resolve('out/main')], { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`scripts/demo-book.ts failed (exit ${run.status ?? run.signal})`);
  },
};

export default defineConfig({
  main: {
    build: {
      // Optional dependencies are not externalised by default; the keychain module is native.
      externalizeDeps: { include: ['@napi-rs/keyring'] },
      // index: the desktop app; web: the browser shell (`npm run web`), which starts from this
      // bundle in a fraction of the time tsx takes to compile the sources on every start.
      // Their shared chunk sits beside them, where `import.meta.url` finds the copied migrations and cast,
      // and the report writer's worker thread its entry (report-writer-thread.ts).
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'), web: resolve('src/main/web/main.ts'),
          'report-writer-worker': resolve('src/server/services/report-writer-worker.ts'),
        },
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
    plugins: [copyBackendAssets, demoBookSnapshot],
  },
  preload: {
    build: {
      externalizeDeps: true,
      // A sandboxed preload runs as a classic script: CommonJS, no ESM imports.
      rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    // Minified: the page parses a third of the bytes before the login page can show (bench/ui.ts, start-up).
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react()],
  },
});
