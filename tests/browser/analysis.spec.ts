// Game analysis in the browser: a finished hot-seat game is analysed from the
// table page; the evaluation graph and the list of worst moves appear, and a
// reload shows the stored result without computing again.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare } from './support/board';
import { startServer, RunningServer } from './support/server';

let server: RunningServer;

test.beforeAll(async () => {
  // A smaller exact range keeps the debug build's solver quick.
  server = await startServer({ args: ['--exact-empties', '12', '--analysis-depth', '3'] });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a finished hot-seat game is analysed: graph, worst moves, stored for reloads', async ({ page, consoleErrors }, info) => {
  test.setTimeout(300_000);
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  await expect(page.locator('#analysis')).toHaveCount(0);
  const table = page.url().split('/table/')[1];

  // Play the whole game through the server functions (first legal move).
  const plies = await page.evaluate(async (id) => {
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
    // The score after each placement, by its number in the move list.
    const scores: Record<number, [number, number]> = {};
    while (view.status.state === 'playing' && n < 80) {
      view = await call('play_move', { table: id, square: view.board.legal[0] });
      n++;
      const number = view.history.map((h: any, i: number) => (h.square ? i + 1 : 0)).filter((x: number) => x > 0).pop();
      scores[number] = [view.black_count, view.white_count];
    }
    return { n, scores, final: [view.black_count, view.white_count] as [number, number] };
  }, table);
  const { scores, final } = plies;
  expect(plies.n).toBeGreaterThan(50);
  await expect(page.locator('#turn')).toContainText(/wins|Draw/);
  await expect(page.locator('#opening')).toBeVisible();

  // One entry to the review: "Review this game" (the card has no button of
  // its own) starts it.
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'none');
  await expect(page.locator('#analysis button')).toHaveCount(0);
  await page.click('#review-game');
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', /running|ready/);
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 240_000 });
  const graph = page.locator('#analysis-graph');
  await expect(graph).toBeVisible();
  expect(Number(await graph.getAttribute('data-points'))).toBe(plies.n);
  await expect(graph.locator('polyline')).toHaveCount(1);
  // The legend names the dashed line only when the graph draws it.
  const dashed = await graph.locator('line.exact-from').count();
  if (dashed > 0) await expect(page.locator('#analysis-legend')).toContainText('dashed line');
  else await expect(page.locator('#analysis-legend')).not.toContainText('dashed');
  const mistakes = page.locator('#mistakes li');
  expect(await mistakes.count()).toBeGreaterThan(0);
  // The first sentence says, in words, where the game turned.
  await expect(page.locator('#analysis-headline')).toHaveText(
    /^The costliest move was \d+\. (Black|White) [a-h][1-8]: it lost \d+ discs? against the best, [a-h][1-8]\.$/,
  );
  await expect(mistakes.first()).toContainText(/(Black|White) [a-h][1-8]/);
  await expect(mistakes.first().locator('.severity')).toHaveText(/inaccuracy|mistake|blunder/);
  // The graph has a scale: who is ahead, and the first and last move numbers.
  await expect(page.locator('.graph-y')).toContainText('Black ahead');
  await expect(page.locator('.graph-y')).toContainText('White ahead');
  await expect(page.locator('#analysis-graph-x')).toContainText('move 1');
  // Every loss is in discs (an estimate in the midgame, exact at the end).
  await expect(mistakes.first().locator('.loss')).toHaveText(/−\d+ discs? \((estimate|exact)\)/);
  // Under the evaluation, each side's cumulative loss: the totals are the
  // sums of the listed losses of that side, and the legend says them.
  const lossGraph = page.locator('#analysis-loss-graph');
  await expect(lossGraph).toBeVisible();
  await expect(lossGraph.locator('polyline')).toHaveCount(2);
  const black = Number(await lossGraph.getAttribute('data-black'));
  const white = Number(await lossGraph.getAttribute('data-white'));
  expect(black + white).toBeGreaterThan(0);
  await expect(page.locator('#analysis-loss-legend')).toContainText(`Black ${black} disc`);
  await expect(page.locator('#analysis-loss-legend')).toContainText(`White ${white} disc`);
  // The opening is named once, beside the move list, not again in the analysis.
  await expect(page.locator('#opening')).toHaveCount(1);
  await expect(page.locator('#analysis')).not.toContainText('Opening:');

  // Analysis and move list number moves alike; a row shows its position.
  const row = mistakes.first();
  const number = Number(await row.getAttribute('data-number'));
  const what = ((await row.locator('.what').textContent()) ?? '').trim();
  expect(what.startsWith(`${number}. `), what).toBe(true);
  const square = what.split(' ').pop()!;
  // Pointing at a row marks its move's square on the board.
  await row.locator('.what').hover();
  const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);
  await expect.poll(() => page.evaluate(() => (window as any).othello3d.status().cursor)).toBe(index(square));
  await page.locator('details.history summary').click();
  await expect(page.locator(`#history li[data-number="${number}"]`)).toContainText(square);
  await row.locator('.what').click();
  await expect(page.locator('#table-review')).toContainText(`after move ${number}`);
  // The better move is named and drawn on the board (the hint's mark).
  // (A listed mistake lost discs: its best move is another square.)
  const bestSquare = (await row.getAttribute('data-best'))!;
  expect(bestSquare).not.toBe(square);
  await expect(page.locator('#review-better')).toContainText(`Better was ${bestSquare}`);
  await expect.poll(() => page.evaluate(() => (window as any).othello3d.status().hint)).toBe(index(bestSquare));
  const expected = scores[number];
  expect(expected, `score after move ${number}`).toBeTruthy();
  await expect(page.locator('#black-count')).toHaveText(String(expected[0]));
  await expect(page.locator('#white-count')).toHaveText(String(expected[1]));
  await page.waitForFunction(
    ([b, w]) => {
      const s = (window as any).othello3d.status();
      return s.black === b && s.white === w;
    },
    expected,
  );
  await screenshot(page, info, 'analysis-review');
  await page.click('#review-back');
  await expect(page.locator('#table-review')).toHaveCount(0);
  await expect(page.locator('#black-count')).toHaveText(String(final[0]));
  // The summary's costliest move and a dot of the graph show their
  // positions too (the number the headline names).
  const go = page.locator('#analysis-headline-go');
  const named = Number(/was (\d+)\./.exec((await page.locator('#analysis-headline').textContent()) ?? '')![1]);
  expect(Number(await go.getAttribute('data-number'))).toBe(named);
  await go.click();
  await expect(page.locator('#table-review')).toContainText(`after move ${named}`);
  await page.click('#review-back');
  const dot = page.locator('#analysis-graph circle.mistake-dot').first();
  const dotNumber = Number(await dot.getAttribute('data-number'));
  await dot.click();
  await expect(page.locator('#table-review')).toContainText(`after move ${dotNumber}`);
  await page.click('#review-back');
  await expect(page.locator('#table-review')).toHaveCount(0);
  // With the focus in the review, the arrow keys step through the game.
  await row.locator('.what').click();
  await expect(page.locator('#table-review')).toContainText(`after move ${number}`);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#table-review')).toContainText(`after move ${Math.max(1, number - 1)}`);
  // (A pass has no score of its own in `scores`.)
  const before = scores[number - 1];
  if (before) await expect(page.locator('#black-count')).toHaveText(String(before[0]));
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#table-review')).toContainText(`after move ${Math.max(1, number - 1) + 1}`);
  await page.click('#review-back');
  await expect(page.locator('#table-review')).toHaveCount(0);

  // A long move list fits its card: no entry runs past it, no sideways scroll.
  const list = page.locator('#history');
  const overflow = await list.evaluate((ol) => {
    const box = ol.getBoundingClientRect();
    const beyond = [...ol.querySelectorAll('li')].filter((li) => li.getBoundingClientRect().right > box.right + 0.5).length;
    return { beyond, scroll: ol.scrollWidth - ol.clientWidth, entries: ol.querySelectorAll('li').length };
  });
  expect(overflow.entries).toBeGreaterThan(50);
  expect(overflow.beyond).toBe(0);
  expect(overflow.scroll).toBeLessThanOrEqual(0);
  // An entry of the list, by keyboard, shows its position too.
  await page.locator('#history li[data-number="10"] button').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#table-review')).toContainText('after move 10');
  expect(scores[10], 'move 10 is a placement').toBeTruthy();
  await expect(page.locator('#black-count')).toHaveText(String(scores[10][0]));
  await expect(page.locator('#white-count')).toHaveText(String(scores[10][1]));
  await screenshot(page, info, 'move-list');
  await page.click('#review-back');

  // "Open in the analysis board" carries the game and its review's marks:
  // the first listed mistake is marked on its move there.
  const open = page.locator('#open-analysis');
  await expect(open).toHaveAttribute('href', new RegExp(`^/analysis\\?line=([a-h][1-8])+&review=table:${table}$`));
  const board = await page.context().newPage();
  // (This spec's own server: the page's address, not the suite's base URL.)
  await board.goto(new URL((await open.getAttribute('href'))!, page.url()).toString());
  await board.waitForFunction(() => document.body.dataset.hydrated === 'true');
  const ply = Number(await mistakes.first().getAttribute('data-ply'));
  const severity = (await mistakes.first().locator('.severity').textContent())!.trim();
  const mark = board.locator(`#analysis-line li:nth-child(${ply}) .review-mark`);
  await expect(mark).toHaveText({ blunder: '??', mistake: '?', inaccuracy: '?!' }[severity]!);
  await expect(mark).toHaveAttribute('title', new RegExp(`^${severity} `, 'i'));
  await board.close();

  await page.locator('#analysis').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'analysis-panel');
  await page.locator('#analysis').screenshot({ path: `${info.outputDir}/analysis-card.png` }).catch(() => {});

  // The export carries the per-move loss.
  const exported = await page.evaluate(async (id) => (await fetch(`/table/${id}/export.txt`)).text(), table);
  expect(exported).toContain('Analysis (search depth 3');
  expect(exported).toMatch(/1\. Black [a-h][1-8] — loss \d+/);
  expect(exported).toContain('Opening:');

  // A reload shows the stored result at once (no progress stage).
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 10_000 });
  await expect(page.locator('#analysis-progress')).toHaveCount(0);

  // Practise the mistakes, by clicks on the main board: it shows the
  // position before each costly move under a banner; a guess is judged by the
  // engine in the browser (good within 1 disc of the best when exact, 2
  // otherwise); the answer writes every move's value on the board, marks the
  // best and shows the best line; "Back to the game" gives the board back.
  await waitForIsland(page);
  await page.locator('#practise').click();
  const banner = page.locator('#practice-banner');
  await expect(banner).toBeVisible();
  const discText = (v: number) => {
    const r = Math.round(v);
    return r === 0 ? '0' : r > 0 ? `+${r}` : `−${-r}`;
  };
  const island = () => page.evaluate(() => (window as any).othello3d.status());
  let positions = 0;
  let foundFirst = 0;
  let wrongSeen = 0;
  while ((await page.locator('#practice-done').count()) === 0) {
    positions++;
    expect(positions).toBeLessThanOrEqual(5);
    const position = page.locator('#practice-position');
    await expect(position).toContainText(`Position ${positions} of`);
    // The main board is the game's position before that move.
    const number = Number(await position.getAttribute('data-number'));
    const earlier = Object.keys(scores).map(Number).filter((n) => n < number);
    const before = earlier.length ? scores[Math.max(...earlier)] : [2, 2];
    await page.waitForFunction(
      ([b, w]) => {
        const s = (window as any).othello3d.status();
        return s.black === b && s.white === w && s.legal.length > 0 && s.labels === 0 && s.drawnVersion >= s.version;
      },
      before,
      { timeout: 10_000 },
    );
    const legal: number[] = (await island()).legal;
    const verdict = page.locator('#practice-verdict .verdict');
    const wrong: { square: number; value: number }[] = [];
    let judged: { square: number; value: number; best: number; tolerance: number } | null = null;
    if (positions === 2) {
      // Straight to the answer, without a guess.
      await page.locator('#practice-show').click();
    } else {
      // Squares in turn until one is good (the best move always is).
      for (const square of legal) {
        await clickSquare(page, square);
        await expect(verdict).toHaveAttribute('data-square', String(square), { timeout: 60_000 });
        const value = Number(await verdict.getAttribute('data-value'));
        const best = Number(await verdict.getAttribute('data-best-value'));
        const tolerance = Number(await verdict.getAttribute('data-tolerance'));
        if ((await verdict.getAttribute('data-verdict')) === 'good') {
          judged = { square, value, best, tolerance };
          break;
        }
        await expect(verdict).toContainText('Not quite');
        expect(Math.round(best) - Math.round(value)).toBeGreaterThan(tolerance);
        wrong.push({ square, value });
      }
      expect(judged, 'some legal move is good').not.toBeNull();
      expect(Math.round(judged!.best) - Math.round(judged!.value)).toBeLessThanOrEqual(judged!.tolerance);
      await expect(verdict).toContainText('Well found');
      if (wrong.length === 0) foundFirst++;
      wrongSeen += wrong.length;
      if (positions === 1) await screenshot(page, info, 'practice-judged');
    }
    // The answer: every legal move's value on the board, the best marked, the line.
    const answer = page.locator('#practice-answer');
    await expect(answer).toBeVisible({ timeout: 60_000 });
    const bestSquare = Number(await answer.getAttribute('data-best'));
    await page.waitForFunction((n) => (window as any).othello3d.status().labels === n, legal.length);
    const shown = await island();
    const labelled = new Map<number, [string, boolean]>(shown.labelTexts.map((l: [number, string, boolean]) => [l[0], [l[1], l[2]]]));
    expect([...labelled.keys()].sort((a, b) => a - b)).toEqual([...legal].sort((a, b) => a - b));
    expect([...labelled].filter(([, [, best]]) => best).map(([square]) => square)).toContain(bestSquare);
    expect(shown.hint).toBe(bestSquare);
    for (const w of wrong) expect(labelled.get(w.square)![0]).toBe(discText(w.value));
    if (judged) expect(labelled.get(judged.square)![0]).toBe(discText(judged.value));
    // A click after the answer changes nothing.
    await clickSquare(page, legal[0]);
    const line = page.locator('#practice-line');
    await expect(line).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
    const bestName = String.fromCharCode(97 + (bestSquare % 8)) + String(Math.floor(bestSquare / 8) + 1);
    await expect(line).toHaveText(new RegExp(`^Best line: ${bestName}( [a-h][1-8])*$`));
    if (judged) await expect(verdict).toHaveAttribute('data-square', String(judged.square));
    else await expect(verdict).toHaveCount(0);
    if (positions === 2) await screenshot(page, info, 'practice-answer');
    await page.locator('#practice-next').click();
  }
  expect(positions).toBeGreaterThan(0);
  const doneNote = page.locator('#practice-done');
  await expect(doneNote).toHaveAttribute('data-total', String(positions));
  await expect(doneNote).toHaveAttribute('data-found', String(foundFirst));
  await expect(page.locator('#practise-again')).toBeVisible();
  await screenshot(page, info, 'practice-done');
  // Back to the game: the banner goes, the board shows the final position again.
  await page.locator('#practice-stop').click();
  await expect(banner).toHaveCount(0);
  await page.waitForFunction(
    ([b, w]) => {
      const s = (window as any).othello3d.status();
      return s.black === b && s.white === w && s.labels === 0;
    },
    final,
    { timeout: 10_000 },
  );
  await expect(page.locator('#practise')).toBeVisible();

  // On a phone the page scrolls up to the board, the banner is a sheet under
  // it, and a tap on the board is a guess.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#practise').scrollIntoViewIfNeeded();
  await page.locator('#practise').click();
  await expect(banner).toBeVisible();
  await page.waitForFunction(() => (window as any).othello3d.status().labels === 0);
  await page.waitForTimeout(300); // the scroll settles
  const canvasBox = (await page.locator('#board-canvas').boundingBox())!;
  const sheet = (await banner.boundingBox())!;
  expect(canvasBox.y).toBeGreaterThanOrEqual(-1);
  expect(canvasBox.y).toBeLessThan(100);
  expect(sheet.y + sheet.height).toBeLessThanOrEqual(845);
  for (const square of [0, 7, 56, 63]) {
    const [, y] = await page.evaluate((i) => (window as any).othello3d.squareToScreen(i), square);
    expect(y, `square ${square} is on screen above the sheet`).toBeGreaterThan(0);
    expect(y).toBeLessThan(sheet.y);
  }
  const phoneLegal: number[] = (await island()).legal;
  await clickSquare(page, phoneLegal[0]);
  await expect(page.locator('#practice-verdict .verdict')).toHaveAttribute('data-square', String(phoneLegal[0]), { timeout: 60_000 });
  await screenshot(page, info, 'practice-phone');
  await page.locator('#practice-stop').click();
  await expect(banner).toHaveCount(0);

  saveResult(info, 'analysis', { plies: plies.n, mistakes: await mistakes.count(), practised: positions, wrongGuesses: wrongSeen });
  expect(consoleErrors).toEqual([]);
});

