import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ENV_KEY, SESSION_NOTE, type SecretCipher, SecretStoreError, browserShellStores, desktopStores, encryptedKeyFileIn, environmentStore,
  openEncryptedFileStore, readSecret, sessionStore,
} from '../../../src/main/secrets/secret-store.js';

const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const moduleUrl = pathToFileURL(join(repo, 'src/main/secrets/secret-store.ts')).href;
const CANARY = `sk-ant-canary-${randomBytes(12).toString('hex')}`;
const OTHER = `sk-ant-other-${randomBytes(12).toString('hex')}`;

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-secrets-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

/**
 * A stand-in for Electron's safeStorage, whose binary cannot run here: real AES-256-GCM under a key
 * of this run, with the backend and availability a test sets.
 */
function testCipher(options: { backend?: string | null; available?: boolean; reEncrypt?: boolean } = {}) {
  const key = randomBytes(32);
  const calls = { encrypt: 0 };
  const cipher: SecretCipher & { calls: typeof calls } = {
    calls,
    isEncryptionAvailable: async () => options.available ?? true,
    backend: () => (options.backend === undefined ? 'gnome_libsecret' : options.backend),
    async encryptString(plain) {
      calls.encrypt++;
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([Buffer.from('v11'), iv, c.getAuthTag(), body]);
    },
    async decryptString(bytes) {
      if (bytes.subarray(0, 3).toString() !== 'v11') throw new Error('not our bytes');
      const d = createDecipheriv('aes-256-gcm', key, bytes.subarray(3, 15));
      d.setAuthTag(bytes.subarray(15, 31));
      const result = Buffer.concat([d.update(bytes.subarray(31)), d.final()]).toString('utf8');
      return { result, shouldReEncrypt: options.reEncrypt ?? false };
    },
  };
  return cipher;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('the environment store', () => {
  it('reads ANTHROPIC_API_KEY when asked, blank as none', async () => {
    const env: NodeJS.ProcessEnv = {};
    const store = environmentStore(env);
    expect(store.source).toBe('environment');
    expect(await store.get()).toBeNull();
    env[ENV_KEY] = `  ${CANARY}\n`;
    expect(await store.get()).toBe(CANARY);
    env[ENV_KEY] = '   ';
    expect(await store.get()).toBeNull();
  });

  it('refuses writes, telling the user to set the variable, without echoing the key', async () => {
    const env: NodeJS.ProcessEnv = { [ENV_KEY]: OTHER };
    const store = environmentStore(env);
    expect(store.writable).toEqual({ ok: false, reason: expect.stringContaining('set ANTHROPIC_API_KEY in the environment instead') });
    const error = await rejection(store.set(CANARY));
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error.message).toContain('set ANTHROPIC_API_KEY in the environment instead');
    expect(error.message).not.toContain(CANARY);
    expect(await rejection(store.delete())).toBeInstanceOf(SecretStoreError);
    expect(env[ENV_KEY]).toBe(OTHER);
  });
});

describe('the session store', () => {
  it('keeps the key in memory for this run only: nothing in DESK_DATA_DIR, nothing shared between stores', async () => {
    const dataDir = tempDir();
    const stores = browserShellStores(null, { DESK_DATA_DIR: dataDir });
    expect(stores.write?.source).toBe('session');
    expect(stores.write?.writable).toEqual({ ok: true });
    expect(stores.writeNote).toBe(SESSION_NOTE);
    expect(stores.writeNote).toContain('set ANTHROPIC_API_KEY to keep it');
    await stores.write?.set(CANARY);
    expect(await readSecret(stores)).toEqual({ secret: CANARY, source: 'session' });
    expect(filesIn(dataDir)).toEqual([]);
    // A new run starts without it.
    expect(await readSecret(browserShellStores(null, { DESK_DATA_DIR: dataDir }))).toBeNull();
    await stores.write?.delete();
    expect(await stores.write?.get()).toBeNull();
    expect(await rejection(sessionStore().set(''))).toBeInstanceOf(SecretStoreError);
  });
});

