// The analysis board at /analysis: a position set up by editing the board and
// by pasting (OBF, a transcript), free moves with a take-back and a
// variation, every legal move's value from the browser's engine worker, and
// the link that reopens the same start and line in a fresh page, pastes of
// OBF, transcripts and GGF games, and the server's deeper search. Bad input
// (a paste, a link) shows a keyed error.
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { analysisValuesShown, clickSquare, status } from './support/board';
import type { Page } from '@playwright/test';

async function openBoard(page: Page, query = '') {
  await page.goto(`/analysis${query}`);
  await waitForIsland(page);
}

/** Waits until the values card lists one value per legal move. */
async function valuesShown(page: Page) {
  await analysisValuesShown(page);
  for (const kind of await page.locator('#analysis-values li .kind').allTextContents()) {
    expect(kind).toMatch(/^(estimate|exact|book)$/);
  }
}

async function playSquare(page: Page, square: number, plies: number) {
  await clickSquare(page, square);
  await expect(page.locator('#analysis-line li')).toHaveCount(plies);
}

test('a position set up by editing; a variation; the link reopens it', async ({ page, browser, server, consoleErrors }, info) => {
  test.setTimeout(240_000);
  await openBoard(page);
  expect((await status(page)).legal).toHaveLength(4);
  await valuesShown(page);

  // Edit: a1 becomes black, then white; White to move.
  await page.click('#analysis-edit');
  await clickSquare(page, 0);
  await page.waitForFunction(() => (window as any).othello3d.status().black === 3);
  await clickSquare(page, 0);
  await page.waitForFunction(() => (window as any).othello3d.status().white === 3);
  await page.check('#analysis-side-white');
  await page.click('#analysis-edit-done');
  await expect(page.locator('#analysis-turn')).toHaveText('White to move.');
  await valuesShown(page);

  // Two moves, one back, another move there: a second line.
  const first = (await status(page)).legal[0];
  await playSquare(page, first, 1);
  await valuesShown(page);
  const second = (await status(page)).legal[0];
  await playSquare(page, second, 2);
  await page.click('#analysis-back');
  await expect(page.locator('#analysis-line [aria-current="step"]')).toHaveText(/^1\. /);
  const other = (await status(page)).legal.find((s) => s !== second)!;
  await playSquare(page, other, 2);
  await expect(page.locator('#analysis-variations li')).toHaveCount(2);
  // A tree: the second line starts where it leaves the first (its move 2),
  // one step in.
  const lines = page.locator('#analysis-variations li');
  await expect(lines.nth(0)).toHaveAttribute('data-depth', '0');
  await expect(lines.nth(0)).toHaveText(/^1\. [a-h][1-8] 2\. [a-h][1-8]$/);
  await expect(lines.nth(1)).toHaveAttribute('data-depth', '1');
  const otherName = 'abcdefgh'[other % 8] + String(Math.floor(other / 8) + 1);
  await expect(lines.nth(1)).toHaveText(`2. ${otherName}`);
  await valuesShown(page);
  await expect(page.locator('#analysis-board-graph')).toHaveAttribute('data-points', /^[1-9]/);
  await screenshot(page, info, 'analysis-board');

  // The link: the same start, line and position in a fresh page.
  const href = (await page.locator('#analysis-link').getAttribute('href'))!;
  expect(href).toMatch(/^\/analysis\?pos=[-XO]{64}O&line=([a-h][1-8]){2}$/);
  const line = await page.locator('#analysis-line').textContent();
  const shown = await status(page);
  const context = await browser.newContext({ baseURL: server.url });
  const again = await context.newPage();
  await openBoard(again, href.replace('/analysis', ''));
  await expect(again.locator('#analysis-line')).toHaveText(line!);
  const reopened = await status(again);
  expect([reopened.black, reopened.white, reopened.legal]).toEqual([shown.black, shown.white, shown.legal]);
  await expect(again.locator('#analysis-error')).toHaveCount(0);
  // A position inside the line: one back, and the link keeps the whole line
  // and the ply shown.
  await page.click('#analysis-back');
  const inside = (await page.locator('#analysis-link').getAttribute('href'))!;
  expect(inside).toMatch(/&line=([a-h][1-8]){2}&at=1$/);
  await openBoard(again, inside.replace('/analysis', ''));
  await expect(again.locator('#analysis-line li')).toHaveCount(2);
  await expect(again.locator('#analysis-line [aria-current="step"]')).toHaveText(/^1\. /);
  await again.click('#analysis-forward');
  await expect(again.locator('#analysis-line [aria-current="step"]')).toHaveText(/^2\. /);
  await context.close();
  expect(consoleErrors).toEqual([]);
});

