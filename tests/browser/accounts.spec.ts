// Accounts as a player meets them: play first, sign up later (the game in
// progress comes along), a guessable password refused with a reason, the
// same account in another browser playing the same game, signing out.
import { test, expect, fastAnimations, waitForIsland, screenshot } from './support/fixtures';
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
  await fastAnimations(other);
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
  await expect(page.locator('h1')).toHaveText('Ο λογαριασμός σου');
  await expect(page.locator('#account-link')).toHaveCount(0);
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  expect(scroll, 'no sideways scrolling').toBeLessThanOrEqual(width);
  await screenshot(page, info, 'account-phone');
});

test('a player changes the password, downloads their data and deletes the account', async ({ page, consoleErrors }, info) => {
  const name = `m${Date.now().toString(36).slice(-8)}`;
  const NEW = 'amber lantern drifts north';
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', PASSWORD);
  await page.click('#sign-up');
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#manage-account')).toBeVisible();

  // The wrong current password is refused with a reason; the right one works.
  await page.fill('#current-password', 'not the password at all');
  await page.fill('#new-password', NEW);
  await page.click('#change-password');
  await expect(page.locator('#manage-error')).toContainText('not your current password');
  await page.fill('#current-password', PASSWORD);
  await page.fill('#new-password', NEW);
  await page.click('#change-password');
  await expect(page.locator('#manage-notice')).toContainText('Password changed');
  await page.reload();
  await expect(page.locator('#account-name')).toHaveText(name);
  await screenshot(page, info, 'account-manage');

  // The download is the player's data as JSON.
  const href = await page.locator('#download-data').getAttribute('href');
  const data = await page.evaluate(async (url) => (await fetch(url!)).json(), href);
  expect(data.name).toBe(name);
  // The profile offers the whole archive as GGF and WTHOR.
  await page.goto(`/@/${name}`);
  await expect(page.locator('#export-wtb')).toHaveAttribute('href', `/@/${name}/games.wtb`);

  // Deleting: the password, then the lobby as an anonymous visitor.
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#delete-details summary');
  await page.fill('#delete-password', NEW);
  await page.click('#delete-account');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.locator('#account-link')).toHaveText('Sign in');
  const gone = await page.goto(`/@/${name}`);
  expect(gone!.status()).toBe(404);
  // The refused change answered 422 (logged by the browser); the profile
  // of the deleted account 404; nothing else failed.
  expect(consoleErrors.filter((e) => !/422|404/.test(e))).toEqual([]);
});

test('with JavaScript disabled a player signs up, is refused a wrong password, signs in and out', async ({ browser, server }, info) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url, locale: 'en-US' });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  const name = `nj${Date.now().toString(36).slice(-8)}`;
  await page.goto('/account');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.click('#sign-up')]);
  await page.goto('/account');
  await expect(page.locator('#account-name')).toHaveText(name);
  // Signing out is a form too.
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.click('#sign-out')]);
  await page.goto('/account');
  await expect(page.locator('#sign-in-form')).toBeVisible();
  // A wrong password: back on the account page with the reason, once.
  await page.fill('#sign-in-name', name);
  await page.fill('#sign-in-password', 'not the password at all');
  await Promise.all([page.waitForURL(/\/account$/), page.click('#sign-in')]);
  await expect(page.locator('#account-flash')).toHaveText('Wrong name or password.');
  await screenshot(page, info, 'account-no-js-refused');
  await page.reload();
  await expect(page.locator('#account-flash')).toHaveCount(0);
  await page.fill('#sign-in-name', name);
  await page.fill('#sign-in-password', PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.click('#sign-in')]);
  await page.goto('/account');
  await expect(page.locator('#account-name')).toHaveText(name);
  // No password ever went into a URL.
  expect(requests.filter((r) => r.includes('password') || r.includes('violet'))).toEqual([]);
  expect(requests.some((r) => r.startsWith('POST') && r.endsWith('/account/sign-in'))).toBe(true);
  await context.close();
});
