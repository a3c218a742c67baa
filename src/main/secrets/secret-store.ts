/**
 * Where the Anthropic API key is kept: one contract, `SecretStore`, and the stores that implement
 * it in plain Node (the OS keychain through the optional `@napi-rs/keyring`, the environment, this
 * run's memory, and a file of bytes encrypted by a cipher the Electron shell supplies). Which stores
 * a shell uses is chosen at its composition root (`browserShellSecretStores` here,
 * `desktopSecretStores` in src/main/electron/safe-storage-store.ts). No store ever writes the key
 * in plaintext, and no error or log line carries it.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../../infra/log.js';
import { writePrivately } from '../../infra/private-file.js';
import type { KeySource } from '../../shared/contracts/model-settings.js';

export interface SecretStore {
  readonly source: KeySource;
  /** Whether a key entered now can be kept here; else why not (shown on the Settings page). */
  readonly writable: { ok: true } | { ok: false; reason: string };
  /** The key, or null when none is kept here. Throws SecretStoreError when the store cannot be read. */
  get(): Promise<string | null>;
  /** Throws SecretStoreError (whose message never contains the secret) when it cannot keep it. */
  set(secret: string): Promise<void>;
  /** Removes the key; nothing kept is not an error. */
  delete(): Promise<void>;
}

/** A store's refusal or failure. Its message is safe to show and log: it never holds the secret. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

export const KEY_SERVICE = 'agent-desk';
export const KEY_ACCOUNT = 'anthropic-api-key';
export const ENV_KEY = 'ANTHROPIC_API_KEY';

const WRITABLE = { ok: true } as const;
const USE_ENV = `set ${ENV_KEY} in the environment instead`;

/**
 * A library's error message with every occurrence of the secret cut out: we cannot vouch for what a
 * native module or the OS puts in its messages, and ours are logged and shown.
 */
function scrubbed(error: unknown, secret?: string): string {
  let message = error instanceof Error ? error.message : String(error);
  if (secret) message = message.split(secret).join('[redacted]');
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

function assertStorable(secret: string): void {
  if (secret.length === 0) throw new SecretStoreError('an empty key cannot be stored');
}

// ---------------------------------------------------------------------------------------------
// The OS keychain

/** The part of `@napi-rs/keyring` used here, so a missing or different module fails the probe, not a call. */
interface KeyringEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deleteCredential(): Promise<boolean>;
}
type KeyringEntryClass = new (service: string, account: string, options?: { linux?: { store?: 'secret-service' | 'keyutils' } }) => KeyringEntry;

export interface KeychainOptions {
  service?: string;
  account?: string;
  /** Why the keychain is not used, when it is not (the reason only: there is no secret yet). */
  log?: Logger;
  /** How long the probe may wait on the platform (a D-Bus service that never answers). */
  probeTimeoutMs?: number;
}

/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux), or
 * null when `@napi-rs/keyring` is not installed or the platform store does not answer. The probe
 * reads the entry: no entry is fine; access denied, no D-Bus session, or a timeout mean null.
 */
