import { type Page, expect } from '@playwright/test';

/**
 * Types a question into the assistant and waits for its answer: opens the panel if needed, lets
 * the conversation's history load first (so the count of answers is right), and returns the new
 * assistant message.
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
  const answers = panel.locator('[data-testid=chat-message][data-role=assistant]:not([data-pending])');
  const before = await answers.count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  return {
    pending: panel.locator('[data-testid=chat-message][data-pending]'),
    answer: answers.nth(before),
    answered: () => expect(answers).toHaveCount(before + 1),
  };
}
