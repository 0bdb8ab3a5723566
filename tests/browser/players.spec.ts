// Player search on /players: a player found by the first three letters of
// their name, shown with their rating, is challenged from the result; the
// other browser accepts and both land on one table.
import { test, expect, screenshot } from './support/fixtures';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  // Two sign-ups from distinct addresses (one address may make 5 an hour).
  server = await startServer({ args: ['--client-ip-header', 'X-Real-IP'] });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a player found by a three-letter search is challenged from the result', async ({ browser }, info) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const [ana, bo] = [`sea${stamp}`, `fnd${stamp}`];
  const challenger = await newPlayer(browser, server.url, errors, '198.51.100.81');
  const challenged = await newPlayer(browser, server.url, errors, '198.51.100.82');
  await signUp(challenger, ana);
  await signUp(challenged, bo);
  await challenged.goto('/');
  await challenged.waitForFunction(() => document.body.dataset.hydrated === 'true');

  await challenger.goto('/players');
  await challenger.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await challenger.fill('#player-search-input', bo.slice(0, 3).toUpperCase());
  await challenger.click('#player-search-go');
  const results = challenger.locator('#player-search-results li');
  await expect(results).toHaveCount(1);
  const found = results.first();
  await expect(found).toHaveAttribute('data-name', bo);
  await expect(found.locator('.rating')).toHaveText('no rated game yet');
  await screenshot(challenger, info, 'player-search');
  // Nothing overlaps: the name, the rating and the button side by side.
  const boxes = await Promise.all(['.found-name', '.rating', '.challenge-link'].map((s) => found.locator(s).boundingBox()));
  for (let i = 0; i + 1 < boxes.length; i++) {
    expect(boxes[i]!.x + boxes[i]!.width, `${i} ends before ${i + 1} starts`).toBeLessThanOrEqual(boxes[i + 1]!.x + 0.5);
  }
  // A search with no match says so; the address keeps the search (?q=)
  // working without JavaScript.
  await challenger.fill('#player-search-input', 'zzq');
  await challenger.click('#player-search-go');
  await expect(challenger.locator('#player-search-none')).toBeVisible();
  const page = await (await challenger.request.get(`/players?q=${bo.slice(0, 3)}`)).text();
  expect(page).toContain(`data-name="${bo}"`);

  // Challenged from the result.
  await challenger.fill('#player-search-input', bo.slice(0, 3));
  await challenger.click('#player-search-go');
  await challenger.locator(`#player-search-results li[data-name="${bo}"] .challenge-link`).click();
  await challenger.waitForURL(new RegExp(`/@/${bo}`));
  await challenger.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await challenger.locator('#challenge form[data-live=true]').waitFor();
  await challenger.click('#challenge-send');
  const incoming = challenged.locator('#challenges .challenge.incoming');
  await expect(incoming).toHaveCount(1, { timeout: 20_000 });
  await expect(incoming).toContainText(ana);
  await incoming.locator('.challenge-accept').click();
  await challenged.waitForURL(/\/table\//);
  await challenger.waitForURL(/\/table\//, { timeout: 20_000 });
  expect(challenger.url()).toBe(challenged.url());
  expect(errors).toEqual([]);
});
