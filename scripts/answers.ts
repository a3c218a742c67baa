/**
 * `npm run answers -- FILE.jsonl [--min 0.9] [--verbose]`: asks each question of a case file
 * (tests/fixtures/answers/) through the offline assistant, against the embedded demo book at the
 * case's clock, and checks that the answer's first sentence states the true answer, computed
 * independently by the case's own SQL over the book's tables (never through the app's code).
 * Prints a line per case, then `answers: N right, M wrong`; exits 1 below --min (default 0).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { silentLogger } from '../src/infra/log.js';
import { openBackend } from '../src/server/backend.js';
import { queryRows } from '../src/server/db/client.js';
import { parseChatRoute } from '../src/shared/contracts/chat.js';
import { localDate } from '../src/shared/dates.js';
import { formatPoints } from '../src/shared/money.js';
import { embeddedConnection } from '../src/main/backend/connection.js';
import { Assistant } from '../src/main/assistant/assistant.js';
import { RateLimiter } from '../src/main/assistant/guards/rate-limit.js';
import { MemoryChatHistory } from '../src/main/assistant/history.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';
import { AuditLog } from '../src/main/audit/audit-log.js';
import { NonceStore } from '../src/main/confirm/nonce-store.js';
import { createToolRegistry } from '../src/main/tools/registry.js';
import { EntityLookup } from './eval-harness.js';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const answerCaseSchema = z.object({
  id: z.string().min(1),
  user: z.string().min(1),
  now: z.string().min(1),
  page: z.string().min(1),
  query: z.string().min(1).max(2000),
  kind: z.string(),
  truth: z.object({
    sql: z.string().min(1),
    period: z.object({ from: isoDay, to: isoDay }).optional(),
    says: z.object({
      names: z.array(z.string()).optional(),
      money: z.array(z.string()).optional(),
      /** A column, or several (both periods of a comparison and their difference). */
      count: z.union([z.string(), z.array(z.string())]).optional(),
      rows: z.number().int().positive().optional(),
    }),
  }),
});
export type AnswerCase = z.infer<typeof answerCaseSchema>;

export function parseAnswerCases(text: string): AnswerCase[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((line, i) => {
    const parsed = answerCaseSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`line ${i + 1}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
}

/** The answer's first sentence: up to the first full stop that ends a sentence (not one inside "12,345.00"). */
export function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** What the first sentence must state but does not, from the truth's rows; empty when it states it all. */
export function missing(sentence: string, rows: ReadonlyArray<Record<string, unknown>>, says: AnswerCase['truth']['says']): string[] {
  const gaps: string[] = [];
  const wanted = says.rows !== undefined ? rows.slice(0, says.rows) : rows.slice(0, 1);
  if (says.rows !== undefined && rows.length < says.rows) gaps.push(`the truth has ${rows.length} rows, not ${says.rows}`);
  const lower = sentence.toLowerCase();
  for (const row of wanted) {
    for (const column of says.names ?? []) {
      const name = String(row[column] ?? '');
      if (!lower.includes(name.toLowerCase())) gaps.push(`name ${name}`);
    }
    for (const column of says.money ?? []) {
      const shown = formatPoints(Math.abs(Number(row[column])));
      if (!sentence.includes(shown)) gaps.push(`money ${shown}`);
    }
  }
  for (const column of typeof says.count === 'string' ? [says.count] : says.count ?? []) {
    const n = String(Number(rows[0]?.[column]));
    if (!new RegExp(`(^|[^\\d,.])${n}([^\\d,]|\\.(\\s|$)|$)`).test(sentence)) gaps.push(`count ${n}`);
  }
  return gaps;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = args.filter((a) => !a.startsWith('--') && !/^\d/.test(a));
  const minAt = args.indexOf('--min');
  const min = minAt >= 0 ? Number(args[minAt + 1]) : 0;
  const verbose = args.includes('--verbose');
  if (files.length === 0 || !Number.isFinite(min)) {
    process.stderr.write('usage: npm run answers -- FILE.jsonl [--min 0.9] [--verbose]\n');
    process.exit(2);
  }
  const cases = (await Promise.all(files.map(async (f) => parseAnswerCases(await readFile(f, 'utf8'))))).flat();
  const scratch = await mkdtemp(join(tmpdir(), 'agent-desk-answers-'));
  const byClock = new Map<string, AnswerCase[]>();
  for (const c of cases) byClock.set(c.now, [...(byClock.get(c.now) ?? []), c]);
  let right = 0;
  for (const [now, group] of byClock) {
    const clock = new Date(now);
    const backend = await openBackend({ database: { engine: 'pglite' }, seedDemoIfEmpty: true, now: () => clock });
    const connection = embeddedConnection(backend, silentLogger);
    const registry = createToolRegistry();
    try {
      for (const c of group) {
        let verdict: string;
        let answer = '';
        try {
          const { token } = await connection.client(null).auth.login.mutate({ username: c.user, password: `demo-${c.user}` });
          const api = connection.client(token);
          const user = await api.auth.me.query();
          const assistant = new Assistant({
            registry, planners: [new RulePlanner()], history: new MemoryChatHistory(), log: silentLogger,
            nonces: new NonceStore(), audit: new AuditLog(join(scratch, 'audit.jsonl')), limiter: new RateLimiter({ limit: 1000 }),
          });
          const page = parseChatRoute(await new EntityLookup({ api, user, requestId: `answers:${c.id}` }).page(c.page));
          for await (const event of assistant.turn({ kind: 'message', text: c.query, page }, { user, api })) {
            if (event.type === 'done') answer = event.message.text;
          }
          const today = localDate(clock, user.timezone);
          // Placeholders, never a `::` cast; the values are an id and dates the case file's schema checked.
          const values: Record<string, string> = { me: user.id, today, from: c.truth.period?.from ?? today, to: c.truth.period?.to ?? today };
          const query = c.truth.sql.replace(/(?<!:):(me|today|from|to)\b/g, (_m, key: string) => `'${values[key]}'`);
          const rows = await queryRows<Record<string, unknown>>(backend.deps.db, sql.raw(query));
          const gaps = missing(firstSentence(answer), rows, c.truth.says);
          verdict = gaps.length === 0 ? 'right' : `wrong (missing ${gaps.join(', ')})`;
        } catch (error) {
          verdict = `error ${error instanceof Error ? error.message : String(error)}`;
        }
        if (verdict === 'right') right++;
        process.stdout.write(`${verdict === 'right' ? 'right' : 'WRONG'} ${c.id} [${c.kind}] ${c.query}${verdict === 'right' && !verbose ? '' : `\n    ${verdict}\n    answer: ${answer.slice(0, 400)}`}\n`);
      }
    } finally {
      await connection.close();
    }
  }
  process.stdout.write(`answers: ${right} right, ${cases.length - right} wrong (${((100 * right) / Math.max(cases.length, 1)).toFixed(1)}%)\n`);
  if (right / Math.max(cases.length, 1) < min) process.exit(1);
}

await main();
