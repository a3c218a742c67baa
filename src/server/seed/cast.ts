import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isValidTimeZone } from '../../shared/dates.js';

/** The cast file is input from outside the code: it is validated before anything is built from it. */
const points = z.number().int().nonnegative();
const castAccount = z.object({
  username: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  role: z.enum(['platform_admin', 'agent', 'player']),
  parent: z.string().nullable(),
  shareBps: z.number().int().min(0).max(10_000).optional(),
  commissionBps: z.number().int().min(0).max(10_000).optional(),
  creditLimit: points.optional(),
  timezone: z.string().refine(isValidTimeZone, 'unknown timezone').optional(),
  password: z.string().min(1).optional(),
  notes: z.string().max(2000).optional(),
}).strict();

const castMarket = z.object({
  name: z.string().min(1),
  status: z.enum(['open', 'settled']),
  outcomes: z.array(z.string().min(1)).min(2),
  winner: z.string().optional(),
}).strict().refine((m) => (m.status === 'settled') === (m.winner !== undefined) && (!m.winner || m.outcomes.includes(m.winner)), 'a settled market names one of its outcomes as winner');

export const castSchema = z.object({
  about: z.string().optional(),
  now: z.iso.datetime({ offset: true }),
  accounts: z.array(castAccount).min(1),
  teams: z.array(z.object({ name: z.string().min(1), short: z.array(z.string().min(1)) }).strict()),
  fixtures: z.array(z.object({
    name: z.string().regex(/ vs /),
    sport: z.string().min(1),
    startsAt: z.iso.datetime({ offset: true }),
    status: z.enum(['scheduled', 'live', 'finished']),
    markets: z.array(castMarket).min(1),
  }).strict()),
  facts: z.array(z.string()).optional(),
}).strict();

export type Cast = z.infer<typeof castSchema>;
export type CastAccount = Cast['accounts'][number];

export const DEFAULT_CAST_PATH = new URL('./cast.json', import.meta.url);

export function loadCast(path: string | URL = DEFAULT_CAST_PATH): Cast {
  return castSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
