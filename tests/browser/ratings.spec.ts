// Rated play as two new players meet it: both sign up, tick "Rated" and
// ask for a quick match, play a move each by clicks, one resigns; both see
// their rating change at the table, open each other's profile (rating and
// graph data) and replay the game from the archive; the leaderboard page.
import { Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { status, clickSquare, waitForNewVersion } from './support/board';
import { newPlayer } from './support/online';
import { startServer, RunningServer } from './support/server';

// Behind a "proxy" that names each player's address: two accounts from one
// address are never paired for a rated game (fair play).
let proxied: RunningServer;
test.beforeAll(async () => {
  proxied = await startServer({ args: ['--client-ip-header', 'X-Real-IP'] });
});
test.afterAll(async () => {
  await proxied?.stop();
});

const PASSWORD = 'violet kettle marches sideways';

async function signUp(page: Page, name: string) {
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', PASSWORD);
  await page.click('#sign-up');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.locator('#account-link')).toHaveText(name);
}

/** The player whose board offers a move clicks the first one. */
async function oneMove(players: Page[]) {
  for (let attempt = 0; attempt < 200; attempt++) {
    for (const page of players) {
      const s = await status(page);
      if (s && s.legal.length > 0 && s.drawnVersion >= s.version && !s.animating) {
        await clickSquare(page, s.legal[0]);
        for (const p of players) await waitForNewVersion(p, s.version);
        return;
      }
    }
    await players[0].waitForTimeout(100);
  }
  throw new Error('nobody could move');
}

