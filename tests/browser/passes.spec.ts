// Passes are seen and heard against the AI, on a table started from a
// position (OBF) given to the lobby as `/?from=`; a bad position is refused.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare, status } from './support/board';

/**
 * Black (the human) to move with one move, b8; white's only reply leaves black
 * without a move, so black passes and the AI (white) plays again; then black
 * can move.
 */
const HUMAN_MUST_PASS = 'XXXXXX--XXOXXXOOXOXXXOOOXOOXOOOOXOXOOOOOOOOOOOOOXOOOOOOO--OOOOOO X';
const B8 = 57;

test("against the AI, the human's pass stays on screen, is announced and is in the move list", async ({ page, consoleErrors }, info) => {
  test.setTimeout(180_000);
  // Record everything the aria-live announcer says.
  await page.addInitScript(() => {
    (window as any).__said = [];
    new MutationObserver(() => {
      const text = document.querySelector('#announcer')?.textContent ?? '';
      if (text) (window as any).__said.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`/?from=${encodeURIComponent(HUMAN_MUST_PASS)}`);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#start-obf')).toHaveValue(HUMAN_MUST_PASS);
  await expect(page.locator('#more-choices')).toHaveAttribute('open', '');
  await page.selectOption('#ai-depth', '2');
  await page.check('#play-black');
  await page.click('#start-obf-ai');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await page.waitForFunction((q) => (window as any).othello3d?.status()?.legal.includes(q), B8);
  await clickSquare(page, B8);

  // The AI replies, black must pass, the AI plays again: black to move.
  await expect(page.locator('#turn')).toContainText('Your move (Black)', { timeout: 60_000 });
  const history = page.locator('#history li');
  await expect(history).toHaveCount(4);
  await expect(history.nth(2)).toContainText('Black passes (no legal move)');
  await expect(history.nth(2)).toContainText('3.');
  // The notice survived the AI's second move.
  await expect(page.locator('#notice')).toHaveText('Black has no legal move and passes; White plays again.');
  await page.waitForFunction(() =>
    ((window as any).__said as string[]).some((t) => t.includes('Black has no legal move and passes.')),
  );
  const s = await status(page);
  expect(s.legal.length).toBeGreaterThan(0);
  await page.locator('details.history summary').click();
  await screenshot(page, info, 'vs-ai-pass-notice');
  saveResult(info, 'vs-ai-pass', { said: await page.evaluate(() => (window as any).__said) });

  // The human's own next move clears the notice.
  await clickSquare(page, s.legal[0]);
  await expect(page.locator('#notice')).not.toContainText('Black has no legal move');
  expect(consoleErrors).toEqual([]);
});

test('a malformed position gets a clear message and creates nothing', async ({ page, consoleErrors }, info) => {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  // "Start from a position" is under the lobby's "More ways to start".
  await page.click('#more-choices > summary');
  await page.fill('#start-obf', 'this is not a position');
  await page.click('#start-obf-hot-seat');
  await expect(page.locator('.lobby .error')).toContainText('not a valid OBF position');
  await page.fill('#start-obf', `${'-'.repeat(64)} X`);
  await page.click('#start-obf-ai');
  await expect(page.locator('.lobby .error')).toContainText('cannot happen in Othello');
  expect(new URL(page.url()).pathname).toBe('/');
  await page.locator('#from-position').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'lobby-from-position');
  // The two refusals are 422 answers to create_table_from; nothing else failed.
  const refusals = consoleErrors.filter((e) => /^HTTP 422 .*\/api\/create_table_from$/.test(e));
  expect(refusals).toHaveLength(2);
  expect(consoleErrors.filter((e) => !/^HTTP 422 |status of 422/.test(e))).toEqual([]);
});
