import type { Page } from '@playwright/test';
import { DEFAULT_FAKE_KEY, DEFAULT_FAKE_MODELS, textReply, toolUseReply } from '../tests/fakes/messages-api.js';
import { ask, send } from './assistant.js';
import { expect, test } from './fixtures.js';

/**
 * Claude as the assistant's brain, as a new user meets it: the key added on the Settings page,
 * answers streamed from the model (the worker's fake Messages API, real HTTP and SSE), Stop, and
 * the daily budget. Only turns the offline planner is unsure of reach the model, so the questions
 * here are vague ones, and every test checks by the fake's requests that the model was (or was not) asked.
 */

// The rule planner scores these "unsure" (well under the fast path's 0.85), so they go to the model.
const VAGUE = 'kuch naya batao bhai';
const VAGUE_TOO = 'anything interesting happening?';

/** A promise the test settles when it is done looking. */
function released(): { promise: Promise<void>; release: () => void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => { release = resolve; });
  return { promise, release };
}

/**
 * Sentences with no figures in them: the number guard holds back any sentence whose figures no
 * tool result holds, which would make the stream stall instead of grow.
 */
function prose(sentences: number): string {
  const words = ['Your downline looks steady', 'Nobody stands out as unusual', 'The quieter players are still placing bets', 'Credit use looks calm across the book'];
  return Array.from({ length: sentences }, (_, i) => `${words[i % words.length]} in part ${'abcdefghij'[i % 10]}.`).join(' ');
}

test.skip(({ target }) => target === 'electron',
  'the desktop app keeps a saved key in the OS keychain (or safe storage), which a spec must not write to, and its runtime is out of reach of the per-test reset');

