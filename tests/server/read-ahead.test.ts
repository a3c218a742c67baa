import { describe, expect, it } from 'vitest';
import { readAhead } from '../../src/server/services/read-ahead.js';

/** A source that logs when each batch is asked for, handed over, and when it is closed. */
function loggedSource(batches: number, failAt?: number) {
  const log: string[] = [];
  async function* source(): AsyncGenerator<number> {
    try {
      for (let i = 0; i < batches; i++) {
        log.push(`read ${i}`);
        await new Promise((r) => setTimeout(r, 1));
        if (i === failAt) throw new Error(`batch ${i} failed`);
        yield i;
      }
    } finally {
      log.push('closed');
    }
  }
  return { log, source: source() };
}

describe('readAhead: the next batch read while the last is written', () => {
  it('asks for the next batch before the consumer is done with the current one, and hands all over in order', async () => {
    const { log, source } = loggedSource(3);
    const seen: number[] = [];
    for await (const batch of readAhead(source)) {
      await new Promise((r) => setTimeout(r, 5));
      log.push(`wrote ${batch}`);
      seen.push(batch);
    }
    expect(seen).toEqual([0, 1, 2]);
    // Batch 1 is being read while batch 0 is written (a plain for-await reads it only after).
    expect(log.indexOf('read 1')).toBeLessThan(log.indexOf('wrote 0'));
    expect(log.indexOf('read 2')).toBeLessThan(log.indexOf('wrote 1'));
    expect(log.at(-1)).toBe('wrote 2');
  });

  it('a read that goes out only when the event loop turns (a pooled query) is out before a synchronous write', async () => {
    const log: string[] = [];
    async function* pooled(): AsyncGenerator<number> {
      for (let i = 0; i < 3; i++) {
        // As a pool hands over a connection: on a later turn of the loop, then the query is sent.
        await new Promise((r) => setImmediate(r));
        log.push(`sent ${i}`);
        await new Promise((r) => setTimeout(r, 1));
        yield i;
      }
    }
    for await (const batch of readAhead(pooled())) log.push(`wrote ${batch}`);
    expect(log.indexOf('sent 1')).toBeLessThan(log.indexOf('wrote 0'));
    expect(log.indexOf('sent 2')).toBeLessThan(log.indexOf('wrote 1'));
  });

  it('a stop in the middle closes the source once the batch in flight is in', async () => {
    const { log, source } = loggedSource(5);
    for await (const batch of readAhead(source)) {
      if (batch === 1) break;
    }
    expect(log).toEqual(['read 0', 'read 1', 'read 2', 'closed']);
  });

  it('a failed read is thrown to the consumer at its turn, not lost nor thrown early', async () => {
    const { log, source } = loggedSource(5, 1);
    const seen: number[] = [];
    await expect((async () => {
      for await (const batch of readAhead(source)) seen.push(batch);
    })()).rejects.toThrow('batch 1 failed');
    expect(seen).toEqual([0]);
    expect(log).toContain('closed');
  });
});
