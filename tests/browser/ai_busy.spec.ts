// A full AI queue at a vs-AI table: the page says the AI is busy (not a
// silent stall), "Ask the AI again" asks again, and once the server has room
// (a restart with the default queue, same database and address) the AI moves
// and the notice goes away.
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { startServer, RunningServer } from './support/server';
import { clickSquare, status, waitForNewVersion, waitForTurnOrEnd } from './support/board';

let busy: RunningServer | undefined;

test.afterAll(async () => {
  await busy?.stop();
});

test('a refused AI search is shown with a retry, and the AI moves once there is room', async ({ page }, info) => {
  test.setTimeout(180_000);
  busy = await startServer({ args: ['--ai-queue', '0'] });
  const address = new URL(busy.url).host;
  await page.goto(`${busy.url}/`);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.selectOption('#ai-depth', '1');
  await page.check('#play-black');
  await page.click('#start-ai');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await expect(page.locator('#ai-busy')).toHaveCount(0);
  await waitForTurnOrEnd(page);
  const before = await status(page);
  await clickSquare(page, before.legal[0]);
  await waitForNewVersion(page, before.version);

  await expect(page.locator('#ai-busy')).toBeVisible();
  await expect(page.locator('#ai-busy')).toContainText('The AI is busy');
  await expect(page.locator('#turn')).toContainText('White (AI) is waiting');
  await page.click('#ai-retry');
  await expect(page.locator('#ai-retry-note')).toHaveText('Still busy: try again in a moment.');
  await expect(page.locator('#ai-retry')).toBeEnabled();
  await screenshot(page, info, 'table-ai-busy');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#ai-busy').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'table-ai-busy-mobile');
  await page.setViewportSize({ width: 1100, height: 760 });

  // Room again: same database, same address; asking again lets the AI move.
  const database = busy.database;
  await busy.stop();
  busy = await startServer({ database, listen: address });
  await expect
    .poll(
      async () => {
        if (await page.locator('#ai-retry').isEnabled().catch(() => false)) {
          await page.click('#ai-retry').catch(() => {});
        }
        return page.locator('#ai-busy').count();
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(0);
  await waitForTurnOrEnd(page);
  await expect(page.locator('#turn')).toContainText('Your move (Black)');
  await expect(page.locator('#history li')).toHaveCount(2);
});
