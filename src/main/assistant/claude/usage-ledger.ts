/**
 * What the key has cost, per day (the user's day): the Settings page's "usage today" and the
 * daily budget read it. Kept in `<data>/claude/usage.json`, the last 92 days.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { type TokenUsage, tokenUsageSchema } from '../../../shared/contracts/model-settings.js';
import { JsonFile } from './json-file.js';
import { NO_USAGE, addUsage } from './prices.js';

const dayUsage = tokenUsageSchema.extend({ turns: z.number().int().nonnegative() });
export type DayUsage = z.infer<typeof dayUsage>;
const fileSchema = z.strictObject({ version: z.literal(1), days: z.record(z.iso.date(), dayUsage) });
const KEPT_DAYS = 92;

export class UsageLedger {
  private readonly file: JsonFile<typeof fileSchema>;

  constructor(dataDir: string) {
    this.file = new JsonFile(join(dataDir, 'claude', 'usage.json'), fileSchema, () => ({ version: 1 as const, days: {} }));
  }

  async day(day: string): Promise<DayUsage> {
    return (await this.file.read()).days[day] ?? { ...NO_USAGE, turns: 0 };
  }

  /** Adds one turn's usage to its day. */
  async add(day: string, usage: TokenUsage): Promise<DayUsage> {
    const saved = await this.file.update((current) => {
      const before = current.days[day] ?? { ...NO_USAGE, turns: 0 };
      const days = { ...current.days, [day]: { ...addUsage(before, usage), turns: before.turns + 1 } };
      const kept = Object.keys(days).sort().slice(-KEPT_DAYS);
      return { version: 1, days: Object.fromEntries(kept.map((d) => [d, days[d]!])) };
    });
    return saved.days[day]!;
  }
}
