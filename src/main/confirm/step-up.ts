/**
 * Step-up for large changes: a proposal above a threshold is confirmed only with the user's
 * password typed again (checked by the backend, behind its sign-in throttle), and lives a minute
 * instead of five. The rule reads the preview card, so it applies the same way wherever a card
 * is answered: a chat proposal here, an MCP approval in the desk's Approvals page.
 *
 * Why a card and not the tool's arguments: the card is what the user is shown and what both
 * paths keep (the nonce store beside the frozen call, the backend's approval row), and it states
 * the change's size in one place per kind — a limit's new value, a settlement's amount, what a
 * hedge can lose — where the arguments may not (a settlement of the whole take has no amount).
 */
import { TRPCClientError } from '@trpc/client';
import { z } from 'zod';
import type { Card } from '../../shared/contracts/assistant.js';
import { MAX_INPUT_PAISA } from '../../shared/contracts/bounds.js';
import { PAISA_PER_POINT, type Paisa } from '../../shared/money.js';
import { type BackendClient, callOptions } from '../backend/connection.js';
import { isBackendUnreachable } from '../backend/unreachable.js';

/** Strictly above these a change is large: a limit's new value, and a settlement's or hedge's money. */
export interface StepUpRule {
  limitPaisa: Paisa;
  amountPaisa: Paisa;
}

export const DEFAULT_STEP_UP_LIMIT_POINTS = 100_000;
export const DEFAULT_STEP_UP_AMOUNT_POINTS = 50_000;

export const DEFAULT_STEP_UP_RULE: StepUpRule = {
  limitPaisa: DEFAULT_STEP_UP_LIMIT_POINTS * PAISA_PER_POINT,
  amountPaisa: DEFAULT_STEP_UP_AMOUNT_POINTS * PAISA_PER_POINT,
};

/** How long a large change's proposal can be answered: long enough to type a password, short enough that the preview is fresh. */
export const STEP_UP_TTL_MS = 60_000;

const points = z.string().trim()
  .regex(/^\d{1,13}$/, 'must be a whole number of points (digits only)')
  .transform(Number)
  .pipe(z.number().int().min(0).max(MAX_INPUT_PAISA / PAISA_PER_POINT));

const stepUpEnv = z.object({
  STEP_UP_LIMIT_POINTS: points.optional(),
  STEP_UP_AMOUNT_POINTS: points.optional(),
});

/**
 * STEP_UP_LIMIT_POINTS and STEP_UP_AMOUNT_POINTS, checked once at start-up; unset or empty: the
 * defaults (100,000 and 50,000 points). 0 asks for the password on every such change.
 */
export function stepUpRuleFromEnv(env: NodeJS.ProcessEnv): StepUpRule {
  const present = (name: keyof z.infer<typeof stepUpEnv>) => (env[name]?.trim() ? env[name] : undefined);
  const parsed = stepUpEnv.safeParse({ STEP_UP_LIMIT_POINTS: present('STEP_UP_LIMIT_POINTS'), STEP_UP_AMOUNT_POINTS: present('STEP_UP_AMOUNT_POINTS') });
  if (!parsed.success) throw new Error(`step-up configuration: ${z.prettifyError(parsed.error)}`);
  return {
    limitPaisa: (parsed.data.STEP_UP_LIMIT_POINTS ?? DEFAULT_STEP_UP_LIMIT_POINTS) * PAISA_PER_POINT,
    amountPaisa: (parsed.data.STEP_UP_AMOUNT_POINTS ?? DEFAULT_STEP_UP_AMOUNT_POINTS) * PAISA_PER_POINT,
  };
}

/**
 * Whether confirming the change a preview card shows needs the password again: a limit set above
 * the limit threshold; a settlement, or a hedge that can lose (its stake, or its liability when
 * laying), above the amount threshold. Any other card (a report share) never does.
 */
export function needsStepUp(card: Card, rule: StepUpRule): boolean {
  switch (card.type) {
    case 'diff_card': return card.data.after > rule.limitPaisa;
    case 'settlement_summary': return card.data.amount > rule.amountPaisa;
    case 'bet_slip': return Math.max(card.data.stake, card.data.liability ?? 0) > rule.amountPaisa;
    default: return false;
  }
}

export type StepUpRefusal = 'password_needed' | 'wrong_password' | 'throttled' | 'unavailable';

/**
 * A confirmation turned down for its password. Nothing ran and the proposal is still open (until
 * it expires): the message says so in words the user can act on.
 */
export class StepUpRefused extends Error {
  override readonly name = 'StepUpRefused';
  constructor(readonly reason: StepUpRefusal, message: string) {
    super(message);
  }
}

const STILL_OPEN = 'Nothing was changed; the proposal is still open until it expires.';

/** Checks the password with the backend (as the session's user); throws StepUpRefused when it is missing or not accepted. */
export async function verifyStepUp(api: BackendClient, password: string | undefined, requestId: string): Promise<void> {
  if (!password) throw new StepUpRefused('password_needed', `This is a large change: type your password to confirm it. ${STILL_OPEN}`);
  try {
    await api.auth.verifyPassword.mutate({ password }, callOptions(requestId));
  } catch (error) {
    if (isBackendUnreachable(error)) {
      throw new StepUpRefused('unavailable', `The backend is unreachable right now, so your password could not be checked. ${STILL_OPEN}`);
    }
    const code = error instanceof TRPCClientError ? (error.data as { code?: unknown } | undefined)?.code : undefined;
    if (code === 'FORBIDDEN') throw new StepUpRefused('wrong_password', `${sentence(error as Error)} ${STILL_OPEN}`);
    if (code === 'TOO_MANY_REQUESTS') throw new StepUpRefused('throttled', `${sentence(error as Error)} ${STILL_OPEN}`);
    throw error;
  }
}

/** The backend's refusal as a sentence of its own: capitalised, ending in a full stop. */
function sentence(error: Error): string {
  const text = error.message.trim().replace(/[.\s]+$/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
