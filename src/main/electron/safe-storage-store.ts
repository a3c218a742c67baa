/**
 * The desktop app's key stores: the OS keychain, else Electron's safeStorage encrypting a file in
 * the data folder. This file only adapts `safeStorage` to the `SecretCipher` the file store takes;
 * the store and the choice of stores are in src/main/secrets/secret-store.ts, where they are tested.
 */
import { app, safeStorage } from 'electron';
import type { Logger } from '../../infra/log.js';
import {
  type SecretCipher, type SecretStore, type SecretStores, desktopStores, encryptedKeyFileIn, openEncryptedFileStore, openKeychainStore,
} from '../secrets/secret-store.js';

/** The async safeStorage calls: Electron 45 deprecates the synchronous ones. */
export const safeStorageCipher: SecretCipher = {
  isEncryptionAvailable: () => safeStorage.isAsyncEncryptionAvailable(),
  // Only Linux has a choice of backend; elsewhere the call does not exist.
  backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null),
  encryptString: (plain) => safeStorage.encryptStringAsync(plain),
  decryptString: (encrypted) => safeStorage.decryptStringAsync(encrypted),
};

/** The key encrypted by safeStorage in `file`; safeStorage answers only once the app is ready, so this waits for it. */
export async function openSafeStorageStore(file: string): Promise<SecretStore> {
  await app.whenReady();
  return openEncryptedFileStore(file, safeStorageCipher);
}

/** The keychain, else safeStorage in `<dataDir>/secrets/anthropic-api-key.bin`; ANTHROPIC_API_KEY last for reading. */
export async function desktopSecretStores(dataDir: string, env: NodeJS.ProcessEnv, log?: Logger): Promise<SecretStores> {
  const [keychain, encrypted] = await Promise.all([openKeychainStore(log ? { log } : {}), openSafeStorageStore(encryptedKeyFileIn(dataDir))]);
  return desktopStores(keychain, encrypted, env);
}