export async function openKeychainStore(options: KeychainOptions = {}): Promise<SecretStore | null> {
  const service = options.service ?? KEY_SERVICE;
  const account = options.account ?? KEY_ACCOUNT;
  let AsyncEntry: KeyringEntryClass | undefined;
  try {
    const mod: { AsyncEntry?: unknown; default?: { AsyncEntry?: unknown } } = await import('@napi-rs/keyring');
    const found = mod.AsyncEntry ?? mod.default?.AsyncEntry;
    if (typeof found === 'function') AsyncEntry = found as KeyringEntryClass;
  } catch (error) {
    options.log?.info('OS keychain module not loaded', { reason: scrubbed(error) });
    return null;
  }
  if (!AsyncEntry) {
    options.log?.info('OS keychain module has no AsyncEntry');
    return null;
  }
  let entry: KeyringEntry;
  try {
    // On Linux the library falls back to the kernel keyring, which forgets the key at logout or
    // reboot: "kept in the keychain" would not be true there, so only the Secret Service counts.
    entry = new AsyncEntry(service, account, process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined);
    await withTimeout(entry.getPassword(), options.probeTimeoutMs ?? 10_000);
  } catch (error) {
    options.log?.info('OS keychain unusable', { reason: scrubbed(error) });
    return null;
  }
  const keychain: SecretStore = {
    source: 'keychain',
    writable: WRITABLE,
    async get() {
      try {
        return (await entry.getPassword()) || null;
      } catch (error) {
        throw new SecretStoreError(`The OS keychain could not be read: ${scrubbed(error)}`);
      }
    },
    async set(secret) {
      assertStorable(secret);
      try {
        await entry.setPassword(secret);
      } catch (error) {
        throw new SecretStoreError(`The OS keychain did not keep the key: ${scrubbed(error, secret)}`);
      }
    },
    async delete() {
      try {
        await entry.deleteCredential();
      } catch (error) {
        throw new SecretStoreError(`The OS keychain did not remove the key: ${scrubbed(error)}`);
      }
    },
  };
  return keychain;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// The environment and this run's memory

/** ANTHROPIC_API_KEY, read when asked (blank counts as unset). The desk cannot change a process's environment, so it refuses writes. */
export function environmentStore(env: NodeJS.ProcessEnv): SecretStore {
  return {
    source: 'environment',
    writable: { ok: false, reason: `The key comes from the environment here: ${USE_ENV}.` },
    async get() {
      return env[ENV_KEY]?.trim() || null;
    },
    async set() {
      throw new SecretStoreError(`The desk cannot change its environment: ${USE_ENV}.`);
    },
    async delete() {
      throw new SecretStoreError(`The desk cannot change its environment: unset ${ENV_KEY} there instead.`);
    },
  } satisfies SecretStore;
}

/** This run's memory only: for the browser shell where no keychain answers, rather than a plaintext file. */
export function sessionStore(): SecretStore {
  let kept: string | null = null;
  return {
    source: 'session',
    writable: WRITABLE,
    async get() {
      return kept;
    },
    async set(secret) {
      assertStorable(secret);
      kept = secret;
    },
    async delete() {
      kept = null;
    },
  } satisfies SecretStore;
}

// ---------------------------------------------------------------------------------------------
// A file of encrypted bytes (Electron's safeStorage, adapted in src/main/electron)

/** What the file store needs of Electron's `safeStorage`: src/main/electron/safe-storage-store.ts adapts it. */
export interface SecretCipher {
  /** Whether the OS can encrypt now (Electron: only once the app is ready). */
  isEncryptionAvailable(): Promise<boolean>;
  /** Linux's password-store backend as Chromium chose it (`basic_text`, `gnome_libsecret`, …); null on other platforms. */
  backend(): string | null;
  encryptString(plain: string): Promise<Buffer>;
  /** `shouldReEncrypt`: the OS rotated its key, so the bytes should be written again. */
  decryptString(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
}

/** `<dataDir>/secrets/anthropic-api-key.bin`: where the desktop app keeps the encrypted key. */
export function encryptedKeyFileIn(dataDir: string): string {
  return join(dataDir, 'secrets', `${KEY_ACCOUNT}.bin`);
}

/** Why the cipher cannot keep a key safely, or null when it can. */
async function cipherRefusal(cipher: SecretCipher): Promise<string | null> {
  const backend = cipher.backend();
  // basic_text "encrypts" with a key hard-coded in Chromium: the file would be as good as plaintext.
  if (backend === 'basic_text') {
    return `Linux reports no keyring for the desk (safeStorage backend basic_text), so a key kept here would be as readable as plaintext. Start GNOME Keyring or KWallet, or ${USE_ENV}.`;
  }
  if (backend === 'unknown') {
    return `The system's safe storage had not started when the desk asked (backend unknown): restart the desk, or ${USE_ENV}.`;
  }
  if (!(await cipher.isEncryptionAvailable())) {
    return `The system's safe storage cannot encrypt here: ${USE_ENV}.`;
  }
  return null;
}

/**
 * The key encrypted by `cipher` in `file` (mode 0600, written whole through a temporary file and a
 * rename, so a crash leaves the old bytes or the new, never half). Refuses, writing nothing, when
 * the cipher cannot keep it safely; `writable` says why, as found when the store was opened.
 */
export async function openEncryptedFileStore(file: string, cipher: SecretCipher): Promise<SecretStore> {
  const refusal = await cipherRefusal(cipher);
  const write = async (secret: string): Promise<void> => {
    const bytes = await cipher.encryptString(secret);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writePrivately(file, bytes);
  };
  return {
    source: 'safe-storage',
    writable: refusal === null ? WRITABLE : { ok: false, reason: refusal },
    async get() {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new SecretStoreError(`The stored key could not be read: ${scrubbed(error)}`);
      }
      if (bytes.length === 0) return null;
      let decrypted: { result: string; shouldReEncrypt: boolean };
      try {
        decrypted = await cipher.decryptString(bytes);
      } catch (error) {
        throw new SecretStoreError(`The stored key could not be decrypted (enter it again): ${scrubbed(error)}`);
      }
      // Best effort: the key still decrypts today if the rewrite fails.
      if (decrypted.shouldReEncrypt) await write(decrypted.result).catch(() => undefined);
      return decrypted.result || null;
    },
    async set(secret) {
      assertStorable(secret);
      // Asked again, not only at open: the refusal must hold even if the backend changed since.
      const now = await cipherRefusal(cipher);
      if (now !== null) throw new SecretStoreError(now);
      try {
        await write(secret);
      } catch (error) {
        throw new SecretStoreError(`The key could not be stored: ${scrubbed(error, secret)}`);
      }
    },
    async delete() {
      try {
        await rm(file, { force: true });
      } catch (error) {
        throw new SecretStoreError(`The stored key could not be removed: ${scrubbed(error)}`);
      }
    },
  } satisfies SecretStore;
}

// ---------------------------------------------------------------------------------------------
// Choosing stores (the composition roots call these)

/** The stores to read, first holder wins; the store a key entered now goes to, or null with `writeNote` saying why none. */
export interface SecretStores {
  read: SecretStore[];
  write: SecretStore | null;
  /** A sentence for the Settings page: where a key entered now is kept, or why it cannot be. */
  writeNote: string;
}

export const SESSION_NOTE = `No OS keychain here: the key is kept for this run only; set ${ENV_KEY} to keep it`;
const KEYCHAIN_NOTE = 'Kept in the OS keychain.';
const SAFE_STORAGE_NOTE = "Kept encrypted by the system's safe storage in the desk's data folder.";

/**
 * The browser shell's stores, given the keychain if one answered: the keychain, else this run's
 * memory, for writing; for reading, that store and then ANTHROPIC_API_KEY. A key typed into the
 * desk wins over the environment's, so entering one is never silently ignored. Never a file.
 */
export function browserShellStores(keychain: SecretStore | null, env: NodeJS.ProcessEnv): SecretStores {
  const write = keychain ?? sessionStore();
  return { read: [write, environmentStore(env)], write, writeNote: keychain ? KEYCHAIN_NOTE : SESSION_NOTE };
}

/** The browser shell's stores (`npm run web`), probing the OS keychain. */
export async function browserShellSecretStores(env: NodeJS.ProcessEnv, log?: Logger): Promise<SecretStores> {
  return browserShellStores(await openKeychainStore(log ? { log } : {}), env);
}

/**
 * The desktop app's stores, given the keychain if one answered and the encrypted file: read the
 * keychain, then the file (a key kept there while no keychain answered), then ANTHROPIC_API_KEY;
 * write to the keychain, else the file if it can keep a key safely, else nowhere, saying why.
 */
export function desktopStores(keychain: SecretStore | null, encrypted: SecretStore, env: NodeJS.ProcessEnv): SecretStores {
  const read = [...(keychain ? [keychain] : []), encrypted, environmentStore(env)];
  if (keychain) return { read, write: keychain, writeNote: KEYCHAIN_NOTE };
  if (encrypted.writable.ok) return { read, write: encrypted, writeNote: SAFE_STORAGE_NOTE };
  return { read, write: null, writeNote: encrypted.writable.reason };
}

/**
 * The key from the first store that holds one. A store that cannot be read is passed over (and
 * reported to `onUnreadable`, whose error message is safe to log) so the next can still answer.
 */
export async function readSecret(
  stores: SecretStores,
  onUnreadable?: (source: KeySource, error: SecretStoreError) => void,
): Promise<{ secret: string; source: KeySource } | null> {
  for (const store of stores.read) {
    try {
      const secret = await store.get();
      if (secret) return { secret, source: store.source };
    } catch (error) {
      onUnreadable?.(store.source, error instanceof SecretStoreError ? error : new SecretStoreError(`The ${store.source} store could not be read: ${scrubbed(error)}`));
    }
  }
  return null;
}
