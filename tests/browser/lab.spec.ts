// The AI lab in a real browser (offline explainer, the server's default):
// stepping with the button and the N key, autoplay then pause, reviewing an
// earlier move in the sidebar, the evaluation graph and the exports; a second
// visitor watching (no step controls), copying the game and stepping the copy.
import { Page } from '@playwright/test';
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { status } from './support/board';
import { waitDrawn, waitExplained } from './support/lab';

async function moveCount(page: Page): Promise<number> {
  return page.locator('#lab-moves li').count();
}

test('AI lab: Next turn and N, autoplay and pause, review of an earlier move', async ({ page, consoleErrors }, info) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#open-lab');
  await page.waitForURL(/\/lab$/);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#provider-status')).toHaveAttribute('data-kind', 'offline');
  await page.selectOption('#black-depth', '3');
  await page.selectOption('#white-depth', '1');
  await page.click('#new-lab');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  const labUrl = page.url();
  const labId = labUrl.split('/').pop()!;
  // A short reading time for autoplay, through the URL.
  await page.goto(`${labUrl}?reading=0.3`);
  await waitForIsland(page);
  await expect(page.locator('#lab-depths')).toContainText('Black depth 3 vs White depth 1');
  await expect(page.locator('#reading')).toHaveValue('0.3');
  await expect(page.locator('#lab-status')).toContainText('Black to move (depth 3)');

  // Next turn with the button: black moves, the explanation follows.
  await page.click('#next-turn');
  await waitExplained(page, 1);
  const first = (await page.locator('#lab-moves li').first().textContent()) ?? '';
  const firstSquare = /Black ([a-h][1-8])/.exec(first)?.[1];
  expect(firstSquare, first).toBeTruthy();
  await expect(page.locator('#explanation')).toContainText(`Black played ${firstSquare} and flipped 1 disc`);
  await expect(page.locator('#lesson')).not.toBeEmpty();
  await expect(page.locator('#explained-by')).toContainText('Offline explainer');
  await expect(page.locator('#black-count')).toHaveText('4');
  await expect(page.locator('#white-count')).toHaveText('1');
  await waitDrawn(page, 2);

  // Next turn with the N key: white answers.
  await page.keyboard.press('n');
  await waitExplained(page, 2);
  await expect(page.locator('#lab-moves li').nth(1)).toContainText('White');
  await expect(page.locator('#explanation')).toContainText('White played');
  await waitDrawn(page, 3);
  const afterTwo = await status(page);
  expect(afterTwo.black + afterTwo.white).toBe(6);

  // Autoplay runs on its own, then Pause stops it.
  await page.click('#autoplay');
  await expect(page.locator('#pause')).toBeVisible();
  await expect(page.locator('#autoplay-state')).toContainText('0.3 s reading time');
  await expect.poll(() => moveCount(page), { timeout: 120_000 }).toBeGreaterThanOrEqual(6);
  await page.click('#pause');
  await expect(page.locator('#autoplay')).toBeVisible();
  await expect(page.locator('#next-turn')).toBeEnabled({ timeout: 60_000 });
  const paused = await moveCount(page);
  await expect(page.locator('#explanation-card')).toHaveAttribute('data-state', 'ready');
  await page.waitForTimeout(1500);
  expect(await moveCount(page), 'no move after Pause').toBe(paused);
  await waitDrawn(page, paused + 1);
  await expect(page.locator('#eval-graph')).toHaveAttribute('data-points', String(paused));
  await screenshot(page, info, 'lab');
  // The engines (depth 3 and 1) play d3 c3 (the diagonal opening) c4 e3 f6:
  // the Buffalo, seen from d3 (the list is written from f5).
  expect(paused).toBeGreaterThanOrEqual(2);
  await expect(page.locator('#opening')).toContainText(paused >= 5 ? 'Buffalo' : 'Diagonal Opening');

  // Review move 2 in the sidebar: its board and its explanation.
  await page.click('#lab-moves button[data-ply="2"]');
  await expect(page.locator('#explanation-card')).toHaveAttribute('data-ply', '2');
  await expect(page.locator('#review-banner')).toContainText('Reviewing move 2');
  await expect(page.locator('#explanation')).toContainText('White played');
  await waitDrawn(page, 3);
  const reviewed = await status(page);
  expect(reviewed.black + reviewed.white, 'the board of move 2').toBe(6);
  await screenshot(page, info, 'lab-review');
  await page.locator('#eval-graph').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'lab-graph');
  await page.click('#live');
  await expect(page.locator('#review-banner')).toHaveCount(0);
  await waitDrawn(page, paused + 1);

  // The exports hold every move with its explanation and lesson.
  const exported = await (await page.request.get(`/lab/${labId}/export.json`)).json();
  expect(exported.moves.length).toBe(paused);
  for (const m of exported.moves) {
    expect(m.explanation_state).toBe('ready');
    expect(m.lesson.length).toBeGreaterThan(10);
    expect(m.explanation).toContain(`played ${m.move}`);
  }
  const text = await (await page.request.get(`/lab/${labId}/export.txt`)).text();
  expect(text).toContain('Lesson: ');
  saveResult(info, 'lab', { moves: paused, first: firstSquare });

  // A phone-sized screen: board first, then the controls and the explanation.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('#next-turn')).toBeVisible();
  const board = await page.locator('#board-canvas').boundingBox();
  expect(board!.width).toBeGreaterThan(300);
  await screenshot(page, info, 'lab-mobile');
  expect(consoleErrors).toEqual([]);
});