test('on a phone and a laptop, a picked move shows its position in view, the review keeps its place, the banner fits', async ({ page, consoleErrors }, info) => {
  test.setTimeout(300_000);
  for (const [width, height, name] of [[390, 844, 'phone'], [1280, 800, 'laptop']] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${server.url}/lang/${name === 'phone' ? 'el' : 'en'}?back=/`);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.click('#start-hot-seat');
    await page.waitForURL(/\/table\//);
    await waitForIsland(page);
    const table = page.url().split('/table/')[1];
    await page.evaluate(async (id) => {
      const call = async (fn: string, body: unknown) => {
        const r = await fetch(`/api/${fn}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        if (!r.ok) throw new Error(`${fn}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      let view = await call('get_table', { table: id });
      while (view.status.state === 'playing') view = await call('play_move', { table: id, square: view.board.legal[0] });
    }, table);
    await page.click('#review-game');
    await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 240_000 });
    const rows = page.locator('#mistakes li');
    expect(await rows.count()).toBeGreaterThan(2);
    const row = rows.nth(2).locator('.what');
    await row.scrollIntoViewIfNeeded();
    const top = async () => Math.round((await row.boundingBox())!.y);
    const before = await top();
    await row.click();
    await expect(page.locator('#table-review')).toBeVisible();
    const best = (await rows.nth(2).getAttribute('data-best'))!;
    await expect(page.locator('#review-better')).toContainText(best);
    // The row stays where it was clicked.
    await page.waitForTimeout(300);
    expect(Math.abs((await top()) - before), `the review keeps its place (${name})`).toBeLessThanOrEqual(2);
    // The board and the banner are on the screen, the banner within its width.
    const board = (await page.locator('.table-board').boundingBox())!;
    expect(board.y, `the board's top is on screen (${name})`).toBeGreaterThanOrEqual(-1);
    expect(board.y + board.height, `the board's bottom is on screen (${name})`).toBeLessThanOrEqual(height + 1);
    const banner = (await page.locator('#table-review').boundingBox())!;
    expect(banner.x).toBeGreaterThanOrEqual(0);
    expect(banner.x + banner.width).toBeLessThanOrEqual(width);
    await expect(page.locator('#table-review')).toBeInViewport({ ratio: 1 });
    await screenshot(page, info, `review-picked-${name}`);
    // Back to the game: the board is the game's end again.
    await page.click('#review-back');
    await expect(page.locator('#table-review')).toHaveCount(0);
  }
  expect(consoleErrors).toEqual([]);
});