test('a position pasted as OBF and as a transcript; bad pastes and links say why', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await openBoard(page);
  // After f5: Black d5 e4 e5 f5, White d4; White to move.
  const obf = `${'-'.repeat(27)}OX${'-'.repeat(6)}XXX${'-'.repeat(26)} O`;
  await page.fill('#analysis-paste', obf);
  await page.click('#analysis-load');
  await page.waitForFunction(() => {
    const s = (window as any).othello3d.status();
    return s.black === 4 && s.white === 1;
  });
  await expect(page.locator('#analysis-turn')).toHaveText('White to move.');
  await valuesShown(page);

  await page.fill('#analysis-paste', 'f5d6c3');
  await page.click('#analysis-load');
  await expect(page.locator('#analysis-line li')).toHaveCount(3);
  await expect(page.locator('#analysis-line li').last()).toHaveText('3. c3');
  await expect(page.locator('#analysis-error')).toHaveCount(0);

  // A GGF game, as the archive exports one: its start and its moves (a move's
  // time after the slashes is ignored).
  const ggf =
    '(;GM[Othello]PC[Othello 3D]PB[anna]PW[bob]RE[?]TI[5:00//02:00]TY[8]' +
    'BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5]W[F6]B[E6//1.5];)';
  await page.fill('#analysis-paste', ggf);
  await page.click('#analysis-load');
  await expect(page.locator('#analysis-line li')).toHaveCount(3);
  await expect(page.locator('#analysis-line li').last()).toHaveText('3. e6');
  await expect(page.locator('#analysis-error')).toHaveCount(0);
  await valuesShown(page);
  // A GGF game without its board says so, and changes nothing.
  await page.fill('#analysis-paste', '(;GM[Othello]B[F5];)');
  await page.click('#analysis-load');
  await expect(page.locator('#analysis-error')).not.toBeEmpty();
  await expect(page.locator('#analysis-line li').last()).toHaveText('3. e6');

  await page.fill('#analysis-paste', 'f5d6c3');
  await page.click('#analysis-load');
  await expect(page.locator('#analysis-line li')).toHaveCount(3);
  await page.fill('#analysis-paste', 'f5z9');
  await page.click('#analysis-load');
  await expect(page.locator('#analysis-error')).toHaveText('“z9” at character 3 is not a square: write moves like f5d6c3.');
  // The position stays as it was.
  await expect(page.locator('#analysis-line li')).toHaveCount(3);

  await openBoard(page, '?pos=XYZ&line=f5');
  await expect(page.locator('#analysis-error')).toContainText('That is not a position');
  await openBoard(page, '?line=f5a1');
  await expect(page.locator('#analysis-error')).toHaveText('Move 2 (a1) is not legal there.');
  expect(consoleErrors).toEqual([]);
});

test('a finished table opens in the analysis board with its moves', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await expect(page.locator('#open-analysis')).toHaveCount(0);
  const table = page.url().split('/table/')[1];
  // The whole game through the server functions (first legal move each time).
  const played = await page.evaluate(async (id) => {
    const call = async (name: string, body: unknown) => {
      const r = await fetch(`/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      if (!r.ok) throw new Error(`${name}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    let view = await call('get_table', { table: id });
    let n = 0;
    while (view.status.state === 'playing' && n < 80) {
      view = await call('play_move', { table: id, square: view.board.legal[0] });
      n++;
    }
    return { n, black: view.black_count, white: view.white_count };
  }, table);
  const link = page.locator('#open-analysis');
  await expect(link).toHaveAttribute('href', new RegExp(`^/analysis\\?line=([a-h][1-8])+&review=table:${table}$`));
  await link.click();
  await page.waitForURL(/\/analysis\?line=/);
  await waitForIsland(page);
  await expect(page.locator('#analysis-line li')).toHaveCount(played.n);
  // The game was not analysed: its moves carry no review marks.
  await expect(page.locator('#analysis-line .review-mark')).toHaveCount(0);
  await page.waitForFunction(
    ([b, w]) => {
      const s = (window as any).othello3d.status();
      return s.black === b && s.white === w;
    },
    [played.black, played.white],
  );
  await expect(page.locator('#analysis-turn')).toContainText('Game over');
  // Back along the game: every earlier position gets its values.
  await page.click('#analysis-back');
  await valuesShown(page);
  expect(consoleErrors).toEqual([]);
});

test("the server's deeper search values a position and marks the opening book", async ({ page, consoleErrors }, info) => {
  test.setTimeout(120_000);
  await openBoard(page);
  await valuesShown(page);
  // The browser's engine knows no book: its values are estimates.
  for (const kind of await page.locator('#analysis-values li .kind').allTextContents()) {
    expect(kind).toBe('estimate');
  }
  await page.click('#analysis-server-search');
  await expect(page.locator('#analysis-server-done')).toContainText("server's deeper search", { timeout: 60_000 });
  await expect(page.locator('#analysis-server-search')).toHaveCount(0);
  // The start's four moves are all in the book (one under the symmetries).
  await expect(page.locator('#analysis-values li[data-kind="book"]')).toHaveCount(4);
  await expect(page.locator('#analysis-values li .kind').first()).toHaveText('book');
  // A move on: the browser's values again, and the button for the new position.
  const first = (await status(page)).legal[0];
  await playSquare(page, first, 1);
  await valuesShown(page);
  await expect(page.locator('#analysis-server-search')).toBeVisible();
  // Back: the server's values are kept for the position it valued.
  await page.click('#analysis-back');
  await expect(page.locator('#analysis-values li[data-kind="book"]')).toHaveCount(4);
  await screenshot(page, info, 'analysis-board-server');
  expect(consoleErrors).toEqual([]);
});
