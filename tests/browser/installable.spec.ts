// The installable, offline site (server/src/offline.rs, server/src/sw.js):
// the service worker keeps this deploy's files and the app shells, so the
// offline game plays to the end with the server really gone (killed, not
// routed away), in a browser reopened with no network at all, and a new
// deploy is offered as "a new version is ready".
import { test, expect, screenshot } from './support/fixtures';
import { startServer, RunningServer } from './support/server';
import { analysisValuesShown, clickSquare, status, waitForNewVersion } from './support/board';
import type { Page, TestInfo } from '@playwright/test';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test.use({ serviceWorkers: 'allow' });

/** Waits until a service worker controls the page with this deploy's files cached. */
async function offlineReady(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60_000 });
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
}

/** The turn line of the offline page: the human's move or the game over. */
async function turnOrOver(page: Page, threeD: boolean) {
  await page.waitForFunction(
    (threeD) => {
      const state = document.querySelector('#turn')?.getAttribute('data-state');
      if (state === 'over') return true;
      if (state !== 'human') return false;
      if (!threeD) return document.querySelectorAll('#board-2d .cell.legal').length > 0;
      const s = (window as any).othello3d?.status();
      return !!s && s.legal.length > 0 && s.drawnVersion >= s.version && !s.animating;
    },
    threeD,
    { timeout: 60_000 },
  );
  return (await page.locator('#turn').getAttribute('data-state')) === 'over';
}

/** Plays the offline game to its end (the human takes the first legal move). */
async function playToTheEnd(page: Page, threeD: boolean) {
  for (let moves = 0; moves < 40; moves++) {
    if (await turnOrOver(page, threeD)) return;
    const played = await page.locator('#history li').count();
    if (threeD) {
      const s = await status(page);
      await clickSquare(page, s.legal[0]);
      await waitForNewVersion(page, s.version);
    } else {
      await page.locator('#board-2d .cell.legal').first().click();
      await expect.poll(() => page.locator('#history li').count()).toBeGreaterThan(played);
    }
  }
  expect(await turnOrOver(page, threeD), 'the game ends within 40 moves of the human').toBe(true);
}

async function startOfflineGame(page: Page) {
  await expect(page.locator('#offline-note')).toContainText('not saved on the server');
  await page.selectOption('#offline-depth', '1');
  await page.check('#offline-black');
  await page.click('#offline-start');
}

