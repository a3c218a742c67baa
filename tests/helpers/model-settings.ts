import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeBrain } from '../../src/main/assistant/claude/brain.js';
import { createToolRegistry } from '../../src/main/tools/registry.js';
import { silentLogger } from '../../src/infra/log.js';

/** The desk's model settings with no key anywhere (the environment ignored): the assistant stays offline. */
export function keylessModels(): ClaudeBrain {
  return new ClaudeBrain({
    secrets: { read: [], write: null, writeNote: 'this test keeps no key' },
    dataDir: mkdtempSync(join(tmpdir(), 'desk-models-')), env: {}, registry: createToolRegistry(), log: silentLogger,
  });
}