test('AI lab: a watcher sees no step controls, follows the owner, copies the game and steps the copy', async ({ page, browser, server, consoleErrors }, info) => {
  test.setTimeout(240_000);
  // The owner starts a lab game and plays two moves.
  await page.goto('/lab');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.selectOption('#black-depth', '2');
  await page.selectOption('#white-depth', '1');
  await page.click('#new-lab');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  const labUrl = page.url();
  const labId = labUrl.split('/').pop()!;
  await waitForIsland(page);
  await expect(page.locator('#watching')).toHaveCount(0);
  await page.click('#next-turn');
  await waitExplained(page, 1);
  await page.click('#next-turn');
  await waitExplained(page, 2);

  // Another visitor (their own cookies) opens it: watch only.
  const other = await browser.newContext({ baseURL: server.url, viewport: { width: 1100, height: 760 } });
  const watcher = await other.newPage();
  const watcherErrors: string[] = [];
  watcher.on('console', (m) => {
    if (m.type() === 'error') watcherErrors.push(m.text());
  });
  watcher.on('pageerror', (e) => watcherErrors.push(`pageerror: ${e.message}`));
  watcher.on('response', (r) => {
    if (r.status() >= 400) watcherErrors.push(`HTTP ${r.status()} ${r.url()}`);
  });
  await watcher.goto(labUrl);
  await waitForIsland(watcher);
  await expect(watcher.locator('#watching')).toBeVisible();
  await expect(watcher.locator('#copy-lab')).toBeEnabled();
  for (const control of ['#next-turn', '#autoplay', '#pause', '#reading', '#retry']) {
    await expect(watcher.locator(control), control).toHaveCount(0);
  }
  await expect(watcher.locator('#lab-moves li')).toHaveCount(2);
  // N does nothing for a watcher.
  await watcher.keyboard.press('n');
  await watcher.waitForTimeout(500);
  await expect(watcher.locator('#lab-moves li')).toHaveCount(2);

  expect(watcherErrors, 'before: watching').toEqual([]);
  // The owner steps; the watcher's page follows.
  await page.click('#next-turn');
  await waitExplained(page, 3);
  await waitExplained(watcher, 3);
  await waitDrawn(watcher, 4);
  await screenshot(watcher, info, 'lab-watcher');
  await watcher.setViewportSize({ width: 390, height: 844 });
  await expect(watcher.locator('#copy-lab')).toBeVisible();
  await screenshot(watcher, info, 'lab-watcher-mobile');
  await watcher.locator('#watching').scrollIntoViewIfNeeded();
  await screenshot(watcher, info, 'lab-watcher-mobile-controls');
  await watcher.setViewportSize({ width: 1100, height: 760 });

  expect(watcherErrors, 'before: following').toEqual([]);
  // The lab home lists the game among others' games, read-only.
  await watcher.goto('/lab');
  await watcher.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(watcher.locator(`#lab-others a[href="/lab/${labId}"]`)).toHaveCount(1);
  await expect(watcher.locator('#lab-games')).toHaveCount(0);
  await expect(watcher.locator('#lab-empty')).toBeVisible();
  await watcher.click(`#lab-others a[href="/lab/${labId}"]`);
  await watcher.waitForURL(labUrl);
  await waitForIsland(watcher);

  expect(watcherErrors, 'before: the list').toEqual([]);
  // Make my own copy: a new lab game of the watcher's, same moves and depths.
  await watcher.click('#copy-lab');
  await watcher.waitForURL((url) => /\/lab\/[0-9a-f]+$/.test(url.pathname) && !url.pathname.endsWith(labId));
  const copyId = watcher.url().split('/').pop()!;
  await waitForIsland(watcher);
  await expect(watcher.locator('#watching')).toHaveCount(0);
  await expect(watcher.locator('#lab-depths')).toContainText('Black depth 2 vs White depth 1');
  await expect(watcher.locator('#lab-moves li')).toHaveCount(3);
  await expect(watcher.locator('#next-turn')).toBeEnabled();
  await watcher.click('#next-turn');
  await waitExplained(watcher, 4);
  await waitDrawn(watcher, 5);
  expect(watcherErrors, 'before: the copy').toEqual([]);
  await screenshot(watcher, info, 'lab-copy');
  // The original is untouched; the owner of the original cannot step the copy.
  await expect(page.locator('#lab-moves li')).toHaveCount(3);
  await page.goto(`/lab/${copyId}`);
  await waitForIsland(page);
  await expect(page.locator('#watching')).toBeVisible();
  await expect(page.locator('#next-turn')).toHaveCount(0);
  await expect(page.locator('#lab-moves li')).toHaveCount(4);
  // The watcher's list now has the copy as theirs.
  await watcher.goto('/lab');
  await watcher.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(watcher.locator(`#lab-games a[href="/lab/${copyId}"]`)).toHaveCount(1);
  await screenshot(watcher, info, 'lab-home');
  await other.close();
  expect(watcherErrors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
