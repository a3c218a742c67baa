/**
 * Claude as the assistant's brain when the user has added a key: which turns go to it (the fast
 * path keeps confident offline plans off the wire), which model (a fast one for reads, a strong
 * one for changes and unclear requests), the budgets, the key and the usage. Also the Settings
 * page's service. Everything here is plain Node; the key comes from the secret stores the shell
 * chose and is never returned, logged or put in a prompt.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Decision } from '../../../shared/contracts/assistant.js';
import { localDate } from '../../../shared/dates.js';
import type { CheckKeyOutput, ModelSettings, ModelSettingsView } from '../../../shared/contracts/model-settings.js';
import type { Logger } from '../../../infra/log.js';
import { formatMicroUsd } from '../../../shared/usd.js';
import { type SecretStores, SecretStoreError, readSecret } from '../../secrets/secret-store.js';
import type { ToolRegistry } from '../../tools/types.js';
import { type ClaudeTurnInput, type ClaudeTurnResult, claudeTurn } from './claude-turn.js';
import { classifyFailure } from './failures.js';
import { ModelSettingsFile, modelChoices } from './settings-file.js';
import type { ModelSettingsService } from './settings-service.js';
import { UsageLedger } from './usage-ledger.js';
import type { TurnEvent } from '../../../shared/contracts/chat.js';
import type { TokenUsage } from '../../../shared/contracts/model-settings.js';

/** An offline plan at least this sure is answered without a model call. */
export const FAST_PATH_CONFIDENCE = 0.85;
/** Below this the turn is unclear enough for the strong model. */
const UNSURE = 0.6;

export type Route =
  | { kind: 'offline'; reason: null }
  /** The model would have answered, but may not: the chat says why. */
  | { kind: 'offline'; reason: string }
  | { kind: 'model'; model: string; settings: ModelSettings };

export interface ClaudeBrainOptions {
  secrets: SecretStores;
  dataDir: string;
  /** Where ANTHROPIC_BASE_URL is read, as the SDK reads it. */
  env: NodeJS.ProcessEnv;
  registry: ToolRegistry;
  log: Logger;
  /** The longest wait for a streamed event (claude-turn.ts, IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** When a failing model call stops retrying (claude-turn.ts, CALL_DEADLINE_MS). */
  callDeadlineMs?: number;
  random?: () => number;
}

export class ClaudeBrain implements ModelSettingsService {
  private readonly settings: ModelSettingsFile;
  private readonly ledger: UsageLedger;
  private key: Promise<{ secret: string; source: ModelSettingsView['key']['source'] & string } | null> | null = null;
  private client: { secret: string; client: Anthropic } | null = null;

  constructor(private readonly options: ClaudeBrainOptions) {
    this.settings = new ModelSettingsFile(options.dataDir);
    this.ledger = new UsageLedger(options.dataDir);
  }

  /** Whether the offline plan is sure enough to answer without a model. */
  static confident(decision: Decision): boolean {
    if (decision.action === 'direct') return decision.confidence >= 0.9;
    if (decision.action === 'clarify') return decision.confidence >= 0.9;
    return decision.confidence >= FAST_PATH_CONFIDENCE;
  }

  /**
   * Who answers this turn, given the offline planner's decision, whether a change is asked for and
   * the model the conversation started on (null before its first model turn). A prompt cache is one
   * model's own, so a read stays on the conversation's model however unsure its plan: switching
   * would write the whole prefix again instead of reading it. A change goes to the strong model.
   */
  async route(decision: Decision, wantsChange: boolean, timeZone: string, conversationModel: string | null = null): Promise<Route> {
    if (ClaudeBrain.confident(decision)) return { kind: 'offline', reason: null };
    if (!(await this.apiKey())) return { kind: 'offline', reason: null };
    const { settings } = await this.settings.read();
    const spent = await this.ledger.day(usageDay(timeZone));
    if (spent.costMicroUsd >= settings.maxCostPerDayMicroUsd) {
      return { kind: 'offline', reason: `today's Claude budget of ${formatMicroUsd(settings.maxCostPerDayMicroUsd)} is used up` };
    }
    if (wantsChange) return { kind: 'model', model: settings.strongModel, settings };
    // Only a model the settings still name: one changed in Settings since is not kept.
    const kept = conversationModel === settings.fastModel || conversationModel === settings.strongModel ? conversationModel : null;
    return { kind: 'model', model: kept ?? (decision.confidence < UNSURE ? settings.strongModel : settings.fastModel), settings };
  }