test('two new players play a rated quick match, see their ratings move, profiles and the replay', async ({ browser }, info) => {
  const server = proxied;
  test.setTimeout(240_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-6);
  const names = [`ra${stamp}`, `rb${stamp}`];
  const first = await newPlayer(browser, server.url, errors, '198.51.100.10');
  const second = await newPlayer(browser, server.url, errors, '198.51.100.20');
  await signUp(first, names[0]);
  await signUp(second, names[1]);

  // The account page shows their ratings; the lobby offers rated play.
  for (const page of [first, second]) {
    await page.goto('/account');
    await expect(page.locator('#account-ratings')).toContainText('none yet');
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.check('#rated');
  }
  await screenshot(first, info, 'lobby-rated');
  await first.click('#quick-match');
  await expect(first.locator('#queue-status')).toContainText('Waiting');
  await second.click('#quick-match');
  await first.waitForURL(/\/table\//);
  await second.waitForURL(/\/table\//);
  expect(first.url()).toBe(second.url());
  await waitForIsland(first);
  await waitForIsland(second);
  await expect(first.locator('#mode')).toContainText('rated');
  await expect(first.locator('#rated-table')).toBeVisible();
  await expect(first.locator('#players')).toContainText(names[0]);
  await expect(first.locator('#players')).toContainText(names[1]);
  await expect(first.locator('#players .rating').first()).toHaveText('1500?');

  // A move each (so the round counts for ratings), then one resigns.
  await oneMove([first, second]);
  await oneMove([first, second]);
  const mover = (await status(first)).legal.length > 0 ? first : second;
  await mover.click('#resign');
  await mover.click('#resign-yes');
  for (const page of [first, second]) {
    await expect(page.locator('#players .rating-change.up')).toHaveText(/^\+\d+$/);
    await expect(page.locator('#players .rating-change.down')).toHaveText(/^−\d+$/);
  }
  const gain = Number((await first.locator('#players .rating-change.up').textContent())!.slice(1));
  expect(gain).toBeGreaterThan(100);
  const loss = Number((await first.locator('#players .rating-change.down').textContent())!.slice(1));
  // The result line says it first: "You lost: … · rating 1338? (−162)".
  const [resigner, other] = mover === first ? [first, second] : [second, first];
  await expect(resigner.locator('#turn')).toHaveText(
    new RegExp(`^You lost: .+ · rating ${1500 - loss}\\? \\(−${loss}\\)$`),
  );
  await expect(other.locator('#turn')).toHaveText(new RegExp(`^You won: .+ · rating ${1500 + gain}\\? \\(\\+${gain}\\)$`));
  await screenshot(first, info, 'table-rating-change');
  await screenshot(resigner, info, 'table-rating-loser');

  // Each opens the other's profile from the players card.
  const loser = mover;
  const winner = mover === first ? second : first;
  const winnerName = mover === first ? names[1] : names[0];
  await loser.click(`#players a:has-text("${winnerName}")`);
  await loser.waitForURL(new RegExp(`/@/${winnerName}$`));
  await loser.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(loser.locator('#profile-name')).toHaveText(winnerName);
  await expect(loser.locator('#rating-blitz .rating')).toHaveText(`${1500 + gain}?`);
  await expect(loser.locator('#profile-games .game-line')).toHaveCount(1);
  await screenshot(loser, info, 'profile-ratings');
  // A player can report another from their profile.
  await loser.click('#report-open');
  await loser.selectOption('#report-reason', 'abuse');
  await loser.fill('#report-text', 'rude in chat');
  await loser.click('#report-send');
  await expect(loser.locator('#report-answer')).toHaveText('Thank you: an operator will look at this report.');
  await screenshot(loser, info, 'profile-reported');

  // The games list filters by mode (a plain form) and pages by date.
  await loser.selectOption('#filter-mode', 'vs_ai');
  await loser.click('#filter-apply');
  await loser.waitForURL(/mode=vs_ai/);
  await expect(loser.locator('#profile-no-games')).toBeVisible();
  await loser.selectOption('#filter-mode', 'online');
  await loser.click('#filter-apply');
  await loser.waitForURL(/mode=online/);
  await expect(loser.locator('#profile-games .game-line')).toHaveCount(1);

  // The game replays from the archive.
  await loser.click('#profile-games .game-line a');
  await loser.waitForURL(/\/game\//);
  await waitForIsland(loser);
  await expect(loser.locator('#game-moves li')).toHaveCount(2);
  await loser.click('#replay-first');
  await expect(loser.locator('#black-count')).toContainText('2');
  await loser.click('#replay-forward');
  await expect(loser.locator('#black-count')).toContainText('4');
  // Its ratings before and after, and an analysis made from the archive.
  await expect(loser.locator('#game-ratings')).toContainText(`(+${gain})`);
  await loser.click('#analyse');
  await expect(loser.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  await screenshot(loser, info, 'game-rated-analysed');

  // The winner's account page shows the new rating; the lobby links to
  // their profile and the leaderboard, which explains who is listed.
  await winner.goto('/account');
  await expect(winner.locator('#account-ratings')).toContainText(`Blitz ${1500 + gain}?`);
  await winner.goto('/');
  await winner.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(winner.locator('#my-ratings a').first()).toHaveAttribute('href', `/@/${winnerName}`);
  await winner.click('#my-ratings a[href="/players"]');
  await winner.waitForURL(/\/players$/);
  await expect(winner.locator('#board-blitz')).toBeVisible();
  await expect(winner.locator('#board-rapid')).toBeVisible();
  // One rated game settles nobody's rating: the empty board says why and
  // how to get there.
  await expect(winner.locator('#board-blitz')).toContainText('once their rating has settled');
  await screenshot(winner, info, 'leaderboard');
  // The new pages fit a phone.
  await winner.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/players', `/@/${winnerName}`, '/account']) {
    await winner.goto(path);
    await winner.waitForFunction(() => document.body.dataset.hydrated === 'true');
    const [scroll, width] = await winner.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    expect(scroll, `${path}: no sideways scrolling`).toBeLessThanOrEqual(width);
  }
  await screenshot(winner, info, 'account-phone-signed-in');
  expect(errors).toEqual([]);
});
