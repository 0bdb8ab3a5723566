// A first visit, as a new player meets it: resign only on purpose (an inline
// confirmation, never before the round has started, no party for one's own
// loss), a spectator addressed as one, the rules sidebar and the keyboard
// focus, and phone layouts whose first screen holds what matters.
import { Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { startVsAi, status } from './support/board';

/** Whether an element lies wholly inside the viewport (no scrolling needed). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }, selector);
}

async function noHorizontalOverflow(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  expect(scroll, 'no sideways scrolling').toBeLessThanOrEqual(width);
}

async function activeId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

test('resign asks first, and a loss to the AI is not celebrated', async ({ page, consoleErrors }, info) => {
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  // From the lobby's button the keyboard focus lands on the board.
  await expect.poll(() => activeId(page)).toBe('board-canvas');

  // One click only asks; "No" (by keyboard) keeps the game going.
  await page.click('#resign');
  await expect(page.locator('#resign-confirm')).toBeVisible();
  await expect(page.locator('#resign-question')).toHaveText('Resign this game?');
  await expect.poll(() => activeId(page)).toBe('resign-no');
  await screenshot(page, info, 'resign-confirm');
  await page.keyboard.press('Enter');
  await expect(page.locator('#resign-confirm')).toHaveCount(0);
  await expect(page.locator('#turn')).toContainText('Your move (Black)');
  await expect.poll(() => activeId(page)).toBe('resign');

  // "Yes" resigns: a loss for Black, counted, and no celebration of it.
  const before = await status(page);
  await page.click('#resign');
  await page.click('#resign-yes');
  await expect(page.locator('#turn')).toContainText('White wins by resignation');
  await expect(page.locator('#tally-white')).toHaveText('1');
  await page.waitForFunction((v) => (window as any).othello3d.status().drawnVersion > v, before.version);
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => (window as any).othello3d.status());
  expect(after.celebrations).toBe(0);
  expect(after.celebrating).toBe(false);
  // A game without a single move has nothing to analyse.
  await expect(page.locator('#analysis')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('a private table offers no resign until the opponent sits, and a watcher is not "you"', async ({ page, browser, server, consoleErrors }) => {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.selectOption('#time-control', { index: 0 });
  await page.click('#private-table');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await expect(page.locator('#share')).toBeVisible();
  await expect(page.locator('#resign')).toHaveCount(0);
  // The server refuses it too: nothing is recorded.
  const table = page.url().split('/table/')[1];
  const answer = await page.evaluate(async (id) => {
    const r = await fetch('/api/resign', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ table: id, side: null }),
    });
    return { status: r.status, body: await r.text() };
  }, table);
  expect(answer.status).toBe(422);
  expect(answer.body).toContain('Nothing to resign yet');
  await expect(page.locator('#tally-black')).toHaveText('0');
  await expect(page.locator('#tally-white')).toHaveText('0');

  // A finished vs-AI game opened in another browser speaks to a watcher.
  await startVsAi(page, 3, 'white');
  await waitForIsland(page);
  const vsAi = page.url();
  await expect(page.locator('#mode')).toHaveText('You (White) vs AI depth 3');
  const context = await browser.newContext({ baseURL: server.url });
  const watcher = await context.newPage();
  await watcher.goto(vsAi);
  await watcher.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(watcher.locator('#mode')).toHaveText('A player (White) vs AI depth 3');
  await expect(watcher.locator('#resign')).toHaveCount(0);
  await context.close();
  // The one error is the browser's note on the refused resign (HTTP 422).
  expect(consoleErrors.filter((e) => !/422/.test(e))).toEqual([]);
});

test('the rules sidebar takes the focus, Escape closes it and gives the focus back', async ({ page, consoleErrors }) => {
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  await page.click('#rules-toggle');
  await expect(page.locator('#rules')).toHaveClass(/open/);
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('#rules')))
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.locator('#rules')).not.toHaveClass(/open/);
  await expect(page.locator('#rules')).toHaveAttribute('aria-hidden', 'true');
  await expect.poll(() => activeId(page)).toBe('rules-toggle');
  expect(consoleErrors).toEqual([]);
});

test.describe('phone, portrait', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the lobby starts with the modes, a table with the board, the turn and the actions', async ({ page, consoleErrors }, info) => {
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    expect(await inView(page, '#start-ai'), '"Play vs AI" on the first screen').toBe(true);
    expect(await inView(page, '#start-hot-seat'), '"Play two on one screen" on the first screen').toBe(true);
    await noHorizontalOverflow(page);
    await screenshot(page, info, 'phone-lobby');

    await page.click('#start-ai');
    await page.waitForURL(/\/table\//);
    await waitForIsland(page);
    expect(await inView(page, '#board-canvas'), 'the board').toBe(true);
    // The renderer's line sits under the board, not over its corner.
    const [canvas, backend] = await Promise.all(['#board-canvas', '#backend'].map((s) => page.locator(s).boundingBox()));
    expect(backend!.y, 'the renderer line starts below the board').toBeGreaterThanOrEqual(canvas!.y + canvas!.height - 0.5);
    expect(await inView(page, '#turn'), 'the turn').toBe(true);
    expect(await inView(page, '#resign'), 'Resign').toBe(true);
    expect(await inView(page, '#export'), 'Export').toBe(true);
    await noHorizontalOverflow(page);
    await screenshot(page, info, 'phone-table');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('phone, landscape', () => {
  test.use({ viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true });

  test('the header does not overlap the score card', async ({ page, consoleErrors }, info) => {
    await startVsAi(page, 1, 'black');
    await waitForIsland(page);
    const overlap = await page.evaluate(() => {
      const a = document.querySelector('.topbar')!.getBoundingClientRect();
      const b = document.querySelector('.hud .score')!.getBoundingClientRect();
      return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
        Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    });
    expect(overlap).toBe(0);
    expect(await inView(page, '#turn'), 'the turn').toBe(true);
    expect(await inView(page, '#resign'), 'Resign').toBe(true);
    await noHorizontalOverflow(page);
    await screenshot(page, info, 'phone-landscape-table');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('in Greek', () => {
  test.use({ locale: 'el-GR', extraHTTPHeaders: { 'Accept-Language': 'el' } });

  test('the resign confirmation and the watcher words are Greek', async ({ page, consoleErrors }) => {
    await startVsAi(page, 1, 'black');
    await waitForIsland(page);
    await page.click('#resign');
    await expect(page.locator('#resign-question')).toHaveText('Να παραιτηθείς από την παρτίδα;');
    await expect(page.locator('#resign-yes')).toHaveText('Ναι, παραιτούμαι');
    await expect(page.locator('#resign-no')).toHaveText('Όχι, συνεχίζω');
    await page.click('#resign-no');
    await expect(page.locator('#resign')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

/** Holds the app's wasm back until the returned function is called. */
async function holdAppWasm(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/pkg\/frontend\.[0-9a-f]{16}\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a button pressed while the page is drawn but not yet hydrated is not lost', async ({ page, consoleErrors }) => {
  // The app's wasm arrives late, as on a slow link or a slow phone: the
  // server's page is on screen, its buttons have no handlers yet.
  const release = await holdAppWasm(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('#start-hot-seat')).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.hydrated ?? '')).not.toBe('true');
  await page.click('#start-hot-seat');
  // Nothing can happen yet: the page is still the lobby.
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe('/');
  release();
  // Once hydrated, the held press starts the game.
  await page.waitForURL(/\/table\//, { timeout: 30_000 });
  await expect(page.locator('#turn')).toContainText('Black to move');
  expect(consoleErrors).toEqual([]);
});

test('a depth and a colour chosen before the page has hydrated are the ones the game starts with', async ({ page, consoleErrors }) => {
  // As above: the page is drawn, its controls answer the pointer (a select
  // opens, a radio button takes the dot) but no handler is attached yet.
  const release = await holdAppWasm(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('#ai-depth')).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.hydrated ?? '')).not.toBe('true');
  await page.selectOption('#ai-depth', '5');
  // White, then Black, then White again: the last choice is the one.
  await page.check('#play-white');
  await page.check('#play-black');
  await page.check('#play-white');
  // Pressed before the page has hydrated too: the choices come first.
  await page.click('#start-ai');
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe('/');
  release();
  await page.waitForURL(/\/table\//, { timeout: 30_000 });
  await expect(page.locator('header')).toContainText('You (White) vs AI depth 5');
  expect(consoleErrors).toEqual([]);
});