async function openSettings(page: Page) {
  // From the assistant, as the panel's own way to its settings.
  if (!(await page.getByTestId('chat-panel').isVisible())) await page.getByTestId('chat-open').click();
  await page.getByTestId('chat-panel').getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

async function saveKey(page: Page, key: string) {
  await page.getByLabel('Anthropic API key').fill(key);
  await page.getByRole('button', { name: 'Save key' }).click();
}

/** Signs in and adds the fake's key through Settings, as every model test begins. */
async function signInWithKey(page: Page, app: { open(): Promise<void>; signIn(): Promise<void> }) {
  await app.open();
  await app.signIn();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await openSettings(page);
  await saveKey(page, DEFAULT_FAKE_KEY);
  await expect(page.getByTestId('settings-key-status')).toHaveAttribute('data-present', 'true');
}


test.describe('Claude assistant', () => {
  test('a key saved in Settings is never shown again, and Check key tells a working key from a refused one', async ({ page, app, model }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await openSettings(page);
    const status = page.getByTestId('settings-key-status');
    await expect(status).toHaveText('No key: the assistant answers offline.');
    await expect(page.getByRole('button', { name: 'Check key' })).toBeDisabled();

    await saveKey(page, DEFAULT_FAKE_KEY);
    await expect(status).toHaveText('A key is stored in this session only.');
    await expect(page.getByLabel('Anthropic API key')).toHaveValue('');
    // Not in the DOM, nor anywhere the page keeps things for later.
    expect(await page.content()).not.toContain(DEFAULT_FAKE_KEY);
    const kept = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(kept).not.toContain(DEFAULT_FAKE_KEY);

    const result = page.getByTestId('settings-key-result');
    await page.getByRole('button', { name: 'Check key' }).click();
    await expect(result).toHaveText(`Key works — ${DEFAULT_FAKE_MODELS.length} models available`);
    expect(model.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
    // The models the key may use are offered from now on.
    await expect(page.getByLabel('Model for reads').locator('option')).toHaveText(DEFAULT_FAKE_MODELS);

    const wrong = 'sk-ant-wrong-key-00000000000';
    await saveKey(page, wrong);
    await expect(page.getByLabel('Anthropic API key')).toHaveValue('');
    await page.getByRole('button', { name: 'Check key' }).click();
    await expect(result).toHaveText('The key was refused by the API.');
    // The wrong key is the one asked about, not a key kept from before.
    expect(model.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${wrong}`);
    expect(await page.content()).not.toContain(wrong);

    await page.getByRole('button', { name: 'Remove key' }).click();
    await expect(status).toHaveText('No key: the assistant answers offline.');
    expect(model.messageCalls()).toBe(0);
  });

  test('an unsure question goes to Claude: the downline card, a streamed answer, and what it cost', async ({ page, app, model }) => {
    await signInWithKey(page, app);
    const answerText = prose(12);
    // The answer's stream waits at a third and at two thirds until the test has looked, so the
    // pending message (it exists only until `done`) is read part-way on any machine.
    const third = released();
    const twoThirds = released();
    model.script(toolUseReply('agent_getDownline', {}), textReply(answerText, { chunkChars: 6, holds: [third.promise, twoThirds.promise] }));

    const turn = await send(page, VAGUE);
    const streaming = turn.pending.locator('.chat-text');
    await expect(streaming).toHaveText(/\S/);
    const early = (await streaming.textContent()) ?? '';
    third.release();
    await expect.poll(async () => {
      const [now] = await streaming.allTextContents();
      return now !== undefined && now.length > early.length && now.startsWith(early);
    }, { message: 'the streamed answer grows while the turn runs' }).toBe(true);
    await expect(turn.pending.getByTestId('card-downline_tree')).toBeVisible();
    twoThirds.release();

    await turn.answered();
    await expect(turn.answer).toHaveAttribute('data-planner', 'claude');
    await expect(turn.answer.getByTestId('card-downline_tree')).toBeVisible();
    await expect(turn.answer.locator('.chat-text')).toHaveText(answerText);
    expect(early.length).toBeLessThan(answerText.length);
    // One call asked for the tool, a second wrote the answer; both named the model the line shows.
    expect(model.messageCalls()).toBe(2);
    const used = model.requests.at(-1)!.body!.model;
    await expect(turn.answer.getByTestId('chat-usage')).toContainText(used);
    await expect(turn.answer.getByTestId('chat-usage')).toContainText(/\$\d|<\$0\.0001/);
    await app.screenshot('claude-streamed');
  });

  test('Stop ends a long answer part way, marked Stopped, and the next question is answered', async ({ page, app, model }) => {
    await signInWithKey(page, app);
    // About a minute of streaming: Stop, not the end of the text, must be what ends this turn.
    const longText = prose(400);
    model.script(textReply(longText, { chunkChars: 6, delayMs: 20 }));

    const turn = await send(page, VAGUE);
    await expect(turn.pending.locator('.chat-text')).toHaveText(/\S/);
    await page.getByRole('button', { name: 'Stop answering' }).click();

    await turn.answered();
    await expect(turn.answer).toHaveAttribute('data-stopped', 'true');
    await expect(turn.answer.getByTestId('chat-stopped')).toHaveText('Stopped');
    const kept = (await turn.answer.locator('.chat-text').textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(longText.length / 2);
    expect(longText.startsWith(kept.trim())).toBe(true);
    await expect(page.getByTestId('chat-input')).toBeEditable();
    expect(model.messageCalls()).toBe(1);

    model.script(textReply('Nothing new since your last look at the book.'));
    const next = await ask(page, VAGUE_TOO);
    await expect(next).toContainText('Nothing new since your last look at the book.');
    await expect(next).not.toHaveAttribute('data-stopped', 'true');
    expect(model.messageCalls()).toBe(2);
  });

  test('once the day\'s budget is spent, the next unsure question is answered offline without a model call', async ({ page, app, model }) => {
    await signInWithKey(page, app);
    // The smallest budget the page takes (a millionth of a dollar): one answer spends it.
    const cost = page.getByLabel('Cost per day (USD)');
    await cost.fill('0.000001');
    await page.getByRole('button', { name: 'Save budgets' }).click();
    await expect(page.getByTestId('settings-budgets-save').locator('xpath=..')).toContainText('Saved.');
    await expect(cost).toHaveValue('0.000001');

    model.script(textReply('Your book is quiet today.'));
    const first = await ask(page, VAGUE);
    await expect(first).toContainText('Your book is quiet today.');
    await expect(first.getByTestId('chat-usage')).toBeVisible();
    expect(model.messageCalls()).toBe(1);

    const second = await ask(page, VAGUE_TOO);
    await expect(second).toContainText(/Today's Claude budget of \S+ is used up, so I answered offline\./);
    await expect(second).not.toHaveAttribute('data-planner', 'claude');
    expect(model.messageCalls()).toBe(1);

    // Settings counts the one turn that spent; the page shows what it loaded until asked to refresh.
    await openSettings(page);
    await page.getByTestId('settings-usage').getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('usage-turns')).toHaveText('1');
  });
});
