// Playing at a table by real clicks on the 3D scene, on both backends.
import { test, expect, ANIMATION_PACE, waitForIsland, pixelStats, screenshot, saveResult } from './support/fixtures';
import {
  clickSquare, counts, isOver, resign, startHotSeat, startVsAi, status, waitForNewVersion, waitForTurnOrEnd,
} from './support/board';

test('a whole game against the AI at depth 1, played by clicking the board', async ({ page, consoleErrors }, info) => {
  test.setTimeout(360_000);
  await startVsAi(page, 1, 'black');
  await waitForIsland(page);
  await expect(page.locator('.mode')).toContainText('AI depth 1');
  expect((await status(page)).pace, 'the suite\'s faster animations reach the island').toBe(ANIMATION_PACE);
  let moves = 0;
  for (let guard = 0; guard < 70; guard++) {
    await waitForTurnOrEnd(page);
    if (await isOver(page)) break;
    const s = await status(page);
    // Prefer a corner, else the first legal square.
    const corner = s.legal.find((q) => [0, 7, 56, 63].includes(q));
    await clickSquare(page, corner ?? s.legal[0]);
    await waitForNewVersion(page, s.version);
    moves++;
    if (moves === 3) await screenshot(page, info, 'vs-ai-midgame');
  }
  expect(await isOver(page)).toBe(true);
  const [black, white] = await counts(page);
  expect(black + white).toBeLessThanOrEqual(64);
  const tally = await page.locator('#tally').textContent();
  const total = ['#tally-black', '#tally-white', '#tally-draws'];
  let sum = 0;
  for (const id of total) sum += Number(await page.locator(id).textContent());
  expect(sum, `tally counts the finished round once (${tally})`).toBe(1);
  await expect(page.locator('#notice')).toContainText('Game over');
  await screenshot(page, info, 'vs-ai-final');
  saveResult(info, 'vs-ai-game', { humanMoves: moves, black, white });
  expect(consoleErrors).toEqual([]);
});

test('choosing white: the AI opens the game', async ({ page, consoleErrors }, info) => {
  await startVsAi(page, 2, 'white');
  await waitForIsland(page);
  await waitForTurnOrEnd(page);
  const [black, white] = await counts(page);
  expect([black, white]).toEqual([4, 1]);
  await expect(page.locator('#turn')).toContainText('Your move (White)');
  await expect(page.locator('#history li')).toHaveCount(1);
  await screenshot(page, info, 'choose-white');
  expect(consoleErrors).toEqual([]);
});

test('the strongest level: offered in the lobby, it opens as black and answers each move', async ({ page, consoleErrors }, info) => {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#ai-depth option[value="7"]')).toHaveText('Strongest');
  await startVsAi(page, 7, 'white');
  await waitForIsland(page);
  await expect(page.locator('.mode')).toContainText('vs the strongest AI');
  await waitForTurnOrEnd(page);
  await expect(page.locator('#turn')).toContainText('Your move (White)');
  // Its first move comes from the server's opening book.
  await expect(page.locator('#ai-search')).toContainText('opening book');
  // Two moves of ours, each answered by the strongest AI.
  for (let i = 0; i < 2; i++) {
    const s = await status(page);
    await clickSquare(page, s.legal[0]);
    await waitForNewVersion(page, s.version);
    await waitForTurnOrEnd(page);
  }
  await expect(page.locator('#history li')).toHaveCount(5);
  await screenshot(page, info, 'strongest');
  expect(consoleErrors).toEqual([]);
});

