import { describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../src/infra/log.js';

describe('logger', () => {
  const capture = (level?: 'debug' | 'info') => {
    const lines: string[] = [];
    const log = createLogger({ ...(level && { level }), write: (line) => lines.push(line), base: { service: 'test' } });
    return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
  };

  it('writes one JSON object a line with ts, the level by name, msg, the base fields and the child fields', () => {
    const { log, lines, parsed } = capture();
    log.child({ requestId: 'r-1' }).info('procedure', { path: 'agent.getPnL' });
    log.debug('hidden below info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(parsed()[0]).toMatchObject({ level: 'info', msg: 'procedure', service: 'test', requestId: 'r-1', path: 'agent.getPnL', ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('keeps an error\'s type, message and stack in `err`', () => {
    const { log, parsed } = capture('debug');
    log.error('turn failed', { err: new TypeError('no such row') });
    const err = parsed()[0]!.err as Record<string, unknown>;
    expect(parsed()[0]!.level).toBe('error');
    expect(err).toMatchObject({ type: 'TypeError', message: 'no such row' });
    expect(err.stack).toMatch(/TypeError: no such row\n\s+at /);
  });

  it('the silent logger and its children write nothing', () => {
    expect(() => silentLogger.child({ a: 1 }).error('x', { err: new Error('y') })).not.toThrow();
  });
});
