/**
 * One runner of `npm run eval:ratchet` (scripts/eval-ratchet.ts forks it over IPC): takes its share
 * of the cases, runs them through the harness with the rule planner and sends each result back as
 * it ends, then `done`.
 */
import { z } from 'zod';
import { type CaseResult, evalCaseSchema, runEval } from './eval-harness.js';
import { RulePlanner } from '../src/main/assistant/planner/rule-planner.js';

const shardRequestSchema = z.strictObject({ cases: z.array(evalCaseSchema) });
export type ShardMessage = { kind: 'result'; result: CaseResult } | { kind: 'done' };

if (process.send) {
  const send = (message: ShardMessage) => new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())));
  process.once('message', (message: unknown) => {
    void (async () => {
      const { cases } = shardRequestSchema.parse(message);
      const pending: Array<Promise<void>> = [];
      await runEval(cases, { planners: () => [new RulePlanner()], onResult: (result) => pending.push(send({ kind: 'result', result })) });
      await Promise.all(pending);
      await send({ kind: 'done' });
      // A closed book can leave a timer behind; the results are sent, so nothing is lost.
      process.exit(0);
    })().catch((error: unknown) => {
      process.stderr.write(`eval shard: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    });
  });
}
