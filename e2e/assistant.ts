import { type Page, expect } from '@playwright/test';

/**
 * Types a question into the assistant and waits for its answer: opens the panel if needed, lets
 * the conversation's history load first (so the last answer before it is known), and returns the
 * new assistant message.
 */
export async function ask(page: Page, text: string) {
  const turn = await send(page, text);
  await turn.answered();
  return turn.answer;
}

/** Sends a question without waiting for its answer (a streaming test looks at the turn while it runs). */
export async function send(page: Page, text: string) {
  const panel = page.getByTestId('chat-panel');
  if (!(await panel.isVisible())) await page.getByTestId('chat-open').click();
  await expect(page.getByTestId('chat-messages')).toHaveAttribute('data-history', 'ready');
  const answer = '[data-testid=chat-message][data-role=assistant]:not([data-pending])';
  const answers = panel.locator(answer);
  // Not by count: once the panel holds its page of messages, each turn's two push out the oldest
  // two. The new answer is the one after the last answer there was.
  const count = await answers.count();
  const previous = count > 0 ? await answers.nth(count - 1).getAttribute('data-message-id') : null;
  const fresh = previous === null ? answers : panel.locator(`[data-message-id=${JSON.stringify(previous)}] ~ ${answer}`);
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  return {
    pending: panel.locator('[data-testid=chat-message][data-pending]'),
    answer: fresh.first(),
    answered: () => expect(fresh).toHaveCount(1),
  };
}
