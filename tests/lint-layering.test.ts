import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer map (eslint.config.js, docs/architecture.md "Layers") must bite: each fixture is a file
 * in one layer importing across, by every form an import can take, with the allowed case beside it.
 */
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
const LAYER_RULES = new Set(['layers/imports', 'no-restricted-globals']);
const errors = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId)).map((m) => m.message);

/** [file, code, breaches]: 0 is the allowed case, 1 a breach lint must report. */
type Fixture = [file: string, code: string, breaches: 0 | 1];

const cases: Record<string, Fixture[]> = {
  'src/shared imports nothing of ours, no Node, no electron': [
    ['src/shared/x.ts', "import { appRouter } from '../server/trpc/router.js';\nexport const r = appRouter;\n", 1],
    ['src/shared/x.ts', "import { formatMoney } from './money.js';\nexport const f = formatMoney;\n", 0],
    ['src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", 1],
    ['src/shared/x.ts', "import { createHash } from 'crypto';\nexport const h = createHash;\n", 1],
    ['src/shared/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n", 0],
    ['src/shared/x.ts', "export const db = await import('../server/db/client.js');\n", 1],
    ['src/shared/x.ts', "export const fs = await import('node:fs');\n", 1],
    ['src/shared/x.ts', "export const load = (name: string) => import(name);\n", 1],
    ['src/shared/x.ts', "import db = require('../server/db/client.js');\nexport const d = db;\n", 1],
    ['src/shared/x.ts', "export * from '../server/db/client.js';\n", 1],
    ['src/shared/x.ts', "export * from './money.js';\n", 0],
    ['src/shared/x.ts', "import { createLogger } from '../infra/log.js';\nexport const c = createLogger;\n", 1],
    ['src/shared/x.ts', "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n", 1],
    ['src/shared/x.ts', 'export const env = process.env.NODE_ENV;\n', 1],
    ['src/shared/x.ts', 'export const href = () => window.location.href;\n', 1],
  ],
  'src/infra serves the Node processes and imports none of them': [
    ['src/server/x.ts', "import { createLogger } from '../infra/log.js';\nexport const c = createLogger;\n", 0],
    ['src/infra/x.ts', "import { appRouter } from '../server/trpc/router.js';\nexport const r = appRouter;\n", 1],
    ['src/main/tools/x.ts', "import { createLogger } from '../../infra/log.js';\nexport const c = createLogger;\n", 0],
    ['src/infra/x.ts', "import { app } from 'electron';\nexport const a = app;\n", 1],
  ],
  "src/server and main's runtime folders never import electron": [
    ['src/server/x.ts', "import { app } from 'electron';\nexport const a = app;\n", 1],
    ['src/server/x.ts', "export const e = await import('electron');\n", 1],
    ['src/main/tools/x.ts', "import { app } from 'electron';\nexport const a = app;\n", 1],
    ['src/main/assistant/x.ts', "const { app } = require('electron');\nexport const a = app;\n", 1],
    ['src/main/desk/x.ts', "export { ipcMain } from 'electron';\n", 1],
    ['src/main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;\n", 0],
    ['src/main/electron/x.ts', "export const e = await import('electron');\n", 0],
    ['src/main/desk/x.ts', "export const db = await import('../../server/db/client.js');\n", 0],
  ],
  'the tools never import the assistant (how people ask for a tool is the planner\'s), nor the server': [
    ['src/main/tools/x.ts', "import { hasAny } from '../assistant/planner/slots.js';\nexport const h = hasAny;\n", 1],
    ['src/main/tools/x.ts', "import type { Reading } from '../assistant/planner/grammar.js';\nexport type R = Reading;\n", 1],
    ['src/main/tools/x.ts', "export const db = await import('../../server/db/client.js');\n", 1],
    ['src/main/tools/x.ts', "import { money } from '../../shared/sentences.js';\nexport const m = money;\n", 0],
    ['src/main/tools/x.ts', "import { snapshotOf } from '../confirm/snapshot.js';\nexport const s = snapshotOf;\n", 0],
    ['src/main/assistant/x.ts', "import { TOOLS } from '../tools/index.js';\nexport const t = TOOLS;\n", 0],
    ['src/main/confirm/x.ts', "import { planningOf } from '../assistant/planner/intents/index.js';\nexport const p = planningOf;\n", 0],
  ],
  'only the composition root imports src/main/electron; the shell never imports the renderer or the preload': [
    ['src/main/desk/x.ts', "import { startElectronApp } from '../electron/app.js';\nexport const s = startElectronApp;\n", 1],
    ['src/main/desk/x.ts', "export const app = await import('../electron/app.js');\n", 1],
    ['src/main/index.ts', "import { startElectronApp } from './electron/app.js';\nexport const s = startElectronApp;\n", 0],
    ['src/main/electron/x.ts', "import { deskLink } from '../../renderer/src/lib/desk-link.js';\nexport const d = deskLink;\n", 1],
    ['src/main/electron/x.ts', "export * from '../../preload/index.js';\n", 1],
    ['src/main/electron/x.ts', "import { main } from '../index.js';\nexport const m = main;\n", 1],
    ['src/main/electron/x.ts', "import { handleDeskMessage } from '../desk/ipc.js';\nexport const h = handleDeskMessage;\n", 0],
    ['src/main/tools/x.ts', "import { runEval } from '../../../scripts/eval-harness.js';\nexport const r = runEval;\n", 1],
    ['tests/x.test.ts', "import { isAppUrl } from '../src/main/electron/security.js';\nexport const i = isAppUrl;\n", 0],
  ],
  'src/preload imports electron and the shared contract, nothing else': [
    ['src/preload/x.ts', "import { contextBridge } from 'electron';\nimport { DESK_CHANNEL } from '../shared/contracts/desk-bridge.js';\nexport const c = [contextBridge, DESK_CHANNEL];\n", 0],
    ['src/preload/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", 1],
    ['src/preload/x.ts', "const path = require('path');\nexport const p = path;\n", 1],
    ['src/preload/x.ts', "import { handleDeskMessage } from '../main/desk/ipc.js';\nexport const h = handleDeskMessage;\n", 1],
    ['src/preload/x.ts', "import { openDb } from '../server/db/client.js';\nexport const o = openDb;\n", 1],
    ['src/preload/x.ts', "export const r = await import('../renderer/src/lib/desk.js');\n", 1],
    ['src/preload/x.ts', "import { z } from 'zod';\nexport const s = z.string();\n", 1],
  ],
  'src/renderer type-imports from main only, and has no Node and no electron': [
    ['src/renderer/x.ts', "import { thing } from '../main/tools/registry.js';\nexport const t = thing;\n", 1],
    ['src/renderer/x.ts', "import type { Thing } from '../main/tools/registry.js';\nexport type T = Thing;\n", 0],
    ['src/renderer/x.ts', "import { type Thing } from '../main/tools/registry.js';\nexport type T = Thing;\n", 0],
    ['src/renderer/x.ts', "export type { DeskRouter } from '../main/desk/router.js';\n", 0],
    ['src/renderer/x.ts', "export { deskRouter } from '../main/desk/router.js';\n", 1],
    ['src/renderer/x.ts', "export const router = await import('../main/desk/router.js');\n", 1],
    ['src/renderer/x.ts', "import type { DeskServices } from '../server/services/caller.js';\nexport type S = DeskServices;\n", 1],
    ['src/renderer/x.ts', "export type S = import('../server/services/caller.js').Caller;\n", 1],
    ['src/renderer/x.ts', "import type { SECURITY } from '../main/electron/security.js';\nexport type S = SECURITY;\n", 1],
    ['src/renderer/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", 1],
    ['src/renderer/x.ts', "import { join } from 'path';\nexport const j = join;\n", 1],
    ['src/renderer/x.ts', "import { ipcRenderer } from 'electron/renderer';\nexport const i = ipcRenderer;\n", 1],
    ['src/renderer/x.ts', "import { createLogger } from '../infra/log.js';\nexport const c = createLogger;\n", 1],
    ['src/renderer/x.ts', "import { useState } from 'react';\nexport const u = useState;\n", 0],
    ['src/renderer/x.ts', "import { formatMoney } from '../shared/money.js';\nexport const f = formatMoney;\n", 0],
  ],
};

describe('layering lint', () => {
  for (const [layer, fixtures] of Object.entries(cases)) {
    describe(layer, () => {
      it.each(fixtures)('%s: %s', async (file, code, breaches) => {
        expect(await errors(file, code)).toHaveLength(breaches);
      });
    });
  }
});
