// Clocks from each side's first move (PRODUCT.md, Online rules): before a
// side's first move its clock does not run and a first-move timer does; a
// side that never moves loses by forfeit in a tournament (and leaves a
// Swiss), and the game is aborted elsewhere (a casual challenge). The
// server's first-move timers are 15 s here (20 s and 30 s by default).
import { Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';

const FIRST_MOVE_S = 15;
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({
    args: ['--client-ip-header', 'X-Real-IP', '--first-move-secs', String(FIRST_MOVE_S), '--first-move-secs-event', String(FIRST_MOVE_S)],
  });
});
test.afterAll(async () => {
  await server?.stop();
});

const hydrated = (page: Page) => page.waitForFunction(() => document.body.dataset.hydrated === 'true');
const clocks = (page: Page) =>
  Promise.all(['#clock-black .clock-time', '#clock-white .clock-time'].map((s) => page.locator(s).innerText()));

test('a casual challenge nobody starts: the clocks stand still, then the game is aborted', async ({ browser }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const [ana, bo] = [`fma${stamp}`, `fmb${stamp}`];
  const challenger = await newPlayer(browser, server.url, errors, '198.51.100.151');
  const challenged = await newPlayer(browser, server.url, errors, '198.51.100.152');
  await signUp(challenger, ana);
  await signUp(challenged, bo);
  await challenged.goto('/');
  await hydrated(challenged);
  await challenger.goto(`/@/${bo}#challenge`);
  await hydrated(challenger);
  await challenger.locator('#challenge form[data-live=true]').waitFor();
  await challenger.selectOption('#challenge-colour', 'black');
  await challenger.click('#challenge-send');
  const incoming = challenged.locator('#challenges .challenge.incoming');
  await expect(incoming).toHaveCount(1, { timeout: 20_000 });
  await incoming.locator('.challenge-accept').click();
  await challenged.waitForURL(/\/table\//);
  await challenger.waitForURL(/\/table\//, { timeout: 20_000 });
  await waitForIsland(challenged);
  await expect(challenged.locator('#clock-first-move')).toContainText('Black must move within');
  // Read twice, 6 s apart, before black's first move: neither clock moved.
  const before = await clocks(challenged);
  await challenged.waitForTimeout(6_000);
  expect(await clocks(challenged)).toEqual(before);
  // Black (the challenger) never moves: the game is aborted for both.
  for (const page of [challenger, challenged]) {
    await expect(page.locator('#turn')).toContainText('Aborted', { timeout: (FIRST_MOVE_S + 10) * 1000 });
  }
  await screenshot(challenged, info, 'first-move-aborted');
  expect(await clocks(challenged)).toEqual(before);
  expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
});

test('a Swiss side that never moves loses by forfeit and leaves the tournament', async ({ browser }, info) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const names = [`fsa${stamp}`, `fsb${stamp}`];
  const players: Page[] = [];
  for (let i = 0; i < 2; i++) {
    const page = await newPlayer(browser, server.url, errors, `198.51.100.${160 + i}`);
    await signUp(page, names[i]);
    players.push(page);
  }
  const [host, other] = players;
  await host.goto('/tournaments');
  await hydrated(host);
  await host.fill('#tournament-name', `No-show ${stamp}`);
  await host.fill('#tournament-rounds', '2');
  await host.fill('#tournament-starts', '60');
  await host.click('#tournament-submit');
  await host.waitForURL(/\/tournaments\/[0-9a-f]+$/);
  const url = host.url();
  await hydrated(host);
  await other.goto(url);
  await hydrated(other);
  for (const page of players) {
    await page.click('#tournament-join');
    await expect(page.locator('#tournament-leave')).toBeVisible();
  }
  await host.click('#tournament-start');
  for (const page of players) await page.waitForURL(/\/table\//, { timeout: 30_000 });
  await waitForIsland(host);
  const blackName = await host.locator('#player-black').innerText();
  const black = blackName.includes(names[0]) ? host : other;
  const white = black === host ? other : host;
  // Black walks away from the board; white waits.
  await black.goto('/players');
  await expect(white.locator('#clock-first-move')).toContainText('Black must move within');
  const before = await clocks(white);
  await white.waitForTimeout(6_000);
  expect(await clocks(white)).toEqual(before);
  await expect(white.locator('#turn')).toContainText('White wins by forfeit', { timeout: (FIRST_MOVE_S + 10) * 1000 });
  await screenshot(white, info, 'first-move-forfeit');
  // Black was withdrawn: one player left, the Swiss is over after round 1.
  await white.goto(url);
  await hydrated(white);
  await expect(white.locator('main')).toContainText('fewer than two players were left', { timeout: 20_000 });
  expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
});
