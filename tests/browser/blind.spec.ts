// Othello by ear and keyboard: a whole game against the AI played with the
// keyboard alone, every move followed through the announcer (app/src/board.rs),
// and the keys that read the board without moving.
import { test, expect, screenshot, saveResult } from './support/fixtures';
import { isOver, status } from './support/board';
import type { Page } from '@playwright/test';

const SQUARE = /[a-h][1-8]/;

function squareIndex(name: string): number {
  return (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);
}

/** Presses Tab until the element with `id` has the focus. */
async function tabTo(page: Page, id: string) {
  for (let i = 0; i < 60; i++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached #${id}`);
}

/** Everything the announcer has said, in order (recorded in the page). */
async function said(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__said as string[]);
}

/** Presses a key and returns what the announcer says next. */
async function hear(page: Page, key: string): Promise<string> {
  const before = (await said(page)).length;
  await page.keyboard.press(key);
  await expect.poll(async () => (await said(page)).length).toBeGreaterThan(before);
  return (await said(page)).at(-1)!.replace(/\u200b/g, '');
}

test('a whole game against the AI by keyboard alone, followed by ear', async ({ page, consoleErrors }, info) => {
  test.setTimeout(360_000);
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  // The announcer's words, recorded as they change (the page keeps one
  // window across its client-side navigation).
  await page.evaluate(() => {
    (window as any).__said = [];
    new MutationObserver(() => {
      const text = document.querySelector('#announcer')?.textContent ?? '';
      const all = (window as any).__said as string[];
      if (text && all.at(-1) !== text) all.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // The lobby by keyboard: depth 1 by typing it on the select, then Start.
  await tabTo(page, 'ai-depth');
  await page.keyboard.press('1');
  await expect(page.locator('#ai-depth')).toHaveValue('1');
  await tabTo(page, 'start-ai');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/table\//);
  await page.waitForFunction(() => !document.querySelector('main.lobby') && document.body.dataset.hydrated === 'true');
  await page.waitForFunction(() => ((window as any).othello3d?.status()?.legal.length ?? 0) > 0, null, { timeout: 60_000 });

  // To the board, and read it without moving.
  await tabTo(page, 'board-canvas');
  expect(await hear(page, 'm')).toBe('No move has been played yet.');
  expect(await hear(page, 'l')).toBe('Legal moves: d3, c4, f5, e6.');
  expect(await hear(page, 's')).toBe('Discs: black 2, white 2; empty squares: 60.');
  expect(await hear(page, 't')).toBe('This game has no clocks.');
  // The cursor starts on the first legal move, d3: its row, column, diagonals.
  expect(await hear(page, 'r')).toBe('Row 3: a3 to h3 empty.');
  expect(await hear(page, 'c')).toBe('Column d: d1 to d3 empty, d4 white, d5 black, d6 to d8 empty.');
  expect(await hear(page, 'd')).toBe('Diagonal b1–h7: b1 to d3 empty, e4 black, f5 to h7 empty. Diagonal a6–f1: a6 to f1 empty.');
  await screenshot(page, info, 'keyboard-reading');

  let moves = 0;
  for (; moves < 40; moves++) {
    await page.waitForFunction(
      () => {
        const turn = document.querySelector('#turn')?.textContent ?? '';
        const s = (window as any).othello3d?.status();
        return /wins|Draw/.test(turn) || (!!s && s.legal.length > 0 && !s.animating);
      },
      null,
      { timeout: 60_000 },
    );
    if (await isOver(page)) break;
    // Which moves? Then walk the cursor there with the arrow keys.
    const legal = await hear(page, 'l');
    expect(legal).toMatch(/^Legal moves: [a-h][1-8](, [a-h][1-8])*\.$/);
    const target = legal.match(SQUARE)![0];
    let here = await hear(page, 'Home');
    const want = squareIndex(target);
    let at = squareIndex(here.match(SQUARE)![0]);
    while (at !== want) {
      const key =
        Math.floor(at / 8) < Math.floor(want / 8) ? 'ArrowDown'
        : Math.floor(at / 8) > Math.floor(want / 8) ? 'ArrowUp'
        : at % 8 < want % 8 ? 'ArrowRight'
        : 'ArrowLeft';
      here = await hear(page, key);
      at = squareIndex(here.match(SQUARE)![0]);
    }
    expect(here).toBe(`${target}, empty, legal move`);
    // Enter plays; the announcer says what it did and who is next.
    const before = (await said(page)).length;
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await said(page)).slice(before).find((t) => t.startsWith(`Black ${target} flips`)) ?? '')
      .toMatch(
        new RegExp(
          `^Black ${target} flips (\\d+): [a-h][1-8](, [a-h][1-8])*\\.( White has no legal move and passes\\.)?` +
            `( (White|Black) to move, \\d+ legal moves?\\.| Game over: .*)$`,
        ),
      );
    // The AI's reply is announced the same way (unless the game ended or White passed).
    const mine = (await said(page)).slice(before).find((t) => t.startsWith(`Black ${target} flips`))!;
    // The count said is the number of squares listed.
    const [, count, list] = /flips (\d+): ([^.]*)\./.exec(mine)!;
    expect(list.split(', ').length).toBe(Number(count));
    if (/White to move/.test(mine)) {
      await expect
        .poll(async () => (await said(page)).slice(before).find((t) => t.startsWith('White ')) ?? '', { timeout: 60_000 })
        .toMatch(/^White [a-h][1-8] flips \d+: [a-h][1-8](, [a-h][1-8])*\.( Black has no legal move and passes\.)?( (White|Black) to move, \d+ legal moves?\.| Game over: .*)$/);
    }
  }
  expect(await isOver(page), 'the game ends within 40 moves of the human').toBe(true);
  await expect.poll(async () => (await said(page)).some((t) => /Game over: (Black wins|White wins|a draw)\. Black \d+, white \d+\./.test(t))).toBe(true);
  expect(await hear(page, 's')).toMatch(/^Discs: black \d+, white \d+; empty squares: \d+\.$/);
  // On a Greek keyboard layout the S key types «σ»: the reading keys go by
  // the physical key, so it reads the discs all the same.
  const beforeGreek = (await said(page)).length;
  await page.evaluate(() =>
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'σ', code: 'KeyS', bubbles: true })),
  );
  await expect.poll(async () => (await said(page)).length).toBeGreaterThan(beforeGreek);
  expect((await said(page)).at(-1)!.replace(/\u200b/g, '')).toMatch(/^Discs: black \d+, white \d+; empty squares: \d+\.$/);
  expect(await hear(page, 'm')).toMatch(/^Last move: (Black|White) [a-h][1-8] flips \d+: /);
  const s = await status(page);
  saveResult(info, 'keyboard-game', { moves, said: await said(page), black: s.black, white: s.white });
  expect(consoleErrors).toEqual([]);
});