test('the server dies with the lobby open: the offline game still plays to the end', async ({ page, consoleErrors }, info) => {
  test.setTimeout(300_000);
  const server = await startServer();
  try {
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    // Installable: a manifest with icons, a theme colour, standalone.
    const manifestHref = await page.locator('link[rel=manifest]').getAttribute('href');
    const manifest = await (await page.request.get(server.url + manifestHref)).json();
    expect(manifest).toMatchObject({ start_url: '/', display: 'standalone', name: 'Othello 3D' });
    for (const icon of manifest.icons) {
      const response = await page.request.get(server.url + icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
    }
    await offlineReady(page);
    // Pages are never in the cache: only this deploy's files and the shells.
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names[0]);
      return { names, urls: (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search) };
    });
    expect(cached.names).toHaveLength(1);
    expect(cached.urls).toEqual(expect.arrayContaining(['/?shell=en', '/?shell=el', '/offline?shell=en', '/offline?shell=el']));
    expect(cached.urls.filter((u) => !/^\/(pkg|vendor|style|i18n)\//.test(u) && !/shell=/.test(u))).toEqual([]);

    // The server goes away for real.
    await server.kill();
    await page.click('#start-ai');
    await expect(page.locator('#offline-offer')).toBeVisible();
    await page.click('#play-offline');
    await page.waitForURL(/\/offline$/);
    await page.waitForFunction(() => !document.querySelector('main.lobby'));
    await startOfflineGame(page);
    await playToTheEnd(page, true);
    await expect(page.locator('#turn')).toHaveAttribute('data-state', 'over');
    await expect(page.locator('#turn')).toHaveText(/win|Draw/);
    await screenshot(page, info, 'offline-server-killed-end');

    // A reload with the server still gone: the worker's shell of /offline, the game kept.
    const history = await page.locator('#history li').allTextContents();
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#history li')).toHaveText(history);
    await expect(page.locator('#turn')).toHaveAttribute('data-state', 'over');
    // Another path with the server gone is the lobby, offering offline practice only.
    await page.goto(server.url + '/table/abc');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.locator('#offline-offer')).toBeVisible();
    await expect(page.locator('#start-ai')).toBeDisabled();
    await expect(page.locator('#start-hot-seat')).toBeDisabled();
  } finally {
    await server.stop();
  }
  expect(consoleErrors.filter((e) => !/create_table|ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
});

/** The launch options of this project's browser (for a persistent context). */
function launchOptions(info: TestInfo) {
  return (info.project.use as any).launchOptions ?? {};
}

test('a browser reopened with no network opens the site and plays the AI to the end, in 2D', async ({ playwright }, info) => {
  test.setTimeout(300_000);
  const server = await startServer();
  const profile = mkdtempSync(join(tmpdir(), 'othello-profile-'));
  try {
    // One earlier visit, in Greek.
    let context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions(info), locale: 'el-GR' });
    let page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await offlineReady(page);
    await context.close();

    // The browser is reopened with no network at all.
    context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions(info), locale: 'el-GR', offline: true });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await expect(page.locator('#offline-offer')).toBeVisible();
    await expect(page.locator('#start-ai')).toBeDisabled();
    await expect(page.locator('#quick-match')).toBeDisabled();
    await screenshot(page, info, 'offline-reopened-lobby');
    // The flat board (no 3D at all).
    await page.goto(server.url + '/offline?renderer=2d');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#board-2d button')).toHaveCount(64);
    await page.selectOption('#offline-depth', '1');
    await page.check('#offline-black');
    await page.click('#offline-start');
    await playToTheEnd(page, false);
    await expect(page.locator('#turn')).toHaveAttribute('data-state', 'over');
    await expect(page.locator('#turn')).toHaveText(/Κέρδισ|Ισοπαλία/);
    await screenshot(page, info, 'offline-reopened-end');
    await context.close();
  } finally {
    await server.stop();
  }
});

test('a new deploy is offered as a new version and taken on request', async ({ page }, info) => {
  test.setTimeout(180_000);
  let server: RunningServer = await startServer();
  const listen = new URL(server.url).host;
  try {
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await offlineReady(page);
    const before = await page.evaluate(() => caches.keys());
    await expect(page.locator('#update-ready')).toHaveCount(0);

    // The same address now serves another deploy (one more file).
    await server.stop();
    const site = mkdtempSync(join(tmpdir(), 'othello-site-'));
    cpSync(process.env.OTHELLO_SITE_ROOT ?? 'site', site, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8'));
    writeFileSync(join(site, 'style', 'next.0123456789abcdef.css'), '/* the next deploy */\n');
    manifest['/style/next.css'] = '/style/next.0123456789abcdef.css';
    writeFileSync(join(site, 'manifest.json'), JSON.stringify(manifest));
    server = await startServer({ listen, env: { OTHELLO_SITE_ROOT: site } });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect(page.locator('#update-ready')).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('#update-ready')).toContainText('A new version of Othello 3D is ready');
    await screenshot(page, info, 'update-ready');
    // The old worker still serves the page until the player asks.
    expect(await page.evaluate(() => caches.keys())).toEqual(expect.arrayContaining(before));
    await Promise.all([page.waitForEvent('load'), page.click('#update-reload')]);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await offlineReady(page);
    await expect.poll(() => page.evaluate(() => caches.keys())).toHaveLength(1);
    const after = await page.evaluate(() => caches.keys());
    expect(after[0]).not.toBe(before[0]);
    await expect(page.locator('#update-ready')).toHaveCount(0);
  } finally {
    await server.stop();
  }
});