describe('readSecret: the first store that holds a key', () => {
  it('browser shell: a key entered this run, then ANTHROPIC_API_KEY', async () => {
    const env: NodeJS.ProcessEnv = {};
    const stores = browserShellStores(null, env);
    expect(stores.read.map((s) => s.source)).toEqual(['session', 'environment']);
    expect(await readSecret(stores)).toBeNull();
    env[ENV_KEY] = OTHER;
    expect(await readSecret(stores)).toEqual({ secret: OTHER, source: 'environment' });
    await stores.write?.set(CANARY);
    expect(await readSecret(stores)).toEqual({ secret: CANARY, source: 'session' });
    await stores.write?.delete();
    expect(await readSecret(stores)).toEqual({ secret: OTHER, source: 'environment' });
  });

  it('desktop: the encrypted file before ANTHROPIC_API_KEY; an unreadable file is reported and passed over', async () => {
    const file = encryptedKeyFileIn(tempDir());
    const env: NodeJS.ProcessEnv = { [ENV_KEY]: OTHER };
    const stores = desktopStores(null, await openEncryptedFileStore(file, testCipher()), env);
    expect(stores.read.map((s) => s.source)).toEqual(['safe-storage', 'environment']);
    expect(stores.write?.source).toBe('safe-storage');
    expect(await readSecret(stores)).toEqual({ secret: OTHER, source: 'environment' });
    await stores.write?.set(CANARY);
    expect(await readSecret(stores)).toEqual({ secret: CANARY, source: 'safe-storage' });

    writeFileSync(file, 'garbage that does not decrypt');
    const unreadable: [string, Error][] = [];
    expect(await readSecret(stores, (source, error) => unreadable.push([source, error]))).toEqual({ secret: OTHER, source: 'environment' });
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]?.[0]).toBe('safe-storage');
    expect(unreadable[0]?.[1]).toBeInstanceOf(SecretStoreError);
    expect(unreadable[0]?.[1].message).toMatch(/could not be decrypted/);
  });

  it('desktop: with no safe place to write, write is null and the note says why', async () => {
    const stores = desktopStores(null, await openEncryptedFileStore(encryptedKeyFileIn(tempDir()), testCipher({ backend: 'basic_text' })), {});
    expect(stores.write).toBeNull();
    expect(stores.writeNote).toMatch(/basic_text/);
    expect(stores.writeNote).toContain('set ANTHROPIC_API_KEY in the environment instead');
  });
});

describe('the encrypted file store (Electron safeStorage, through a test cipher)', () => {
  it('round-trips the key through a 0600 file that never holds the plaintext; delete removes the file', async () => {
    const dataDir = tempDir();
    const file = encryptedKeyFileIn(dataDir);
    expect(file).toBe(join(dataDir, 'secrets', 'anthropic-api-key.bin'));
    const store = await openEncryptedFileStore(file, testCipher());
    expect(store.source).toBe('safe-storage');
    expect(store.writable).toEqual({ ok: true });
    expect(await store.get()).toBeNull();

    await store.set(CANARY);
    expect(await store.get()).toBe(CANARY);
    const bytes = readFileSync(file);
    expect(bytes.includes(CANARY)).toBe(false);
    expect(bytes.includes(Buffer.from(CANARY).toString('base64'))).toBe(false);
    expect(bytes.includes(Buffer.from(CANARY).toString('hex'))).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Replaced whole, with no temporary file left beside it.
    await store.set(OTHER);
    expect(await store.get()).toBe(OTHER);
    expect(filesIn(dataDir).sort()).toEqual(['secrets', join('secrets', 'anthropic-api-key.bin')]);

    await store.delete();
    expect(existsSync(file)).toBe(false);
    expect(await store.get()).toBeNull();
    await store.delete();
  });

  it.each([
    ['basic_text', { backend: 'basic_text' }, /basic_text.*as readable as plaintext/],
    ['unknown', { backend: 'unknown' }, /had not started.*backend unknown/],
    ['encryption unavailable', { available: false }, /cannot encrypt here/],
  ] as const)('refuses to keep a key when Linux reports %s, with a clear reason, and writes nothing', async (_, options, reason) => {
    const dataDir = tempDir();
    const cipher = testCipher(options);
    const store = await openEncryptedFileStore(encryptedKeyFileIn(dataDir), cipher);
    expect(store.writable).toEqual({ ok: false, reason: expect.stringMatching(reason) });
    const error = await rejection(store.set(CANARY));
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain('set ANTHROPIC_API_KEY in the environment instead');
    expect(error.message).not.toContain(CANARY);
    expect(cipher.calls.encrypt).toBe(0);
    expect(filesIn(dataDir)).toEqual([]);
  });

  it('asks the backend again on set: a store opened when it was safe refuses once Linux reports basic_text', async () => {
    const dataDir = tempDir();
    let backend = 'kwallet6';
    const store = await openEncryptedFileStore(encryptedKeyFileIn(dataDir), { ...testCipher(), backend: () => backend });
    expect(store.writable.ok).toBe(true);
    backend = 'basic_text';
    expect((await rejection(store.set(CANARY))).message).toMatch(/basic_text/);
    expect(filesIn(dataDir)).toEqual([]);
  });

  it('writes the key again when the OS asks for re-encryption', async () => {
    const file = encryptedKeyFileIn(tempDir());
    const cipher = testCipher({ reEncrypt: true });
    const store = await openEncryptedFileStore(file, cipher);
    await store.set(CANARY);
    const before = readFileSync(file);
    expect(await store.get()).toBe(CANARY);
    expect(cipher.calls.encrypt).toBe(2);
    expect(readFileSync(file).equals(before)).toBe(false);
    expect(await store.get()).toBe(CANARY);
  });
});

