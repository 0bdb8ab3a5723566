// Two server instances on one PostgreSQL (no proxy, no stickiness): players of
// one game sit on different instances, a spectator on either, and the site
// works as on one instance — a private-link game and a quick match, whole
// games by real clicks. (The server's own tests cover the rest: simultaneous
// moves, a killed instance, timers and AI moves taken over.)
import { Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { counts } from './support/board';
import { newPlayer, playWholeGame } from './support/online';
import { startPg, PgCluster } from './support/pg';
import { startServer, RunningServer } from './support/server';

interface Cluster {
  pg: PgCluster;
  a: RunningServer;
  b: RunningServer;
  stop(): Promise<void>;
}

async function startCluster(): Promise<Cluster> {
  const pg = await startPg();
  const instance = (name: string) =>
    startServer({ database: pg.url, args: ['--local-database', join(pg.dir, `${name}-local.db`)] });
  const a = await instance('a');
  const b = await instance('b');
  return {
    pg,
    a,
    b,
    async stop() {
      await a.stop();
      await b.stop();
      pg.stop();
    },
  };
}

/** The same path on another instance. */
const on = (server: RunningServer, url: string) => server.url + new URL(url).pathname;

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
}

test('a private-link game across two instances: creator on one, friend and spectator on the other', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const cluster = await startCluster();
  try {
    const errors: string[] = [];
    const creator = await newPlayer(browser, cluster.a.url, errors);
    await creator.goto('/');
    await hydrated(creator);
    await creator.click('#private-table');
    await creator.waitForURL(/\/table\//);
    const link = await creator.locator('#share-link').inputValue();
    await waitForIsland(creator);

    const guest = await newPlayer(browser, cluster.b.url, errors);
    await guest.goto(on(cluster.b, link));
    await waitForIsland(guest);
    await guest.locator('#take-seat').click();
    await expect(guest.locator('#resign')).toBeVisible();
    // The creator, on the other instance, sees the seat taken.
    await expect(creator.locator('#share')).toBeHidden();

    const spectator = await newPlayer(browser, cluster.b.url, errors);
    await spectator.goto(on(cluster.b, link));
    await waitForIsland(spectator);
    await expect(spectator.locator('#spectator')).toContainText('You are watching this game.');

    const moves = await playWholeGame([creator, guest], [spectator]);
    for (const page of [creator, guest, spectator]) {
      await expect(page.locator('#turn')).toContainText('Black wins');
      expect(await counts(page)).toEqual([13, 0]);
    }
    // Either instance serves the finished table the same way.
    const late = await newPlayer(browser, cluster.a.url, errors);
    await late.goto(on(cluster.a, link));
    await waitForIsland(late);
    await expect(late.locator('#turn')).toContainText('Black wins');
    expect(await counts(late)).toEqual([13, 0]);
    await screenshot(guest, info, 'cluster-private-final');
    saveResult(info, 'cluster-private', { moves, instances: [cluster.a.url, cluster.b.url] });
    expect(errors).toEqual([]);
  } finally {
    await cluster.stop();
  }
});

test('quick match pairs players waiting on different instances, who play a whole game', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const cluster = await startCluster();
  try {
    const errors: string[] = [];
    const first = await newPlayer(browser, cluster.a.url, errors);
    const second = await newPlayer(browser, cluster.b.url, errors);
    for (const page of [first, second]) {
      await page.goto('/');
      await hydrated(page);
    }
    await first.click('#quick-match');
    await expect(first.locator('#queue-status')).toContainText('Waiting');
    await second.click('#quick-match');
    await first.waitForURL(/\/table\//);
    await second.waitForURL(/\/table\//);
    expect(new URL(first.url()).pathname).toBe(new URL(second.url()).pathname);
    expect(new URL(first.url()).origin).not.toBe(new URL(second.url()).origin);
    await waitForIsland(first);
    await waitForIsland(second);
    const moves = await playWholeGame([first, second], []);
    await expect(first.locator('#turn')).toContainText('Black wins');
    await expect(second.locator('#turn')).toContainText('Black wins');
    await screenshot(first, info, 'cluster-quick-final');
    saveResult(info, 'cluster-quick', { moves });
    expect(errors).toEqual([]);
  } finally {
    await cluster.stop();
  }
});