test('hot-seat: both sides click, discs drawn follow the score, refusals and rules', async ({ page, consoleErrors }, info) => {
  await startHotSeat(page);
  await waitForIsland(page);
  const before = await pixelStats(page);
  expect(before.black).toBeGreaterThan(50);
  expect(before.white).toBeGreaterThan(50);

  // Black f5 (index 37): black 4, white 1.
  let s = await status(page);
  expect(s.legal.sort((a, b) => a - b)).toEqual([19, 26, 37, 44]);
  await clickSquare(page, 37);
  await waitForNewVersion(page, s.version);
  expect(await counts(page)).toEqual([4, 1]);
  const afterBlack = await pixelStats(page);
  expect(afterBlack.black).toBeGreaterThan(before.black);
  expect(afterBlack.white).toBeLessThan(before.white);
  await expect(page.locator('#turn')).toContainText('White to move');

  // White f6 (index 45): black 3, white 3.
  s = await status(page);
  await clickSquare(page, 45);
  await waitForNewVersion(page, s.version);
  expect(await counts(page)).toEqual([3, 3]);
  const afterWhite = await pixelStats(page);
  expect(afterWhite.white).toBeGreaterThan(afterBlack.white);
  expect(afterWhite.black).toBeLessThan(afterBlack.black);
  saveResult(info, 'disc-pixels', { before, afterBlack, afterWhite });

  // An occupied square is refused with a message, and nothing changes.
  s = await status(page);
  await clickSquare(page, 27);
  await expect(page.locator('#message')).toContainText('is taken');
  // A square that flips nothing is refused too.
  await clickSquare(page, 0);
  await expect(page.locator('#message')).toContainText('would flip nothing');
  expect((await status(page)).version).toBe(s.version);
  expect(await counts(page)).toEqual([3, 3]);
  await screenshot(page, info, 'hot-seat-refused');

  // The ? button opens and closes the rules sidebar.
  await expect(page.locator('#rules')).not.toBeVisible();
  await page.click('#rules-toggle');
  await expect(page.locator('#rules')).toBeVisible();
  await expect(page.locator('#rules')).toContainText('How to play');
  await screenshot(page, info, 'rules-open');
  await page.click('#rules-toggle');
  await expect(page.locator('#rules')).not.toBeVisible();

  // Resign, then both sides vote for a rematch; the tally keeps the round.
  await resign(page);
  await expect(page.locator('#turn')).toContainText('White wins by resignation');
  await expect(page.locator('#tally-white')).toHaveText('1');
  await page.click('#vote-black');
  await expect(page.locator('#vote-black')).toContainText('withdraw');
  await page.click('#vote-white');
  await expect(page.locator('.round')).toContainText('Round 2');
  expect(await counts(page)).toEqual([2, 2]);
  await expect(page.locator('#tally-white')).toHaveText('1');
  // The only errors are the browser's notes on the two refused moves (HTTP 422).
  const unexpected = consoleErrors.filter(
    (e) => !/HTTP 422 .*\/api\/play_move/.test(e) && !/status of 422/.test(e),
  );
  expect(unexpected).toEqual([]);
  expect(consoleErrors.filter((e) => /HTTP 422/.test(e))).toHaveLength(2);
});

test('export holds every move, the boards and the result', async ({ page, request }) => {
  await startHotSeat(page);
  await waitForIsland(page);
  for (const square of [37, 45]) {
    const s = await status(page);
    await clickSquare(page, square);
    await waitForNewVersion(page, s.version);
  }
  const id = page.url().split('/table/')[1];
  const text = await (await request.get(`/table/${id}/export.txt`)).text();
  expect(text).toContain('1. Black f5 — flips 1');
  expect(text).toContain('2. White f6 — flips 1');
  expect(text).toContain('  A B C D E F G H');
  expect(text).toContain('Transcript: f5f6');
  expect(text).toContain('In progress: Black to move');
  expect(text).toContain('GM[Othello]');
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('a phone-sized screen plays too', async ({ page, consoleErrors }, info) => {
    await startHotSeat(page);
    await waitForIsland(page);
    const s = await status(page);
    await clickSquare(page, 19);
    await waitForNewVersion(page, s.version);
    expect(await counts(page)).toEqual([4, 1]);
    await screenshot(page, info, 'mobile');
    expect(consoleErrors).toEqual([]);
  });
});
