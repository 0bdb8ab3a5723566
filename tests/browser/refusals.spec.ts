// Every refusal a Greek-speaking visitor can meet reads in Greek: the server
// sends each one by key with its values and the page formats it in the
// reader's language (nothing is recognised by its English words). Walked
// through as a visitor meets them: names, passwords, a wrong sign-in, an
// unknown player, game, table and lab game, a malformed position, a full
// table, a finished game and the limit on live tables.
import { Browser, Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { status, clickSquare, resign } from './support/board';
import { startServer, RunningServer } from './support/server';

// A server of its own with a small table limit (2 per browser).
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ args: ['--max-tables-per-session', '2'] });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A Greek-speaking visitor with their own cookies. */
async function greek(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    locale: 'el-GR',
    extraHTTPHeaders: { 'Accept-Language': 'el' },
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return page;
}

/** Latin words that would mean an English sentence slipped through. */
const ENGLISH = /\b(the|is|not|no|such|your|too|many|must|try|again|wait)\b/i;

async function expectGreek(page: Page, selector: string, greekText: string) {
  const element = page.locator(selector);
  await expect(element).toContainText(greekText);
  const text = (await element.textContent()) ?? '';
  expect(text, `${selector} reads in Greek only`).not.toMatch(ENGLISH);
}

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
}

test('names, passwords and a wrong sign-in are refused in Greek', async ({ browser }) => {
  const errors: string[] = [];
  const page = await greek(browser, errors);
  await page.goto('/account');
  await hydrated(page);
  // (The form's own checks stop a too short name or password before it is
  // sent; these are the server's.)
  await page.fill('#sign-up-name', 'admin');
  await page.fill('#sign-up-password', 'violet kettle marches sideways');
  await page.click('#sign-up');
  await expectGreek(page, '#account-error', 'Αυτό το όνομα είναι δεσμευμένο');
  await page.fill('#sign-up-name', `refusal${Date.now() % 100000}`);
  await page.fill('#sign-up-password', 'password1234');
  await page.click('#sign-up');
  await expectGreek(page, '#account-error', 'Αυτός ο κωδικός μαντεύεται εύκολα');
  await page.fill('#sign-in-name', 'nobody_here');
  await page.fill('#sign-in-password', 'not the password');
  await page.click('#sign-in');
  await expectGreek(page, '#account-error', 'Λάθος όνομα ή κωδικός');
  expect(errors).toEqual([]);
});

test('an unknown player, game, table and lab game are refused in Greek', async ({ browser }) => {
  const errors: string[] = [];
  const page = await greek(browser, errors);
  const cases: [string, string, number | null][] = [
    ['/@/nobody_here', 'Δεν υπάρχει τέτοιος παίκτης', 404],
    ['/game/00000000deadbeef', 'Δεν υπάρχει τέτοια παρτίδα στο αρχείο', 404],
    ['/table/0000000000000000', 'Δεν υπάρχει τέτοιο τραπέζι', 404],
    ['/lab/0000000000000000', 'Δεν υπάρχει τέτοια παρτίδα εργαστηρίου', 404],
  ];
  for (const [path, text, code] of cases) {
    const response = await page.goto(path);
    if (code) expect(response?.status(), path).toBe(code);
    await hydrated(page);
    await expectGreek(page, 'main p.error', text);
  }
});

test('a malformed position is refused in Greek, its reason too', async ({ browser }) => {
  const errors: string[] = [];
  const page = await greek(browser, errors);
  await page.goto('/');
  await waitForIsland(page);
  // "Start from a position" is under the lobby's "More ways to start".
  await page.click('#more-choices > summary');
  await page.fill('#start-obf', 'not a position');
  await page.click('#start-obf-hot-seat');
  const error = page.locator('.lobby-panel p.error');
  await expect(error).toContainText('δεν είναι έγκυρη θέση OBF');
  // The reason is Greek as well (it was the parser's English before).
  await expect(error).toContainText('μη αναμενόμενος χαρακτήρας «n» στη στήλη 1');
  expect((await error.textContent()) ?? '').not.toContain('unexpected');
});

test('a full table, a finished game and the table limit are refused in Greek', async ({ browser }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  // A private table: the creator sits; a watcher opens the link and sees the
  // free seat; a friend takes it first. The watcher's page hears nothing
  // more (its socket is cut off), so its button is still there: pressing it
  // is refused.
  const creator = await greek(browser, errors);
  await creator.goto('/');
  await hydrated(creator);
  await creator.click('#private-table');
  await creator.waitForURL(/\/table\//);
  const link = await creator.locator('#share-link').inputValue();
  const late = await greek(browser, errors);
  await late.routeWebSocket(/\/ws\//, () => {});
  await late.goto(link);
  await waitForIsland(late);
  await expect(late.locator('#take-seat')).toBeVisible();
  const friend = await greek(browser, errors);
  await friend.goto(link);
  await waitForIsland(friend);
  await friend.click('#take-seat');
  await expect(friend.locator('#resign')).toBeVisible();
  await late.click('#take-seat');
  await expectGreek(late, '#message', 'Και οι δύο θέσεις είναι πιασμένες');

  // Two on one screen, the same game open in a second tab that hears
  // nothing: resigned in the first, a move in the second is refused.
  const player = await greek(browser, errors);
  await player.goto('/');
  await hydrated(player);
  await player.click('#start-hot-seat');
  await player.waitForURL(/\/table\//);
  await waitForIsland(player);
  const stale = await player.context().newPage();
  await stale.routeWebSocket(/\/ws\//, () => {});
  await stale.goto(player.url());
  await waitForIsland(stale);
  await resign(player);
  await expect(player.locator('#notice')).toContainText('παραιτ');
  const before = await status(stale);
  await clickSquare(stale, before.legal[0]);
  await expectGreek(stale, '#message', 'Η παρτίδα τελείωσε');
  await screenshot(stale, info, 'refusal-finished-el');

  // Past the limit of live tables for one browser (2 on this server), a
  // new table is refused.
  for (let i = 0; i < 3; i++) {
    await player.goto('/');
    await hydrated(player);
    await player.click('#start-hot-seat');
    const refused = player.locator('.lobby-panel p.error');
    const outcome = await Promise.race([
      player.waitForURL(/\/table\//).then(() => 'table'),
      refused.filter({ hasText: /./ }).waitFor().then(() => 'refused'),
    ]);
    if (outcome === 'refused') break;
  }
  await expectGreek(player, '.lobby-panel p.error', 'πάρα πολλά ενεργά τραπέζια');
  await expect(player.locator('.lobby-panel p.error')).toContainText('όριο 2');
  expect(errors).toEqual([]);
});
