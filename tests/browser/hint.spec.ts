// The Hint button: the engine runs in the browser (a Web Worker with its own
// wasm module, fetched only when a hint is asked for), scores every legal move
// in discs, marks the best on the 3D board and writes every value on its
// square and in a sorted list, on vs-AI and hot-seat tables; online tables
// offer none.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare, startHotSeat, startVsAi, status, waitForNewVersion, waitForTurnOrEnd } from './support/board';
import type { Page } from '@playwright/test';

/** Asks for a hint and for its numbers; returns the marked square and the card's words. */
async function askHint(page: Page): Promise<{ square: number; text: string }> {
  await page.click('#hint');
  await expect(page.locator('#hint-result')).toContainText('Best move', { timeout: 60_000 });
  const text = (await page.locator('#hint-result').textContent()) ?? '';
  // The numbers come on request, and stay shown for the next hints.
  if ((await page.locator('#hint-numbers').getAttribute('aria-expanded')) !== 'true') {
    await expect(page.locator('#hint-moves')).toHaveCount(0);
    expect((await status(page)).labels).toBe(0);
    await page.click('#hint-numbers');
  }
  await expect(page.locator('#hint-legend')).toContainText('Each number is how many discs');
  const square = Number(await page.locator('#hint-result').getAttribute('data-square'));
  // The island draws the ring on that square.
  await page.waitForFunction((q) => (window as any).othello3d.status().hint === q, square);
  return { square, text };
}

test('a hint on a vs-AI table: computed in the worker, marked on the board', async ({ page, consoleErrors }, info) => {
  const engineFiles: string[] = [];
  page.on('request', (r) => {
    if (/\/pkg\/(engine|eval)/.test(r.url())) engineFiles.push(new URL(r.url()).pathname);
  });
  await startVsAi(page, 2, 'black');
  await waitForIsland(page);
  await waitForTurnOrEnd(page);
  expect(engineFiles, 'the lobby and the table do not load the engine by themselves').toEqual([]);

  const s = await status(page);
  const { square, text } = await askHint(page);
  expect(s.legal).toContain(square);
  expect(text).toMatch(/^Best move [a-h][1-8]: (Black is ahead|Black is neither ahead nor behind|it loses least, Black is behind)\.$/);
  await expect(page.locator('#hint-detail')).toHaveText(/^searched 8 moves ahead; \d+ moves? scored in \d+ ms\.$/);
  // Every legal move is listed, best first, each with its value in discs;
  // the list's first square is the marked one, and every value is on the board.
  const rows = page.locator('#hint-moves li');
  await expect(rows).toHaveCount(s.legal.length);
  const listed = await rows.evaluateAll((els) => els.map((e) => ({
    square: Number(e.getAttribute('data-square')),
    value: Number(e.getAttribute('data-value')),
    text: e.textContent ?? '',
  })));
  expect(listed.map((r) => r.square).sort((a, b) => a - b)).toEqual([...s.legal].sort((a, b) => a - b));
  expect(listed[0].square).toBe(square);
  for (let i = 1; i < listed.length; i++) expect(listed[i - 1].value).toBeGreaterThanOrEqual(listed[i].value);
  for (const r of listed) expect(r.text).toMatch(/(estimate|exact)$/);
  expect((await status(page)).labels).toBe(s.legal.length);
  // Content-hashed names (`cargo xtask site`): <stem>.<16 hex digits>.<ext>.
  // The worker, its module and, for scoring every move, the trained weights.
  expect(engineFiles.map((f) => f.replace(/\.[0-9a-f]{16}\./, '.')).sort()).toEqual([
    '/pkg/engine-worker.js',
    '/pkg/engine.js',
    '/pkg/engine_bg.wasm',
    '/pkg/eval.bin',
  ]);
  for (const f of engineFiles) expect(f).toMatch(/\.[0-9a-f]{16}\.(js|wasm|bin)$/);
  await screenshot(page, info, 'hint-vs-ai');

  // Playing the hinted move clears the hint; the AI replies.
  await clickSquare(page, square);
  await waitForNewVersion(page, s.version);
  await expect(page.locator('#hint-result')).toBeEmpty();
  expect((await status(page)).hint).toBeNull();
  await expect(page.locator('#hint-moves')).toHaveCount(0);
  expect((await status(page)).labels).toBe(0);
  await waitForTurnOrEnd(page);
  const second = await askHint(page);
  expect((await status(page)).legal).toContain(second.square);
  saveResult(info, 'hint-vs-ai', { first: text, second: second.text });
  expect(consoleErrors).toEqual([]);
});

test('hints on a hot-seat table for both sides', async ({ page, consoleErrors }, info) => {
  await startHotSeat(page);
  await waitForIsland(page);
  let s = await status(page);
  const black = await askHint(page);
  expect(black.text).toContain('Black is');
  expect(s.legal).toContain(black.square);
  await clickSquare(page, black.square);
  await waitForNewVersion(page, s.version);
  s = await status(page);
  const white = await askHint(page);
  expect(white.text).toContain('White is');
  expect(s.legal).toContain(white.square);
  await screenshot(page, info, 'hint-hot-seat');
  expect(consoleErrors).toEqual([]);
});

test('online tables offer no hint', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#private-table');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await expect(page.locator('#share')).toBeVisible();
  await expect(page.locator('#hint')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
