import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_MODEL_SETTINGS, KNOWN_MODELS, type ModelSettings, modelId, modelSettingsSchema } from '../../../shared/contracts/model-settings.js';
import { JsonFile } from './json-file.js';

const fileSchema = z.strictObject({
  version: z.literal(1),
  settings: modelSettingsSchema,
  /** What `models.list` last offered for the stored key. */
  listedModels: z.array(modelId).max(100).nullable(),
});
export type StoredModelSettings = z.infer<typeof fileSchema>;

/** The Claude planner's settings (models, budgets; never the key) in `<data>/claude/settings.json`. */
export class ModelSettingsFile {
  private readonly file: JsonFile<typeof fileSchema>;

  constructor(dataDir: string) {
    this.file = new JsonFile(join(dataDir, 'claude', 'settings.json'), fileSchema, () => ({ version: 1 as const, settings: DEFAULT_MODEL_SETTINGS, listedModels: null }));
  }

  read(): Promise<StoredModelSettings> {
    return this.file.read();
  }

  async update(patch: Partial<ModelSettings>): Promise<StoredModelSettings> {
    return this.file.update((current) => ({ ...current, settings: { ...current.settings, ...patch } }));
  }

  async setListedModels(models: string[] | null): Promise<StoredModelSettings> {
    return this.file.update((current) => ({ ...current, listedModels: models }));
  }
}

/** The models to offer: the listed ones when a key was checked, else the ones the price table knows. */
export function modelChoices(stored: StoredModelSettings): string[] {
  return stored.listedModels && stored.listedModels.length > 0 ? stored.listedModels : [...KNOWN_MODELS];
}
