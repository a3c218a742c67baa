import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (m=19 MiB, t=2), OWASP's baseline. */
export async function hashPassword(password: string, salt?: Uint8Array): Promise<string> {
  return hash(password, salt ? { salt } : {});
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
