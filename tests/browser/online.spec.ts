// Online play in separate browser contexts (separate cookies): a private link
// with a spectator, and quick match; whole games by real clicks on the board.
import { Browser, Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare, counts, status } from './support/board';

async function newPlayer(browser: Browser, baseURL: string, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 800, height: 600 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return page;
}

/** The shortest whole game: black wipes white out in nine moves (13–0). */
const WIPE_OUT = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];
const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

/**
 * Plays a whole game, start to end, by real clicks: for each move the player
 * whose turn it is (the one whose board shows the square as legal) clicks it;
 * then every page, spectators included, must show the new state.
 */
async function playWholeGame(players: Page[], watchers: Page[]) {
  for (const name of WIPE_OUT) {
    const square = index(name);
    let mover: Page | null = null;
    let version = 0;
    for (let attempt = 0; attempt < 300 && !mover; attempt++) {
      for (const page of players) {
        const s = await status(page);
        if (s && s.legal.includes(square) && s.drawnVersion >= s.version) {
          mover = page;
          version = s.version;
          break;
        }
      }
      if (!mover) await players[0].waitForTimeout(100);
    }
    expect(mover, `someone may play ${name}`).not.toBeNull();
    await clickSquare(mover!, square);
    for (const page of [...players, ...watchers]) {
      await page.waitForFunction(
        (v) => ((window as any).othello3d?.status()?.version ?? 0) > v,
        version,
        { timeout: 30_000 },
      );
    }
  }
  return WIPE_OUT.length;
}

test('private link: the friend sits by the button, a third visitor watches, a whole game by clicks', async ({ browser, server }, info) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  const creator = await newPlayer(browser, server.url, errors);
  await creator.goto('/');
  await creator.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await creator.click('#private-table');
  await creator.waitForURL(/\/table\//);
  await expect(creator.locator('#share')).toBeVisible();
  const link = await creator.locator('#share-link').inputValue();
  expect(link).toContain('/table/');
  await waitForIsland(creator);
  await screenshot(creator, info, 'online-waiting');

  // Opening the link does not seat the friend: they watch until they press
  // "Take the free seat".
  const guest = await newPlayer(browser, server.url, errors);
  await guest.goto(link);
  await waitForIsland(guest);
  await expect(guest.locator('#spectator')).toContainText('seat is free');
  const take = guest.locator('#take-seat');
  await expect(take).toBeVisible();
  await expect(take).toHaveText('Take the free seat');
  await guest.reload();
  await waitForIsland(guest);
  await expect(creator.locator('#share')).toBeVisible();
  await expect(guest.locator('#resign')).toHaveCount(0);
  // The button is readable and inside the panel, not under anything.
  const box = await take.boundingBox();
  const panel = await guest.locator('#spectator').boundingBox();
  expect(box && panel).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(panel!.x);
  expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(panel!.y + panel!.height + 0.5);
  const centre = [box!.x + box!.width / 2, box!.y + box!.height / 2];
  const hit = await guest.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id ?? '', centre);
  expect(hit, 'nothing covers the seat button').toBe('take-seat');
  await screenshot(guest, info, 'online-free-seat');
  await take.click();
  await expect(guest.locator('#spectator')).toBeHidden();
  await expect(creator.locator('#share')).toBeHidden();
  await expect(guest.locator('#resign')).toBeVisible();

  // A third visitor stays a spectator: no seat to take.
  const spectator = await newPlayer(browser, server.url, errors);
  await spectator.goto(link);
  await waitForIsland(spectator);
  await expect(spectator.locator('#spectator')).toContainText('You are watching this game.');
  await expect(spectator.locator('#take-seat')).toHaveCount(0);
  await expect(spectator.locator('#resign')).toHaveCount(0);

  const moves = await playWholeGame([creator, guest], [spectator]);
  for (const page of [creator, guest, spectator]) {
    await expect(page.locator('#turn')).toContainText('Black wins');
  }
  expect(await counts(spectator)).toEqual([13, 0]);
  expect(await counts(creator)).toEqual([13, 0]);
  const tallies = await Promise.all(
    ['#tally-black', '#tally-white', '#tally-draws'].map((id) => spectator.locator(id).textContent()),
  );
  expect(tallies.reduce((sum, t) => sum + Number(t), 0)).toBe(1);
  await screenshot(creator, info, 'online-private-final');
  await screenshot(spectator, info, 'online-spectator-final');
  saveResult(info, 'online-private', { moves, counts: await counts(creator) });
  expect(errors).toEqual([]);
});

test('quick match pairs two players who play a whole game by clicks', async ({ browser, server }, info) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  const first = await newPlayer(browser, server.url, errors);
  const second = await newPlayer(browser, server.url, errors);
  for (const page of [first, second]) {
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  }
  await first.click('#quick-match');
  await expect(first.locator('#queue-status')).toContainText('Waiting');
  await second.click('#quick-match');
  await first.waitForURL(/\/table\//);
  await second.waitForURL(/\/table\//);
  expect(first.url()).toBe(second.url());
  await waitForIsland(first);
  await waitForIsland(second);
  await expect(first.locator('.mode')).toContainText('quick match');
  const moves = await playWholeGame([first, second], []);
  await expect(first.locator('#turn')).toContainText('Black wins');
  await expect(second.locator('#turn')).toContainText('Black wins');
  // Rematch: both vote; colours carry over.
  await first.click('#rematch');
  await expect(second.locator('.their-vote')).toBeVisible();
  await second.click('#rematch');
  await expect(first.locator('.round')).toContainText('Round 2');
  await expect(second.locator('.round')).toContainText('Round 2');
  await screenshot(second, info, 'online-quick-rematch');
  saveResult(info, 'online-quick', { moves });
  expect(errors).toEqual([]);
});