test('with the server killed and the network off, puzzles from the offline pack are solved and failed by clicks on the main board', async ({ page, consoleErrors }, info) => {
  test.setTimeout(180_000);
  const pack = readFileSync(join(__dirname, '..', '..', 'puzzles', 'puzzles.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 500)
    .map((l) => JSON.parse(l) as { id: string; line: string[]; values: [string, number][] });
  const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);
  const server = await startServer();
  try {
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await offlineReady(page);
    // The server killed and the network off.
    await server.kill();
    await page.context().setOffline(true);
    await page.goto(server.url + '/offline');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.waitForFunction(() => !!(window as any).othello3d?.status());
    await page.click('#offline-puzzles-start');
    const banner = page.locator('#offline-puzzle');
    await expect(banner).toBeVisible();
    await expect(page.locator('#offline-puzzle-task')).toContainText('of 500:');
    // Solve it: its moves (the line's even places), the replies played between.
    const id = await banner.getAttribute('data-id');
    const puzzle = pack.find((p) => p.id === id)!;
    expect(puzzle, `${id} is in the pack`).toBeTruthy();
    for (let k = 0; k < puzzle.line.length; k += 2) {
      await page.waitForFunction(() => (window as any).othello3d.status().legal.length > 0);
      await clickSquare(page, index(puzzle.line[k]));
      if (k + 2 < puzzle.line.length) await expect(page.locator('#offline-puzzle-verdict')).toContainText(`answered ${puzzle.line[k + 1]}`);
    }
    await expect(banner).toHaveAttribute('data-state', 'solved');
    await page.waitForFunction((n) => (window as any).othello3d.status().labels === n, puzzle.values.length);
    await screenshot(page, info, 'offline-puzzle-solved');
    // The next one, failed.
    await page.click('#offline-puzzle-next');
    await expect(banner).not.toHaveAttribute('data-id', id!);
    const nextId = await banner.getAttribute('data-id');
    const next = pack.find((p) => p.id === nextId)!;
    await page.waitForFunction(() => (window as any).othello3d.status().legal.length > 0);
    const wrong = (await status(page)).legal.find((s) => s !== index(next.line[0]))!;
    await clickSquare(page, wrong);
    await expect(banner).toHaveAttribute('data-state', 'failed');
    await expect(page.locator('#offline-puzzle-verdict')).toContainText(`the move was ${next.line[0]}`);
    // Back to the (empty) offline game.
    await page.click('#offline-puzzle-stop');
    await expect(banner).toHaveCount(0);
  } finally {
    await server.stop();
  }
  expect(consoleErrors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
});

test('with the server killed and the network off, the analysis board opens a link and scores its moves', async ({ page, context, consoleErrors }, info) => {
  test.setTimeout(240_000);
  const server = await startServer();
  try {
    // One visit online, from the lobby as the other tests: the worker
    // installs; then the board (through the worker) keeps the engine's weights.
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await offlineReady(page);
    await page.goto(server.url + '/analysis');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#analysis-values li')).toHaveCount(4, { timeout: 90_000 });

    // The server killed and the network off: a link to a line.
    await server.kill();
    await context.setOffline(true);
    await page.goto(server.url + '/analysis?line=f5d6c3');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#analysis-line li')).toHaveCount(3);
    await page.waitForFunction(() => {
      const s = (window as any).othello3d?.status();
      return !!s && s.black + s.white === 7;
    });
    // Every legal move scored by the browser's engine, offline.
    await analysisValuesShown(page);
    // A move of one's own, and its values.
    const before = await status(page);
    await clickSquare(page, before.legal[0]);
    await expect(page.locator('#analysis-line li')).toHaveCount(4);
    await screenshot(page, info, 'analysis-board-offline');
    // The page's only failures are the calls the dead server could not answer.
    for (const error of consoleErrors) expect(error).toMatch(/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::/);
  } finally {
    await context.setOffline(false);
    await server.stop();
  }
});
