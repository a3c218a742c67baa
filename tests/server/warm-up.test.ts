import { afterEach, describe, expect, it } from 'vitest';
import { openBackend, type Backend } from '../../src/server/backend.js';
import { login } from '../../src/server/services/auth.js';
import { warmUp } from '../../src/server/services/warm-up.js';
import { silentLogger } from '../../src/infra/log.js';
import { DEMO_PASSWORDS, REAL_NOW, openTestBookBackend } from '../helpers/backend.js';

describe('warming the first reads', () => {
  let backend: Backend | null = null;
  afterEach(async () => {
    await backend?.database.close();
    backend = null;
  });

  it('reads as the agent nearest the top of the book until someone has signed in, then as the agent who signed in last', async () => {
    backend = await openTestBookBackend();
    // The book's agents under the platform admin, first by username.
    expect(await warmUp(backend.deps)).toBe('falcon.book');
    // Sessions a minute apart on the wall clock, which orders them.
    const at = (minutes: number) => ({ ...backend!.deps, realNow: () => new Date(REAL_NOW.getTime() + minutes * 60_000) });
    const request = { clientAddress: 'test', log: silentLogger };
    await login(at(1), 'arjun', DEMO_PASSWORDS.arjun!, request);
    expect(await warmUp(backend.deps)).toBe('arjun');
    await login(at(2), 'priya', DEMO_PASSWORDS.priya!, request);
    expect(await warmUp(backend.deps)).toBe('priya');
    await login(at(3), 'admin', DEMO_PASSWORDS.admin!, request);
    expect(await warmUp(backend.deps)).toBe('priya');
  });

  it('has nothing to read on a book without agents', async () => {
    backend = await openBackend({ database: { engine: 'pglite' } });
    expect(await warmUp(backend.deps)).toBeNull();
  });
});
