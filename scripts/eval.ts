/**
 * `npm run eval -- FILE.jsonl [--min 0.95]`: runs every case through the assistant against an
 * embedded demo book (PGlite in memory) at the case's clock, prints a line per case and last
 * `eval: N passed, M failed`. Exits 1 when the pass rate is below --min (default 0.95).
 */
import { readFile } from 'node:fs/promises';
import { Assistant, type TurnRecord } from '../src/main/agent/assistant.js';
import { EntityLookup, compare, parseCases, type EvalCase } from '../src/main/agent/eval.js';
import { RateLimiter } from '../src/main/agent/guards/rate-limit.js';
import { MemoryChatHistory } from '../src/main/agent/history.js';
import { RulePlanner } from '../src/main/agent/planner/rule-planner.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import { openBackend } from '../src/server/backend.js';
import { silentLogger } from '../src/server/log.js';
import { parseChatRoute } from '../src/shared/contracts/chat.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--min');
const minAt = args.indexOf('--min');
const min = minAt >= 0 ? Number(args[minAt + 1]) : 0.95;
if (!file || !(min >= 0 && min <= 1)) {
  process.stderr.write('usage: npm run eval -- FILE.jsonl [--min 0.95]\n');
  process.exit(2);
}

const cases = parseCases(await readFile(file, 'utf8'));
let passed = 0;
let failed = 0;
const byClock = new Map<string, EvalCase[]>();
for (const c of cases) byClock.set(c.now, [...(byClock.get(c.now) ?? []), c]);

for (const [now, group] of byClock) {
  const clock = new Date(now);
  const backend = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, now: () => clock });
  const connection = embeddedConnection(backend, silentLogger);
  const registry = createToolRegistry();
  const tokens = new Map<string, string>();
  for (const c of group) {
    try {
      let token = tokens.get(c.user);
      if (!token) {
        token = (await connection.client(null).auth.login.mutate({ username: c.user, password: `demo-${c.user}` })).token;
        tokens.set(c.user, token);
      }
      const api = connection.client(token);
      const user = await api.auth.me.query();
      const lookup = new EntityLookup(api);
      let last: TurnRecord | null = null;
      const assistant = new Assistant({
        registry, planners: [new RulePlanner()], history: new MemoryChatHistory(), log: silentLogger,
        limiter: new RateLimiter({ limit: 1000 }), onTurn: (record) => { last = record; },
      });
      const page = parseChatRoute(await lookup.page(c.page));
      for (const text of [...c.history, c.query]) {
        for await (const _event of assistant.turn({ kind: 'message', text, page }, { user, api })) { /* drained */ }
      }
      const expect = (await lookup.substitute(c.expect)) as EvalCase['expect'];
      const difference = compare(expect, last!);
      if (difference === null) {
        passed++;
        process.stdout.write(`pass  ${c.id}\n`);
      } else {
        failed++;
        process.stdout.write(`FAIL  ${c.id}: ${difference}\n`);
      }
    } catch (error) {
      failed++;
      process.stdout.write(`FAIL  ${c.id}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  await connection.close();
}

process.stdout.write(`eval: ${passed} passed, ${failed} failed\n`);
process.exit(passed / Math.max(1, passed + failed) >= min ? 0 : 1);
