// What a newcomer meets first: the lobby's board ready to play, signing up and
// rated play in view, one-off games without multi-round words, a finished
// game's review in view, and move names that show their square on the board.
import { test, expect, screenshot, waitForIsland } from './support/fixtures';
import { newPlayer } from './support/online';
import { clickSquare, startVsAi, status, waitForNewVersion, resign } from './support/board';

test('signed out, the lobby shows its board at the start, sign-up and rated play in view', async ({ page, consoleErrors }, info) => {
  await page.goto('/');
  await waitForIsland(page);
  // The starting position, not an empty board that looks like a failed load.
  await expect.poll(async () => {
    const s = await status(page);
    return [s.black, s.white];
  }).toEqual([2, 2]);
  // "Sign in · Create an account" in the top bar.
  await expect(page.locator('#account-link')).toHaveText('Sign in');
  const create = page.locator('#account-create-link');
  await expect(create).toHaveText('Create an account');
  // Rated play: shown, disabled, with the way to it and the leaderboard.
  await expect(page.locator('#rated')).toBeDisabled();
  await expect(page.locator('#rated-create')).toHaveText('Create an account to play rated games');
  await expect(page.locator('#rated-leaderboard')).toHaveAttribute('href', '/players');
  // "From a position" waits under "More ways to start".
  await expect(page.locator('#start-obf')).toBeHidden();
  await expect(page.locator('#more-choices > summary')).toHaveText('More ways to start');
  await screenshot(page, info, 'newcomer-lobby');
  await create.click();
  await page.waitForURL((url) => url.pathname === '/account' && url.hash === '#sign-up-form');
  await expect(page.locator('#sign-up-form')).toBeInViewport();
  expect(consoleErrors).toEqual([]);
});

test('a one-off game has no rounds or tally, its review is in view, and a move name marks its square', async ({ page, consoleErrors }, info) => {
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  await expect(page.locator('#turn')).toContainText('Your move');
  await expect(page.locator('.round')).toBeHidden();
  await expect(page.locator('#tally')).toBeHidden();

  // One move each, then hover the moves in the list: the board marks them.
  const before = await status(page);
  await clickSquare(page, 19); // d3
  await waitForNewVersion(page, before.version);
  await expect.poll(async () => (await status(page)).legal.length).toBeGreaterThan(0);
  await page.click('.history summary');
  const moves = page.locator('#history .move-link');
  await expect(moves).toHaveCount(2);
  await moves.first().hover();
  await expect.poll(async () => (await status(page)).cursor).toBe(19);
  const reply = await moves.nth(1).getAttribute('data-mark');
  const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);
  await moves.nth(1).hover();
  await expect.poll(async () => (await status(page)).cursor).toBe(index(reply!));
  await page.mouse.move(5, 5);
  await expect.poll(async () => (await status(page)).cursor).toBe(null);

  // The end: "Review this game" is in view and starts the analysis.
  await resign(page);
  // The result says first what it means for the player.
  await expect(page.locator('#turn')).toHaveText('You lost: White wins by resignation');
  const review = page.locator('#review-game');
  await expect(review).toBeInViewport();
  await expect(review).toHaveText('Review this game');
  await expect(page.locator('#tally')).toBeHidden();
  await screenshot(page, info, 'newcomer-end-card');
  await review.click();
  await expect(page.locator('#analysis')).toBeInViewport();
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', /running|ready/);

  // A rematch makes it a match: now the round and the tally show.
  await page.click('#rematch');
  await expect(page.locator('.round')).toHaveText('Round 2');
  await expect(page.locator('#tally')).toBeVisible();
  await expect(page.locator('#tally-white')).toHaveText('1');
  expect(consoleErrors).toEqual([]);
});

test('in Greek, the winner and the loser read their result first, the review in view, on a laptop and a phone', async ({ browser, server }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const creator = await newPlayer(browser, server.url, errors);
  const guest = await newPlayer(browser, server.url, errors);
  await creator.setViewportSize({ width: 1280, height: 800 });
  await guest.setViewportSize({ width: 390, height: 844 });
  for (const page of [creator, guest]) {
    await page.goto('/lang/el?back=/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  }
  await creator.click('#private-table');
  await creator.waitForURL(/\/table\//);
  const link = await creator.locator('#share-link').inputValue();
  await guest.goto(link);
  await waitForIsland(guest);
  await guest.click('#take-seat');
  await expect(guest.locator('#resign')).toBeVisible();
  await waitForIsland(creator);
  // One move by whoever is black, then the other resigns.
  await expect.poll(async () => (await status(creator)).legal.length + (await status(guest)).legal.length).toBeGreaterThan(0);
  const mover = (await status(creator)).legal.length > 0 ? creator : guest;
  const other = mover === creator ? guest : creator;
  const before = await status(mover);
  await clickSquare(mover, before.legal[0]);
  await waitForNewVersion(mover, before.version);
  await expect.poll(async () => (await status(other)).legal.length).toBeGreaterThan(0);
  await resign(other);
  await expect(other.locator('#turn')).toHaveText(/^Έχασες: Κερδίζουν τα (μαύρα|λευκά): τα (λευκά|μαύρα) παραιτήθηκαν$/);
  await expect(mover.locator('#turn')).toHaveText(/^Κέρδισες: Κερδίζουν τα (μαύρα|λευκά): τα (λευκά|μαύρα) παραιτήθηκαν$/);
  for (const [page, name] of [[creator, 'laptop'], [guest, 'phone']] as const) {
    const review = page.locator('#review-game');
    await expect(review).toHaveText('Ξαναδές την παρτίδα');
    if (name === 'laptop') await expect(review).toBeInViewport();
    // Nothing runs off the side: the longer Greek words wrap.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide, `no sideways scroll on the ${name}`).toBeLessThanOrEqual(0);
    await screenshot(page, info, `newcomer-end-card-el-${name}-${page === mover ? 'winner' : 'loser'}`);
  }
  expect(errors).toEqual([]);
});

test('in Greek on a phone, the hint reads in words, its numbers fit one line each, nothing runs off the side', async ({ page, consoleErrors }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/lang/el?back=/');
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  await page.click('#hint');
  await expect(page.locator('#hint-result')).toHaveText(/^Καλύτερη κίνηση [a-h][1-8]: .+\.$/, { timeout: 60_000 });
  if ((await page.locator('#hint-numbers').getAttribute('aria-expanded')) !== 'true') await page.click('#hint-numbers');
  await expect(page.locator('#hint-legend')).toBeVisible();
  const rows = page.locator('#hint-moves li');
  await expect(rows).toHaveCount((await status(page)).legal.length);
  // "★ d3" beside the long «εκτίμηση» stays on one line.
  const squares = await rows.locator('.sq').evaluateAll((els) =>
    // One line is at most 1.5 × the font's size tall.
    els.map((e) => ({ text: e.textContent ?? '', lines: Math.floor(e.getBoundingClientRect().height / (1.5 * parseFloat(getComputedStyle(e).fontSize))) + 1 })),
  );
  for (const sq of squares) expect(sq.lines, `${sq.text} on one line`).toBeLessThanOrEqual(1);
  await expect(rows.first()).toContainText(/εκτίμηση|ακριβώς/);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide).toBeLessThanOrEqual(0);
  await page.locator('#hint-moves').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'newcomer-hint-el-phone');
  expect(consoleErrors).toEqual([]);
});
