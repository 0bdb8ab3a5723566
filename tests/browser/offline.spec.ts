// Offline practice: with the server's API and sockets unreachable, the lobby
// offers a game against the AI that runs in the browser's engine worker; the
// game is kept in local storage across a reload and calls no server function.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { clickSquare, counts, status, waitForNewVersion } from './support/board';
import type { Page } from '@playwright/test';
import { startServer } from './support/server';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Waits until it is the human's move (legal squares shown) or the game is over. */
async function humanTurn(page: Page) {
  await page.waitForFunction(
    () => {
      const s = (window as any).othello3d?.status();
      const turn = document.querySelector('#turn')?.textContent ?? '';
      if (/win|Draw/.test(turn)) return true;
      return !!s && /Your move/.test(turn) && s.legal.length > 0 && s.drawnVersion >= s.version && !s.animating;
    },
    null,
    { timeout: 60_000 },
  );
}

test('an offline game against the AI with the network blocked, surviving a reload', async ({ page, consoleErrors }, info) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#offline-offer')).toHaveCount(0);

  // The server's API and sockets go away.
  const blocked: string[] = [];
  await page.route(/\/(api|ws)\//, (route) => {
    blocked.push(new URL(route.request().url()).pathname);
    return route.abort('connectionrefused');
  });
  await page.routeWebSocket(/\/ws\//, (ws) => {
    blocked.push(new URL(ws.url()).pathname);
    ws.close();
  });
  await page.click('#start-ai');
  await expect(page.locator('#offline-offer')).toBeVisible();
  await expect(page.locator('.lobby .error')).toContainText('could not be reached');
  expect(blocked).toEqual(['/api/create_table']);
  await screenshot(page, info, 'offline-offer');

  await page.click('#play-offline');
  await page.waitForURL(/\/offline$/);
  await waitForIsland(page);
  await expect(page.locator('#offline-note')).toContainText('not saved on the server');
  await page.selectOption('#offline-depth', '2');
  await page.check('#offline-black');
  await page.click('#offline-start');
  await humanTurn(page);
  await expect(page.locator('#offline-mode')).toContainText('AI depth 2');

  // Three moves each.
  for (let i = 0; i < 3; i++) {
    const s = await status(page);
    await clickSquare(page, s.legal[0]);
    await waitForNewVersion(page, s.version);
    await humanTurn(page);
  }
  const before = await counts(page);
  const history = await page.locator('#history li').allTextContents();
  expect(history.length).toBeGreaterThanOrEqual(6);
  expect(history[0]).toMatch(/^Black [a-h][1-8]$/);
  expect(history[1]).toMatch(/^White [a-h][1-8]$/);
  await expect(page.locator('#ai-search')).toContainText('The AI thought 2 moves ahead');
  await screenshot(page, info, 'offline-game');

  // A reload (the page itself still comes from the server) resumes the game.
  await page.reload();
  await waitForIsland(page);
  await humanTurn(page);
  expect(await counts(page)).toEqual(before);
  expect(await page.locator('#history li').allTextContents()).toEqual(history);
  const s = await status(page);
  await clickSquare(page, s.legal[0]);
  await waitForNewVersion(page, s.version);
  await humanTurn(page);
  expect((await page.locator('#history li').allTextContents()).length).toBeGreaterThan(history.length);

  expect(blocked, 'no server call while offline').toEqual(['/api/create_table']);
  saveResult(info, 'offline-game', { before, history });
  // The one refused call is the lobby's create_table, seen as a failed request.
  expect(consoleErrors.filter((e) => !/create_table|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
});

test('the lobby offers the offline game when the browser is offline', async ({ page, context, consoleErrors }) => {
  await page.goto('/');
  // The lobby loaded (its 3D board too: on a slow machine the renderer's
  // bundle can still be on its way at hydration, and a request cut by the
  // disconnection is logged as an error), then the connection drops.
  await waitForIsland(page);
  await expect(page.locator('#offline-offer')).toHaveCount(0);
  await context.setOffline(true);
  await expect(page.locator('#offline-offer')).toBeVisible();
  await expect(page.locator('#play-offline')).toHaveAttribute('href', '/offline');
  await context.setOffline(false);
  expect(consoleErrors).toEqual([]);
});

test('the server killed before a first Start, with nothing cached: the lobby says so, offers the offline game and keeps working', async ({ page }) => {
  // No service worker (this suite blocks them), so the code behind Start —
  // a chunk fetched at the first press — cannot come either: the page must
  // say the server is gone, not stop.
  const server = await startServer();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /unreachable|RuntimeError|panicked/i.test(message.text())) errors.push(message.text());
  });
  try {
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await server.kill();
    await page.click('#start-hot-seat');
    await expect(page.locator('#offline-offer')).toBeVisible();
    await expect(page.locator('.lobby .error')).toHaveText('Cannot reach the server.');
    await expect(page.locator('#start-hot-seat')).toBeEnabled();
    // The page still answers: another press, and the quick match (its
    // socket's code is a chunk of its own too).
    await page.click('#start-ai');
    await expect(page.locator('.lobby .error')).toHaveText('Cannot reach the server.');
    await expect(page.locator('#start-ai')).toBeEnabled();
    await page.click('#quick-match');
    await expect(page.locator('#quick-match')).toBeVisible();
    await expect(page.locator('#queue-status')).toHaveCount(0);
    await expect(page.locator('.lobby .error')).toHaveText('Cannot reach the server.');
    expect(errors).toEqual([]);
    await expect(page.locator('#page-crashed')).toHaveCount(0);
  } finally {
    await server.kill().catch(() => {});
  }
});

test('the server killed with the lobby open, nothing cached: a page whose code cannot come says the page stopped, and Reload brings it back', async ({ page }, info) => {
  // Leptos' lazy routes panic when their chunk cannot be fetched, and a panic
  // stops the app's wasm: the page must say so and offer a reload, not sit
  // there looking alive.
  const database = join(mkdtempSync(join(tmpdir(), 'othello-test-')), 'othello.db');
  const server = await startServer({ database });
  let again: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await page.goto(server.url + '/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#page-crashed')).toHaveCount(0);
    await server.kill();
    await page.click('#open-tournaments');
    const notice = page.locator('#page-crashed');
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(notice).toContainText('This page stopped working. Reload it to go on.');
    await expect(page.locator('#crash-reload')).toHaveText('Reload');
    await screenshot(page, info, 'page-crashed');
    // The server comes back at the same address: Reload opens the page.
    again = await startServer({ database, listen: new URL(server.url).host });
    // (The router stopped before it changed the address: the lobby's is reloaded.)
    await Promise.all([page.waitForEvent('load'), page.click('#crash-reload')]);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(page.locator('#page-crashed')).toHaveCount(0);
    // And the page works: the link leads to the tournaments now.
    await page.click('#open-tournaments');
    await expect(page).toHaveURL(/\/tournaments$/);
    await expect(page.locator('#create-tournament')).toBeVisible();
  } finally {
    await server.kill().catch(() => {});
    await again?.kill().catch(() => {});
  }
});
