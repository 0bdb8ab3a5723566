// Accounts as a player meets them: play first, sign up later (the game in
// progress comes along), a guessable password refused with a reason, the
// same account in another browser playing the same game, signing out.
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { startHotSeat, status, clickSquare, waitForNewVersion } from './support/board';

const PASSWORD = 'violet kettle marches sideways';

async function playFirstLegal(page: import('@playwright/test').Page) {
  const before = await status(page);
  expect(before.legal.length, 'the viewer may move').toBeGreaterThan(0);
  await clickSquare(page, before.legal[0]);
  await waitForNewVersion(page, before.version);
}

test('a player signs up mid-game, keeps the game and plays it on in another browser', async ({ page, browser, consoleErrors }, info) => {
  const name = `p${Date.now().toString(36).slice(-8)}`;
  // Anonymous play first: a hot-seat game with one move.
  await startHotSeat(page);
  await waitForIsland(page);
  const table = page.url();
  await playFirstLegal(page);

  // The lobby's top bar offers "Sign in"; the account page has both forms.
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#account-link')).toHaveText('Sign in');
  await page.click('#account-link');
  await page.waitForURL(/\/account$/);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#sign-in-form')).toBeVisible();
  await screenshot(page, info, 'account-forms');

  // A guessable password is refused with its reason; nothing is created.
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', 'password1234');
  await page.click('#sign-up');
  await expect(page.locator('#account-error')).toContainText('too easy to guess');
  await page.fill('#sign-up-password', PASSWORD);
  await page.click('#sign-up');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.locator('#account-link')).toHaveText(name);

  // The game came along: the account plays its next move.
  await page.goto(table);
  await waitForIsland(page);
  await playFirstLegal(page);
  expect((await status(page)).version).toBeGreaterThan(0);

  // Another browser signs in to the account and plays the same game.
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto('/account');
  await second.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await second.fill('#sign-in-name', name.toUpperCase());
  await second.fill('#sign-in-password', 'not the password');
  await second.click('#sign-in');
  await expect(second.locator('#account-error')).toHaveText('Wrong name or password.');
  await second.fill('#sign-in-password', PASSWORD);
  await second.click('#sign-in');
  await second.waitForURL((url) => url.pathname === '/');
  await expect(second.locator('#account-link')).toHaveText(name);
  await second.goto(table);
  await waitForIsland(second);
  await playFirstLegal(second);

  // Signing out leaves this browser anonymous, the game with the account.
  await second.goto('/account');
  await second.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(second.locator('#account-name')).toHaveText(name);
  await screenshot(second, info, 'account-signed-in');
  await second.click('#sign-out');
  await second.waitForURL((url) => url.pathname === '/');
  await expect(second.locator('#account-link')).toHaveText('Sign in');
  await second.goto(table);
  await waitForIsland(second);
  expect((await status(second)).legal, 'a spectator now').toEqual([]);
  await other.close();
  // The refused sign-up answered 422 (the browser logs it twice: the
  // response and the failed load); nothing else failed.
  const unexpected = consoleErrors.filter(
    (e) => !/HTTP 422 .*\/api\/sign_up/.test(e) && !/status of 422 \(Unprocessable/.test(e),
  );
  expect(unexpected).toEqual([]);
  expect(consoleErrors.some((e) => /HTTP 422 .*\/api\/sign_up/.test(e))).toBe(true);
});

test('the account page works on a phone and in Greek', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/lang/el?back=/account');
  await page.waitForURL(/\/account$/);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('h1')).toHaveText('Ο λογαριασμός σας');
  await expect(page.locator('#account-link')).toHaveCount(0);
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  expect(scroll, 'no sideways scrolling').toBeLessThanOrEqual(width);
  await screenshot(page, info, 'account-phone');
});