describe('errors never carry the key', () => {
  it('cuts the key out of a failing cipher or file system message', async () => {
    // A library that echoes its input in its error, the worst case the store must survive.
    const leaky: SecretCipher = { ...testCipher(), encryptString: async (plain) => { throw new Error(`cannot encrypt "${plain}"`); } };
    const error = await rejection((await openEncryptedFileStore(encryptedKeyFileIn(tempDir()), leaky)).set(CANARY));
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error.message).toMatch(/could not be stored: cannot encrypt "\[redacted\]"/);
    expect(error.message).not.toContain(CANARY);
    expect(String(error.stack)).not.toContain(CANARY);
    expect(error.cause).toBeUndefined();

    // A data folder that cannot be created: the path is in the message, the key is not.
    const blocker = join(tempDir(), 'not-a-dir');
    writeFileSync(blocker, '');
    const fsError = await rejection((await openEncryptedFileStore(encryptedKeyFileIn(blocker), testCipher())).set(CANARY));
    expect(fsError).toBeInstanceOf(SecretStoreError);
    expect(fsError.message).toMatch(/could not be stored/);
    expect(fsError.message).not.toContain(CANARY);
  });
});

// ---------------------------------------------------------------------------------------------
// The OS keychain, in child processes: the native module reads the process's real environment
// (D-Bus address), which a worker thread's process.env does not change.

const onPath = (name: string): boolean => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
const keyringBinaries = onPath('dbus-run-session') && onPath('gnome-keyring-daemon');

function keychainScript(dir: string, body: string): string {
  const script = join(dir, 'keychain.mts');
  writeFileSync(script, `
    import { openKeychainStore, browserShellStores, readSecret } from ${JSON.stringify(moduleUrl)};
    import { createLogger } from ${JSON.stringify(pathToFileURL(join(repo, 'src/infra/log.ts')).href)};
    const logs: string[] = [];
    const log = createLogger({ level: 'debug', write: (line) => logs.push(line) });
    const out: Record<string, unknown> = {};
    ${body}
    out.logs = logs;
    console.log('RESULT ' + JSON.stringify(out));
  `);
  return script;
}

function runChild(command: string, args: string[], home: string, extraEnv: NodeJS.ProcessEnv = {}) {
  // Only what node and the keyring need: no D-Bus address, no display, and a throwaway HOME so a
  // keyring the daemon creates is this test's, not the user's.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home, ...extraEnv };
  const child = spawnSync(command, args, { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result (status ${child.status}, signal ${child.signal}):\n${child.stdout}\n${child.stderr}`);
  return JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>;
}

describe('the OS keychain', () => {
  it.runIf(process.platform === 'linux')('is null, not an error, when no Secret Service answers (no D-Bus session)', () => {
    const dir = tempDir();
    const script = keychainScript(dir, `
      const store = await openKeychainStore({ service: 'agent-desk-test-${randomBytes(4).toString('hex')}', log, probeTimeoutMs: 20000 });
      out.store = store === null ? null : store.source;
    `);
    const result = runChild(process.execPath, ['--import', 'tsx', script], dir);
    expect(result.store).toBeNull();
    // The reason is logged; there is no key yet, so nothing to leak.
    expect(JSON.stringify(result.logs)).toMatch(/OS keychain unusable/);
  }, 90_000);

  it.skipIf(!keyringBinaries)(
    `keeps, returns and deletes the key in a real keyring (gnome-keyring-daemon under dbus-run-session)${keyringBinaries ? '' : ': skipped, dbus-run-session or gnome-keyring-daemon is not installed (apt-get install gnome-keyring)'}`,
    () => {
      const dir = tempDir();
      const service = `agent-desk-test-${randomBytes(6).toString('hex')}`;
      const script = keychainScript(dir, `
        const secret = process.env.TEST_SECRET!;
        const service = ${JSON.stringify(service)};
        const store = await openKeychainStore({ service, log });
        out.opened = store?.source ?? null;
        if (store) {
          out.writable = store.writable;
          out.before = await store.get();
          await store.set(secret);
          out.after = await store.get();
          // A second entry sees it too: it is in the keyring, not in the object.
          out.reopened = await (await openKeychainStore({ service }))?.get();
          const stores = browserShellStores(store, { ANTHROPIC_API_KEY: process.env.TEST_OTHER });
          out.writeSource = stores.write?.source;
          out.read = await readSecret(stores);
          await store.delete();
          out.deleted = await store.get();
          out.readAfterDelete = await readSecret(stores);
          await store.delete();
          out.deletedTwice = true;
        }
      `);
      const result = runChild(
        'dbus-run-session',
        ['--', 'sh', '-c', `printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node --import tsx '${script}'`],
        dir,
        { TEST_SECRET: CANARY, TEST_OTHER: OTHER },
      );
      expect(result).toMatchObject({
        opened: 'keychain',
        writable: { ok: true },
        before: null,
        after: CANARY,
        reopened: CANARY,
        writeSource: 'keychain',
        read: { secret: CANARY, source: 'keychain' },
        deleted: null,
        readAfterDelete: { secret: OTHER, source: 'environment' },
        deletedTwice: true,
      });
      expect(JSON.stringify(result.logs)).not.toContain(CANARY);
    },
    90_000,
  );
});
