import type { CheckKeyOutput, ModelSettings, ModelSettingsView } from '../../../shared/contracts/model-settings.js';

/**
 * The Settings page's side of the Claude planner: the key (stored, checked, deleted; never
 * read back), the models and budgets, and the usage so far. The desk router calls only this.
 */
export interface ModelSettingsService {
  /** `timeZone`: the user's, whose calendar day the usage is summed over. */
  view(timeZone: string): Promise<ModelSettingsView>;
  /** Keeps the key in the secret store; the reply says where, never what. */
  setApiKey(key: string, timeZone: string): Promise<ModelSettingsView>;
  deleteApiKey(timeZone: string): Promise<ModelSettingsView>;
  /** Asks the API whether the stored key works (`models.list`); the models it lists become the choices. */
  checkKey(): Promise<CheckKeyOutput>;
  update(patch: Partial<ModelSettings>, timeZone: string): Promise<ModelSettingsView>;
}
