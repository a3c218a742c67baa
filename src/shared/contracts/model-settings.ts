/**
 * The Claude planner's settings as the Settings page and main exchange them: which models, the
 * budgets, the usage so far, and where the API key is kept. The key itself crosses to main once,
 * in `setApiKeyInput`, and never comes back: the view says only whether one is stored and where.
 */
import { z } from 'zod';

/** The models the desk knows the prices of (USD per million tokens, src/main/assistant/claude/prices.ts). */
export const KNOWN_MODELS = ['claude-haiku-5-5', 'claude-sonnet-5-5', 'claude-opus-5-5'] as const;

export const modelId = z.string().regex(/^claude-[a-z0-9][a-z0-9.-]{0,62}$/, 'not a Claude model id');

/** Cost is kept in whole micro-dollars (1 USD = 1,000,000), so sums are exact. */
export const microUsd = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const settingFields = {
  /** Answers reads: fast and cheap. */
  fastModel: modelId,
  /** Plans proposals and turns the offline planner is unsure of. */
  strongModel: modelId,
  /** Input plus output tokens one turn may spend across its model calls. */
  maxTokensPerTurn: z.number().int().min(1_000).max(2_000_000),
  /** What the key may cost in one day (the user's day), in micro-dollars. */
  maxCostPerDayMicroUsd: microUsd.max(1_000_000_000),
};

export const modelSettingsSchema = z.strictObject({
  fastModel: settingFields.fastModel.default('claude-haiku-5-5'),
  strongModel: settingFields.strongModel.default('claude-sonnet-5-5'),
  maxTokensPerTurn: settingFields.maxTokensPerTurn.default(100_000),
  maxCostPerDayMicroUsd: settingFields.maxCostPerDayMicroUsd.default(2_000_000),
});
/** A change of some settings: what is absent stays as it is (no defaults here, unlike the stored form). */
export const modelSettingsPatch = z.strictObject(settingFields).partial();
export type ModelSettings = z.infer<typeof modelSettingsSchema>;
export const DEFAULT_MODEL_SETTINGS: ModelSettings = modelSettingsSchema.parse({});

export const tokenUsageSchema = z.strictObject({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  costMicroUsd: microUsd,
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** What one turn's model calls used, shown under the turn's answer. */
export const turnUsageSchema = tokenUsageSchema.extend({
  models: z.array(modelId).max(4),
  calls: z.number().int().nonnegative(),
});
export type TurnUsage = z.infer<typeof turnUsageSchema>;

/** Where the key lives: the OS keychain, Electron's safeStorage, the environment, or this run only. */
export const keySource = z.enum(['keychain', 'safe-storage', 'environment', 'session']);
export type KeySource = z.infer<typeof keySource>;

export const modelSettingsView = z.strictObject({
  key: z.strictObject({
    present: z.boolean(),
    source: keySource.nullable(),
    /** Where a key entered now would be kept, or null with `storageNote` saying why none can be. */
    storage: keySource.nullable(),
    storageNote: z.string().max(300),
  }),
  settings: modelSettingsSchema,
  /** Models to choose from: from `models.list` once a key has been checked, else the known ones. */
  models: z.array(modelId).max(100),
  usageToday: tokenUsageSchema.extend({ day: z.iso.date(), turns: z.number().int().nonnegative() }),
});
export type ModelSettingsView = z.infer<typeof modelSettingsView>;

export const setApiKeyInput = z.strictObject({
  // Printable ASCII only: a key pasted with a newline or a space around it is trimmed, anything else refused.
  key: z.string().trim().min(20, 'that is too short to be an API key').max(400).regex(/^[\x21-\x7e]+$/, 'an API key has no spaces or special characters'),
});

export const checkKeyOutput = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), models: z.array(modelId).max(100) }),
  z.strictObject({ ok: z.literal(false), reason: z.string().max(300) }),
]);
export type CheckKeyOutput = z.infer<typeof checkKeyOutput>;

export const stopTurnInput = z.strictObject({ requestId: z.string().min(1).max(64) });
