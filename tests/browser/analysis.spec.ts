// Game analysis in the browser: a finished hot-seat game is analysed from the
// table page; the evaluation graph and the list of worst moves appear, and a
// reload shows the stored result without computing again.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
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
    while (view.status.state === 'playing' && n < 80) {
      view = await call('play_move', { table: id, square: view.board.legal[0] });
      n++;
    }
    return n;
  }, table);
  expect(plies).toBeGreaterThan(50);
  await expect(page.locator('#turn')).toContainText(/wins|Draw/);
  await expect(page.locator('#opening')).toBeVisible();

  // Analyse: progress, then the graph and the worst moves.
  await expect(page.locator('#analyse')).toBeVisible();
  await page.click('#analyse');
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', /running|ready/);
  await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 240_000 });
  const graph = page.locator('#analysis-graph');
  await expect(graph).toBeVisible();
  expect(Number(await graph.getAttribute('data-points'))).toBe(plies);
  await expect(graph.locator('polyline')).toHaveCount(1);
  const mistakes = page.locator('#mistakes li');
  expect(await mistakes.count()).toBeGreaterThan(0);
  await expect(mistakes.first()).toContainText(/(Black|White) [a-h][1-8]/);
  await expect(mistakes.first().locator('.severity')).toHaveText(/inaccuracy|mistake|blunder/);
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
  saveResult(info, 'analysis', { plies, mistakes: await mistakes.count() });
  expect(consoleErrors).toEqual([]);
});
