/**
 * Who the MCP server acts for: one desk user, signed in with AGENT_DESK_USER / AGENT_DESK_PASSWORD
 * (for scripts) or with the login kept in the OS keychain by `npm run mcp -- login`. The backend
 * alone decides when a session has ended (its clock may not be ours): an UNAUTHORIZED answer
 * makes the next call sign in again. The session is opened in the `requests` scope: it reads and
 * asks for changes, and the backend refuses it any write or any answer to an approval.
 */
import { TRPCClientError } from '@trpc/client';
import { z } from 'zod';
import { loginInput } from '../../shared/contracts/agent-api.js';
import type { Logger } from '../../infra/log.js';
import type { TurnCaller } from '../assistant/chat-service.js';
import type { BackendConnection } from '../backend/connection.js';
import { KEY_SERVICE, type SecretStore, SecretStoreError, openKeychainStore } from '../secrets/secret-store.js';

/** The keychain entry (service `agent-desk`) holding the MCP server's login as JSON. */
export const MCP_LOGIN_ACCOUNT = 'mcp-login';

export type Credentials = z.infer<typeof loginInput>;

export class McpSignInError extends Error {
  override readonly name = 'McpSignInError';
}

const HOW = 'set AGENT_DESK_USER and AGENT_DESK_PASSWORD, or keep a login in the OS keychain with `npm run mcp -- login`';

export function openLoginStore(log?: Logger): Promise<SecretStore | null> {
  return openKeychainStore({ service: KEY_SERVICE, account: MCP_LOGIN_ACCOUNT, ...(log && { log }) });
}

/** The environment's login first (scripts), else the keychain's; neither is an error that says what to do. */
export async function credentialsFrom(env: NodeJS.ProcessEnv, keychain: SecretStore | null): Promise<Credentials> {
  const username = env.AGENT_DESK_USER?.trim();
  const password = env.AGENT_DESK_PASSWORD;
  if (username && password) return parsed({ username, password }, 'AGENT_DESK_USER / AGENT_DESK_PASSWORD');
  if (username || password) throw new McpSignInError(`only one of AGENT_DESK_USER and AGENT_DESK_PASSWORD is set: ${HOW}`);
  let kept: string | null;
  try {
    kept = keychain ? await keychain.get() : null;
  } catch (error) {
    throw new McpSignInError(`the OS keychain could not be read (${error instanceof SecretStoreError ? error.message : 'unknown error'}): ${HOW}`);
  }
  if (!kept) throw new McpSignInError(`no login for the MCP server: ${HOW}`);
  let json: unknown;
  try {
    json = JSON.parse(kept);
  } catch {
    throw new McpSignInError(`the keychain's MCP login is not readable: run \`npm run mcp -- login\` again`);
  }
  return parsed(json, 'the keychain\'s MCP login');
}

function parsed(value: unknown, where: string): Credentials {
  const result = loginInput.safeParse(value);
  if (!result.success) throw new McpSignInError(`${where} is not a valid login: ${z.prettifyError(result.error)}`);
  return result.data;
}

export class McpSession {
  #current: TurnCaller | null = null;
  #pending: Promise<TurnCaller> | null = null;

  constructor(private readonly backend: BackendConnection, private readonly credentials: Credentials, private readonly log: Logger) {}

  /** The signed-in caller, signing in (once, however many calls wait) when there is no live session. */
  caller(): Promise<TurnCaller> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#pending ??= this.#signIn().finally(() => { this.#pending = null; });
    return this.#pending;
  }

  /** The backend ended the session (UNAUTHORIZED): the next call signs in again. */
  forget(): void {
    this.#current = null;
  }

  async #signIn(): Promise<TurnCaller> {
    let out;
    try {
      out = await this.backend.client(null).auth.login.mutate({ ...this.credentials, scope: 'requests' });
    } catch (error) {
      const reason = error instanceof TRPCClientError ? error.message : 'the backend could not be reached';
      throw new McpSignInError(`sign-in as ${this.credentials.username} failed: ${reason}`);
    }
    if (out.user.role === 'player') throw new McpSignInError(`${out.user.username} is a player: the desk's tools are for agents`);
    this.log.info('mcp signed in', { user: out.user.username, role: out.user.role });
    this.#current = { user: out.user, api: this.backend.client(out.token) };
    return this.#current;
  }

  async close(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (current) await current.api.auth.logout.mutate().catch(() => undefined);
  }
}
