import { describe, expect, it } from 'vitest';
import { type BackendConnection, embeddedConnection, openingConnection } from '../../../src/main/backend/connection.js';
import { silentLogger } from '../../../src/infra/log.js';
import { openTestBookBackend } from '../../helpers/backend.js';

/**
 * A backend connection used before it is open (the browser shell serves its login page while the
 * embedded book opens): a call made meanwhile waits and then answers as if the connection had been
 * open all along; if the book cannot open, the call fails with that reason instead of hanging.
 */
describe('a connection that is still opening', () => {
  it('holds calls until it is open, then answers them', async () => {
    let open!: (connection: BackendConnection) => void;
    const opening = new Promise<BackendConnection>((resolve) => { open = resolve; });
    const connection = openingConnection({ mode: 'embedded', dataDir: 'unused' }, opening);
    expect(connection.mode).toBe('embedded');
    const login = connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' });
    let settled = false;
    void login.finally(() => { settled = true; });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    const backend = await openTestBookBackend();
    open(embeddedConnection(backend, silentLogger));
    const { token, user } = await login;
    expect(user.username).toBe('priya');
    // Once open, calls go straight through, with the session's token.
    expect((await connection.client(token).auth.me.query()).username).toBe('priya');
    await connection.close();
  });

  it('fails the waiting calls with the reason the book could not open', async () => {
    const opening = Promise.reject(new Error('the book in /x is open in another process (pid 1)'));
    const connection = openingConnection({ mode: 'embedded', dataDir: '/x' }, opening);
    await expect(connection.client(null).auth.login.mutate({ username: 'priya', password: 'demo-priya' })).rejects.toThrow(/open in another process/);
    await connection.close();
  });
});