  /** Runs the turn through Claude (the key must be present: `route` said so). */
  async *turn(input: Omit<ClaudeTurnInput, 'model' | 'settings'>, route: Extract<Route, { kind: 'model' }>): AsyncGenerator<TurnEvent, ClaudeTurnResult> {
    const client = await this.anthropic();
    if (!client) throw new Error('no API key');
    return yield* claudeTurn({ ...input, model: route.model, settings: route.settings }, {
      client, registry: this.options.registry,
      ...(this.options.idleTimeoutMs !== undefined && { idleTimeoutMs: this.options.idleTimeoutMs }),
      ...(this.options.callDeadlineMs !== undefined && { callDeadlineMs: this.options.callDeadlineMs }),
      ...(this.options.random && { random: this.options.random }),
    });
  }

  /** Adds a turn's usage to its day (the user's calendar day: the key costs real money on real days). */
  async record(timeZone: string, usage: TokenUsage): Promise<void> {
    await this.ledger.add(usageDay(timeZone), usage);
  }

  // ── the Settings page ───────────────────────────────────────────────────────────────────────

  async view(timeZone: string): Promise<ModelSettingsView> {
    const today = usageDay(timeZone);
    const [stored, key, usage] = await Promise.all([this.settings.read(), this.apiKey(), this.ledger.day(today)]);
    const { write, writeNote } = this.options.secrets;
    return {
      key: { present: key !== null, source: key?.source ?? null, storage: write?.source ?? null, storageNote: write ? (write.source === 'session' ? writeNote : '') : writeNote },
      settings: stored.settings,
      models: modelChoices(stored),
      usageToday: { day: today, ...usage },
    };
  }

  async setApiKey(key: string, timeZone: string): Promise<ModelSettingsView> {
    const store = this.options.secrets.write;
    if (!store) throw new SecretStoreError(this.options.secrets.writeNote || 'there is nowhere safe to keep a key here');
    if (!store.writable.ok) throw new SecretStoreError(store.writable.reason);
    await store.set(key);
    this.forgetKey();
    await this.settings.setListedModels(null);
    this.options.log.info('api key stored', { source: store.source });
    return this.view(timeZone);
  }

  async deleteApiKey(timeZone: string): Promise<ModelSettingsView> {
    await this.options.secrets.write?.delete();
    this.forgetKey();
    await this.settings.setListedModels(null);
    this.options.log.info('api key removed');
    return this.view(timeZone);
  }

  async checkKey(): Promise<CheckKeyOutput> {
    const client = await this.anthropic();
    if (!client) return { ok: false, reason: 'No key is stored.' };
    try {
      const models: string[] = [];
      for await (const model of client.models.list({ limit: 100 }, { maxRetries: 1, timeout: 15_000 })) {
        if (/^claude-[a-z0-9][a-z0-9.-]{0,62}$/.test(model.id)) models.push(model.id);
        if (models.length >= 100) break;
      }
      await this.settings.setListedModels(models);
      return { ok: true, models };
    } catch (error) {
      const failure = classifyFailure(error, 0, false);
      this.options.log.warn('api key check failed', { kind: failure.kind });
      return { ok: false, reason: failure.kind === 'auth' ? 'The key was refused by the API.' : `The API did not answer: ${failure.reason}.` };
    }
  }

  async update(patch: Partial<ModelSettings>, timeZone: string): Promise<ModelSettingsView> {
    await this.settings.update(patch);
    return this.view(timeZone);
  }

  // ── the key ────────────────────────────────────────────────────────────────────────────────

  private apiKey() {
    this.key ??= readSecret(this.options.secrets, (source, error) => this.options.log.warn('secret store unreadable', { source, err: error.message }))
      .catch((error: unknown) => {
        this.options.log.warn('api key not read', { err: error instanceof Error ? error.message : 'unknown' });
        this.key = null;
        return null;
      });
    return this.key;
  }

  private forgetKey(): void {
    this.key = null;
    this.client = null;
  }

  private async anthropic(): Promise<Anthropic | null> {
    const key = await this.apiKey();
    if (!key) return null;
    if (this.client?.secret !== key.secret) {
      // The SDK's conventions: ANTHROPIC_BASE_URL names another endpoint (a proxy, a test server).
      // Retries are the turn's own (failures.ts), which know what has been shown.
      this.client = { secret: key.secret, client: new Anthropic({ apiKey: key.secret, baseURL: this.options.env.ANTHROPIC_BASE_URL?.trim() || 'https://api.anthropic.com', maxRetries: 0 }) };
    }
    return this.client.client;
  }
}

const usageDay = (timeZone: string): string => localDate(new Date(), timeZone);
