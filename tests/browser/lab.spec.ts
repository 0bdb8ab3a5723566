// The AI lab in a real browser (offline explainer, the server's default):
// stepping with the button and the N key, autoplay then pause, reviewing an
// earlier move in the sidebar, the evaluation graph and the exports; a second
// visitor watching (no step controls), copying the game and stepping the copy.
import { Page } from '@playwright/test';
import { test, expect, fastAnimations, waitForIsland, screenshot, saveResult } from './support/fixtures';
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
  // The lab speaks in discs, as the analysis does: the graph, the card and
  // the explanation.
  await expect(page.locator('#eval-graph')).toHaveAttribute('data-unit', 'discs');
  const discs = page.locator('#discs-facts');
  await expect(discs).toContainText(/^In discs \(the analysis's estimate\): [+-]\d+/);
  const played = Number(await discs.getAttribute('data-discs'));
  const best = Number(await discs.getAttribute('data-best'));
  expect(best).toBeGreaterThanOrEqual(played);
  await expect(page.locator('#explanation')).toContainText('Counted in discs, as the game analysis counts them');
  await screenshot(page, info, 'lab');
  // The engines (depth 3 and 1) play d3 c3 (the diagonal opening) c4 e3 f6:
  // the Buffalo, seen from d3 (the list is written from f5).
  expect(paused).toBeGreaterThanOrEqual(2);
  await expect(page.locator('#opening')).toContainText(paused >= 5 ? 'Buffalo' : 'Diagonal Opening');

  // Review move 2 in the sidebar: its board and its explanation.
  const live = await status(page);
  await page.click('#lab-moves button[data-ply="2"]');
  await expect(page.locator('#explanation-card')).toHaveAttribute('data-ply', '2');
  await expect(page.locator('#review-banner')).toContainText('Reviewing move 2');
  await expect(page.locator('#explanation')).toContainText('White played');
  await waitDrawn(page, 3);
  const reviewed = await status(page);
  expect(reviewed.black + reviewed.white, 'the board of move 2').toBe(6);
  // The score card and the side to move are those of move 2's position, as
  // on the board, not the live game's.
  await expect(page.locator('#black-count')).toHaveText(String(reviewed.black));
  await expect(page.locator('#white-count')).toHaveText(String(reviewed.white));
  await expect(page.locator('#lab-status')).toHaveText('After move 2: Black to move (depth 3)');
  await expect(page.locator('#lab-status')).toHaveAttribute('data-reviewing', '2');
  // Next turn says what it will do while a move is under review.
  await expect(page.locator('#review-note')).toContainText('Next turn (N) first brings back the live game');
  await screenshot(page, info, 'lab-review');
  await page.locator('#eval-graph').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'lab-graph');
  // N while reviewing brings back the live game and plays nothing unseen.
  await page.keyboard.press('n');
  await expect(page.locator('#review-banner')).toHaveCount(0);
  await expect(page.locator('#review-note')).toHaveCount(0);
  await waitDrawn(page, paused + 1);
  await expect(page.locator('#black-count')).toHaveText(String(live.black));
  await expect(page.locator('#white-count')).toHaveText(String(live.white));
  await expect(page.locator('#lab-status')).not.toHaveAttribute('data-reviewing', /.*/);
  await page.waitForTimeout(1000);
  expect(await moveCount(page), 'N while reviewing plays no move').toBe(paused);
  // The Next turn button too; and Live leaves a review.
  await page.click('#lab-moves button[data-ply="1"]');
  await expect(page.locator('#lab-status')).toHaveText('After move 1: White to move (depth 1)');
  await expect(page.locator('#black-count')).toHaveText('4');
  await expect(page.locator('#white-count')).toHaveText('1');
  await page.click('#next-turn');
  await expect(page.locator('#review-banner')).toHaveCount(0);
  await page.waitForTimeout(1000);
  expect(await moveCount(page), 'Next turn while reviewing plays no move').toBe(paused);
  await page.click('#lab-moves button[data-ply="2"]');
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
  await fastAnimations(other);
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

test('AI lab: visitors are told who writes the explanations, in their language; a watcher is not told to press Next turn', async ({ page, browser, server, consoleErrors }) => {
  test.setTimeout(120_000);
  const noOperatorText = async (p: Page) => {
    const html = await p.content();
    expect(html).not.toContain('Codex');
    expect(html).not.toContain('OPENAI_API_KEY');
  };
  await page.goto('/lab');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  const line = page.locator('#provider-status');
  await expect(line).toHaveAttribute('data-kind', 'offline');
  await expect(line).toHaveText('Explanations are written by the built-in explainer, from the facts of each position.');
  await noOperatorText(page);
  await page.selectOption('#black-depth', '1');
  await page.selectOption('#white-depth', '1');
  await page.click('#new-lab');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  const labPath = new URL(page.url()).pathname;
  await waitForIsland(page);
  await expect(page.locator('#provider-status')).toContainText('Explanations are written by the built-in explainer');
  await noOperatorText(page);
  // The owner is told how to start.
  await expect(page.locator('#explanation-card')).toContainText('Press Next turn (or N)');

  // A watcher has no Next turn button, and is not told to press one.
  const other = await browser.newContext({ baseURL: server.url, viewport: { width: 1100, height: 760 } });
  await fastAnimations(other);
  const watcher = await other.newPage();
  await watcher.goto(labPath);
  await waitForIsland(watcher);
  await expect(watcher.locator('#watching')).toBeVisible();
  await expect(watcher.locator('#next-turn')).toHaveCount(0);
  const card = watcher.locator('#explanation-card');
  await expect(card).toContainText("when this game's owner steps it");
  await expect(card).not.toContainText('Next turn');
  await expect(watcher.locator('main')).not.toContainText('Press Next turn');
  await noOperatorText(watcher);

  // In Greek: the same, in Greek.
  await watcher.goto(`/lang/el?back=${labPath}`);
  await waitForIsland(watcher);
  await expect(watcher.locator('html')).toHaveAttribute('lang', 'el');
  await expect(watcher.locator('#provider-status')).toHaveText('Ενσωματωμένος εξηγητής: οι εξηγήσεις γράφονται από τα δεδομένα κάθε θέσης.');
  await expect(watcher.locator('#provider-status')).toHaveAttribute('data-kind', 'offline');
  await expect(card).toContainText('Οι μηχανές παίζουν όταν τις προχωρά ο κάτοχος');
  await expect(card).not.toContainText('Πάτα');
  await expect(watcher.locator('main')).not.toContainText(/Explanations|Press Next/);
  await noOperatorText(watcher);
  await watcher.goto('/lab');
  await watcher.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(watcher.locator('#provider-status')).toContainText('Ενσωματωμένος εξηγητής');
  await noOperatorText(watcher);
  await other.close();
  expect(consoleErrors).toEqual([]);
});

/** The boxes of the lab's three parts, and whether the page is wider than the screen. */
async function labLayout(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const r = document.querySelector(selector)!.getBoundingClientRect();
      return { x: r.x, y: r.y + window.scrollY, right: r.right, bottom: r.bottom + window.scrollY, width: r.width, height: r.height };
    };
    return {
      board: box('#board-canvas'),
      boardSection: box('.lab-board'),
      moves: box('.lab-moves'),
      list: box('#lab-moves'),
      hud: box('.lab-hud'),
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

type Box = { x: number; y: number; right: number; bottom: number };
function overlaps(a: Box, b: Box): boolean {
  return a.x < b.right - 1 && b.x < a.right - 1 && a.y < b.bottom - 1 && b.y < a.bottom - 1;
}

test('AI lab on a phone: the move list sits right under (or beside) the board, nothing overlaps or overflows', async ({ page, consoleErrors }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/lab');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.selectOption('#black-depth', '1');
  await page.selectOption('#white-depth', '1');
  await page.click('#new-lab');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  await waitForIsland(page);
  for (let n = 1; n <= 12; n++) {
    await page.click('#next-turn');
    await waitExplained(page, n);
  }
  await waitDrawn(page, 13);
  await page.evaluate(() => window.scrollTo(0, 0));

  // Portrait: the list is the next thing under the board.
  let layout = await labLayout(page);
  expect(layout.overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  expect(layout.board.width).toBeGreaterThan(300);
  expect(layout.moves.y, 'the move list right under the board').toBeLessThan(layout.board.bottom + 200);
  expect(layout.moves.y).toBeGreaterThanOrEqual(layout.boardSection.bottom - 1);
  expect(overlaps(layout.moves, layout.boardSection)).toBe(false);
  expect(overlaps(layout.moves, layout.hud)).toBe(false);
  expect(overlaps(layout.hud, layout.boardSection)).toBe(false);
  // The latest move is in sight in the list (it scrolls sideways).
  await expect(page.locator('#lab-moves button[data-ply="12"]')).toBeInViewport();
  await page.screenshot({ path: '/tmp/lab-390x844.png' });
  await screenshot(page, info, 'lab-phone-portrait');
  await page.locator('#next-turn').scrollIntoViewIfNeeded();
  await expect(page.locator('#next-turn')).toBeInViewport();
  await page.screenshot({ path: '/tmp/lab-390x844-controls.png' });

  // Landscape: the list beside the board (or right under it).
  await page.setViewportSize({ width: 844, height: 390 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  layout = await labLayout(page);
  expect(layout.overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  const beside = layout.moves.x >= layout.boardSection.right - 1 && layout.moves.y < layout.boardSection.bottom;
  const under = layout.moves.y < layout.board.bottom + 200;
  expect(beside || under, JSON.stringify(layout)).toBe(true);
  expect(overlaps(layout.moves, layout.boardSection)).toBe(false);
  expect(overlaps(layout.moves, layout.hud)).toBe(false);
  expect(overlaps(layout.hud, layout.boardSection)).toBe(false);
  await page.screenshot({ path: '/tmp/lab-844x390.png' });
  await screenshot(page, info, 'lab-phone-landscape');

  // A desktop: the three columns side by side.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  layout = await labLayout(page);
  expect(layout.overflow).toBeLessThanOrEqual(0);
  expect(overlaps(layout.moves, layout.boardSection)).toBe(false);
  expect(overlaps(layout.hud, layout.boardSection)).toBe(false);
  await page.screenshot({ path: '/tmp/lab-1280x800.png' });
  expect(consoleErrors).toEqual([]);
});
