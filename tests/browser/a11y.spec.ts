// Accessibility, checked by axe-core (npm @axe-core/playwright) on every kind
// of page in both languages: the lobby, a table against the AI with the rules
// open, an online table waiting for a friend, a finished game with its
// analysis, the lab, the leaderboard, the account page, the offline page and
// the analysis board.
// No finding may be "serious" or "critical".
import { test, expect, screenshot } from './support/fixtures';
import { startServer, RunningServer } from './support/server';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';

let server: RunningServer;

test.beforeAll(async () => {
  // A small exact range keeps the debug build's analysis quick.
  server = await startServer({ args: ['--exact-empties', '12', '--analysis-depth', '3'] });
});

test.afterAll(async () => {
  await server?.stop();
});

const WIPE_OUT = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];
const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

async function hydrated(page: Page) {
  await page.waitForFunction(
    () => document.body.dataset.hydrated === 'true' && (location.pathname === '/' || !document.querySelector('main.lobby')),
    null,
    { timeout: 60_000 },
  );
}

/** Runs axe on the page as it is; returns the serious and critical findings. */
async function audit(page: Page, info: TestInfo, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await info.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  return bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
}

for (const lang of ['en', 'el'] as const) {
  test(`no serious or critical axe finding on any page (${lang})`, async ({ page, consoleErrors }, info) => {
    test.setTimeout(360_000);
    const found: string[] = [];
    const visit = async (path: string) => {
      await page.goto(server.url + path);
      await hydrated(page);
    };
    await page.goto(`${server.url}/lang/${lang}?back=/`);
    await hydrated(page);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    found.push(...(await audit(page, info, `lobby-${lang}`)));

    // A table against the AI, then its rules sidebar.
    await page.selectOption('#ai-depth', '1');
    await page.click('#start-ai');
    await page.waitForURL(/\/table\//);
    await hydrated(page);
    await page.waitForFunction(() => ((window as any).othello3d?.status()?.legal.length ?? 0) > 0, null, { timeout: 60_000 });
    found.push(...(await audit(page, info, `vs-ai-${lang}`)));
    const aiTable = new URL(page.url()).pathname;
    await page.click('#rules-toggle');
    await expect(page.locator('#rules')).toHaveClass(/open/);
    found.push(...(await audit(page, info, `rules-${lang}`)));
    await page.keyboard.press('Escape');

    // An online table waiting for a friend.
    await visit('/');
    await page.click('#private-table');
    await page.waitForURL(/\/table\//);
    await hydrated(page);
    found.push(...(await audit(page, info, `online-${lang}`)));

    // A finished game (a hot-seat wipe-out) and its analysis.
    await visit('/');
    await page.click('#start-hot-seat');
    await page.waitForURL(/\/table\//);
    await hydrated(page);
    const table = page.url().split('/table/')[1];
    await page.evaluate(
      async ({ id, squares }) => {
        for (const square of squares) {
          const r = await fetch('/api/play_move', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ table: id, square }),
          });
          if (!r.ok) throw new Error(`play_move: ${r.status} ${await r.text()}`);
        }
      },
      { id: table, squares: WIPE_OUT.map(index) },
    );
    await expect(page.locator('#black-count')).toHaveText('13');
    found.push(...(await audit(page, info, `game-over-${lang}`)));
    await page.click('#review-game');
    await expect(page.locator('#analysis')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
    found.push(...(await audit(page, info, `analysis-${lang}`)));
    await screenshot(page, info, `a11y-analysis-${lang}`);
    // The practice of the game's mistakes, on the main board, shown an answer.
    await page.click('#practise');
    await page.click('#practice-show');
    await expect(page.locator('#practice-answer')).toBeVisible({ timeout: 60_000 });
    found.push(...(await audit(page, info, `practice-${lang}`)));

    for (const [path, name] of [
      ['/lab', 'lab'],
      ['/players', 'leaderboard'],
      ['/bots', 'bots'],
      ['/account', 'account'],
      ['/offline', 'offline'],
      ['/analysis?line=f5d6c3', 'analysis-board'],
      ['/puzzles?daily', 'puzzles'],
    ]) {
      await visit(path);
      found.push(...(await audit(page, info, `${name}-${lang}`)));
    }
    // A puzzle over (a move played, right or wrong): the answer on the board.
    await page.waitForFunction(() => ((window as any).othello3d?.status()?.legal.length ?? 0) > 0, null, { timeout: 60_000 });
    const first = await page.evaluate(() => (window as any).othello3d.status().legal[0]);
    const point = await page.evaluate((i) => (window as any).othello3d.squareToScreen(i), first);
    await page.mouse.click(point[0], point[1]);
    await expect(page.locator('#puzzle')).toHaveAttribute('data-state', /solved|failed|solving/);
    await expect(page.locator('#puzzle-verdict')).not.toBeEmpty();
    found.push(...(await audit(page, info, `puzzle-played-${lang}`)));
    // 320 px wide (what 1280 px at 400 % zoom leaves): nothing scrolls sideways.
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of ['/', aiTable, '/offline', '/lab', '/analysis', '/puzzles']) {
      await visit(path);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, `${path} at 320 px`).toBeLessThanOrEqual(320);
    }
    await visit(aiTable);
    await screenshot(page, info, `a11y-320-table-${lang}`);
    expect(found).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}
