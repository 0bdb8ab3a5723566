// Online clocks (issue 20): a timed quick match in two browser contexts where
// one player stops moving and loses on time, seen the same way in both views.
// The server runs with the test-only flag --test-time-controls so the lobby
// may pick a 20-second control (`/?tc=20s+0`); the presence checker runs every
// 100 ms so the flag falls promptly with no request from either page. A
// side's clock starts at its own first move (issue 67): before it the page
// shows that side's first-move timer instead.
import { Browser, Page } from '@playwright/test';
import { test, expect, fastAnimations, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare, status } from './support/board';
import { startServer, RunningServer } from './support/server';

async function newPlayer(browser: Browser, baseURL: string, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 900, height: 650 } });
  await fastAnimations(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return page;
}

let timed: RunningServer;
test.beforeAll(async () => {
  timed = await startServer({ args: ['--test-time-controls', '--presence-check-ms', '100'] });
});
test.afterAll(async () => {
  await timed?.stop();
});

test('timed quick match: the player who stops moving loses on time in both views', async ({ browser }, info) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  const first = await newPlayer(browser, timed.url, errors);
  const second = await newPlayer(browser, timed.url, errors);
  for (const page of [first, second]) {
    await page.goto('/?tc=20s%2B0');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#time-control')).toHaveValue('20s+0');
  }
  await first.click('#quick-match');
  await expect(first.locator('#queue-status')).toContainText('Waiting');
  await second.click('#quick-match');
  await first.waitForURL(/\/table\//);
  await second.waitForURL(/\/table\//);
  expect(first.url()).toBe(second.url());
  await waitForIsland(first);
  await waitForIsland(second);
  for (const page of [first, second]) {
    await expect(page.locator('.mode')).toContainText('quick match, 20s+0');
    await expect(page.locator('#clocks')).toContainText('20s+0');
  }

  // Before black's first move no clock runs: black's first-move timer does.
  for (const page of [first, second]) {
    await expect(page.locator('#clock-first-move')).toContainText('Black must move within');
    await expect(page.locator('#clock-black')).not.toHaveClass(/running/);
  }

  // Black (whoever may play d3) moves at once, white answers, black moves
  // again; then white never moves.
  const d3 = 19;
  let black: Page | null = null;
  for (let attempt = 0; attempt < 100 && !black; attempt++) {
    for (const page of [first, second]) {
      const s = await status(page);
      if (s && s.legal.includes(d3) && s.drawnVersion >= s.version) black = page;
    }
    if (!black) await first.waitForTimeout(100);
  }
  expect(black, 'black may play d3').not.toBeNull();
  const white = black === first ? second : first;
  await clickSquare(black!, d3);
  for (const mover of [white, black!]) {
    let square = -1;
    for (let attempt = 0; attempt < 100 && square < 0; attempt++) {
      const s = await status(mover);
      if (s && s.legal.length > 0 && !s.legal.includes(d3) && s.drawnVersion >= s.version) square = s.legal[0];
      else await mover.waitForTimeout(100);
    }
    expect(square, 'a legal move').toBeGreaterThanOrEqual(0);
    await clickSquare(mover, square);
  }
  // White's clock runs in both views, under 30 s: the low-time warning shows.
  for (const page of [first, second]) {
    await expect(page.locator('#clock-white')).toHaveClass(/running/);
    await expect(page.locator('#clock-white')).toHaveClass(/low/);
    await expect(page.locator('#clock-black')).not.toHaveClass(/running/);
  }
  await screenshot(white, info, 'clocks-running');
  // The 10-second warning is spoken by the clocks' aria-live announcer.
  await expect(white.locator('#clock-announcer')).toHaveText('White: 10 seconds left.', { timeout: 25_000 });

  // The flag falls with no request from either page.
  for (const page of [first, second]) {
    await expect(page.locator('#turn')).toContainText('Black wins on time', { timeout: 30_000 });
    await expect(page.locator('#clock-white .clock-time')).toHaveText('0:00.0');
    await expect(page.locator('#clock-white')).not.toHaveClass(/running/);
    await expect(page.locator('#tally-black')).toHaveText('1');
  }
  await expect(black!.locator('#notice')).toContainText('White ran out of time');
  await screenshot(black!, info, 'clocks-flag-fell');
  saveResult(info, 'clocks-flag', { control: '20s+0' });
  expect(errors).toEqual([]);
});
