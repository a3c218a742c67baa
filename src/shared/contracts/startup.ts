import { z } from 'zod';

/** The steps of writing a new demo book, in order (`src/server/backend.ts` reports them). */
export const BOOK_STAGES = ['database', 'generating', 'writing', 'indexing'] as const;
export type BookStage = (typeof BOOK_STAGES)[number];

/** How far the writing of a new book has got: the step, and the share of the whole done so far. */
export interface BookProgress {
  stage: BookStage;
  percent: number;
}

/**
 * What the browser shell says of its backend while the login page waits (`GET /startup`):
 * opening a book that exists, writing a new one, or ready.
 */
export const startupStateSchema = z.discriminatedUnion('phase', [
  z.strictObject({ phase: z.literal('opening') }),
  z.strictObject({ phase: z.literal('creating'), stage: z.enum(BOOK_STAGES), percent: z.number().int().min(0).max(100) }),
  z.strictObject({ phase: z.literal('ready') }),
]);
export type StartupState = z.infer<typeof startupStateSchema>;

/**
 * `GET /startup`'s answer: the backend's state, and whether the asking page's slot holds a
 * session. A page of a shell that has just started has none; knowing that from this address, the
 * login page shows while the desk itself (which waits for the runtime to load) cannot yet answer.
 */
export const startupAnswerSchema = z.intersection(startupStateSchema, z.object({ signedIn: z.boolean() }));
export type StartupAnswer = z.infer<typeof startupAnswerSchema>;