test('the rules list the reading keys, and the 3D board can be switched off and on', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  await page.waitForFunction(() => !document.querySelector('main.lobby') && document.body.dataset.hydrated === 'true');
  await page.click('#rules-toggle');
  await expect(page.locator('#rules-keys')).toContainText('R reads the cursor\'s row, C its column, D both diagonals');
  await page.keyboard.press('Escape');
  // Off: the flat board, remembered across a reload.
  await expect(page.locator('#board-toggle')).toHaveText('Use the flat 2D board');
  await Promise.all([page.waitForEvent('load'), page.click('#board-toggle')]);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#backend')).toHaveAttribute('data-backend', '2d');
  await expect(page.locator('#board-2d button')).toHaveCount(64);
  await page.reload();
  await expect(page.locator('#backend')).toHaveAttribute('data-backend', '2d');
  // The reading keys work on the flat board too.
  await page.locator('#board-2d [data-square="19"]').focus();
  await page.keyboard.press('s');
  await expect(page.locator('#announcer')).toHaveText('Discs: black 2, white 2; empty squares: 60.');
  // On again.
  await expect(page.locator('#board-toggle')).toHaveText('Use the 3D board');
  await Promise.all([page.waitForEvent('load'), page.click('#board-toggle')]);
  await expect(page.locator('#backend')).not.toHaveAttribute('data-backend', '2d');
  await expect(page.locator('#backend')).not.toHaveAttribute('data-backend', 'loading');
  expect(consoleErrors).toEqual([]);
});
