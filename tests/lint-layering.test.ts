import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layering rule must bite: a file in the wrong layer importing across fails lint. */
describe('layering lint', () => {
  const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
  const errors = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);

  it('keeps src/shared free of our other layers and of Node', async () => {
    expect(await errors('src/shared/x.ts', "import { appRouter } from '../server/trpc/router.js';\nexport const r = appRouter;\n")).toHaveLength(1);
    expect(await errors('src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toHaveLength(1);
  });

  it('keeps electron out of the server and main\'s runtime folders', async () => {
    expect(await errors('src/server/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await errors('src/main/tools/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await errors('src/main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(0);
  });

  it('lets the renderer import types only from main', async () => {
    expect(await errors('src/renderer/x.ts', "import { thing } from '../main/tools/registry.js';\nexport const t = thing;\n")).toHaveLength(1);
    expect(await errors('src/renderer/x.ts', "import type { Thing } from '../main/tools/registry.js';\nexport type T = Thing;\n")).toHaveLength(0);
  });
});
