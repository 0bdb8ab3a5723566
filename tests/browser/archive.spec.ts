// The archive as a player meets it: a finished game is listed under "Your
// games" and replays on the 3D board by buttons, keys and the move list; an
// unknown game is a 404 page.
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { startVsAi, status, clickSquare, waitForTurnOrEnd, waitForNewVersion, resign } from './support/board';

test('a finished game is in "Your games" and replays move by move', async ({ page, consoleErrors }, info) => {
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  // Two moves of ours (the AI answers each), then resign.
  for (let i = 0; i < 2; i++) {
    await waitForTurnOrEnd(page);
    const before = await status(page);
    await clickSquare(page, before.legal[0]);
    await waitForNewVersion(page, before.version);
  }
  await waitForTurnOrEnd(page);
  await resign(page);
  await expect(page.locator('#turn')).toContainText('White wins');

  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  const line = page.locator('#my-games .game-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('AI (depth 1)');
  await expect(line).toContainText('White won');
  await line.locator('a').click();
  await page.waitForURL(/\/game\/[0-9a-f]+$/);
  await waitForIsland(page);

  // It opens at the end: four placements (ours and the AI's), then resign.
  await expect(page.locator('#game-position')).toContainText('Move 4 of 4');
  await expect(page.locator('#game-result')).toContainText('White won by resignation (');
  await expect(page.locator('#game-you')).toBeVisible();
  await expect(page.locator('#game-moves li')).toHaveCount(4);
  await screenshot(page, info, 'game-replay');

  // Home: the start position on the board.
  await page.keyboard.press('Home');
  await expect(page.locator('#game-position')).toContainText('The start position');
  await expect.poll(async () => (await status(page)).drawnVersion).toBeGreaterThan(0);
  await expect(page.locator('#black-count')).toHaveText('2');
  await expect(page.locator('#white-count')).toHaveText('2');
  await expect(page.locator('#replay-first')).toBeDisabled();
  // → and the button step forward; a click in the list jumps.
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#game-position')).toContainText('Move 1 of 4: Black');
  await expect(page.locator('#black-count')).toHaveText('4');
  await page.click('#replay-forward');
  await expect(page.locator('#game-position')).toContainText('Move 2 of 4: White');
  await page.click('#game-moves button[data-ply="4"]');
  await expect(page.locator('#game-position')).toContainText('Move 4 of 4');
  await expect(page.locator('#replay-last')).toBeDisabled();
  await page.click('#replay-back');
  await expect(page.locator('#game-position')).toContainText('Move 3 of 4');
  await expect(page.locator('#game-ggf')).toHaveAttribute('href', /\/game\/[0-9a-f]+\/export\.ggf$/);
  const gameUrl = page.url();

  // Signing up brings the game along; the public profile shows it.
  const name = `a${Date.now().toString(36).slice(-8)}`;
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', 'violet kettle marches sideways');
  await page.click('#sign-up');
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`/@/${name.toUpperCase()}`);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#profile-name')).toHaveText(name);
  await expect(page.locator('#profile-results')).toContainText('lost: 1');
  await expect(page.locator('#profile-games .game-line')).toHaveCount(1);
  await screenshot(page, info, 'profile');
  await page.goto(gameUrl);
  await waitForIsland(page);
  await expect(page.locator(`#game-black a[href="/@/${name}"]`)).toHaveText(name);
  expect(consoleErrors).toEqual([]);
});

test('an unknown game or player is a 404 page, not an error', async ({ page }) => {
  const response = await page.goto('/game/00000000deadbeef');
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Game not found');
  await expect(page.locator('[role=alert]')).toContainText('No such game');
  const player = await page.goto('/@/nobody_here');
  expect(player?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Player not found');
});
