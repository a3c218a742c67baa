import { type StartupAnswer, startupAnswerSchema } from '../../../shared/contracts/startup';

/**
 * What the browser shell says of itself (`GET /startup`): how far its backend has got, and whether
 * this page's slot holds a session. Null in the desktop app (no such address: its window opens
 * once the book is open) and when the shell cannot answer.
 */
export async function readStartup(): Promise<StartupAnswer | null> {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return null;
  try {
    const response = await fetch('/startup', { cache: 'no-store' });
    const parsed = startupAnswerSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
