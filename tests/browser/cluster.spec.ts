// Two server instances on one PostgreSQL (no proxy, no stickiness): players of
// one game sit on different instances, a spectator on either, and the site
// works as on one instance — a private-link game and a quick match, whole
// games by real clicks, and the AI lab stepped, watched and copied across
// instances. (The server's own tests cover the rest: simultaneous moves, a
// killed instance, timers, AI moves and explanations taken over.)
import { Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { counts } from './support/board';
import { waitDrawn, waitExplained } from './support/lab';
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
  const instance = () => startServer({ database: pg.url });
  const a = await instance();
  const b = await instance();
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

test('the AI lab across two instances: the owner steps on either, a watcher on the other follows and copies', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const cluster = await startCluster();
  try {
    const errors: string[] = [];
    const owner = await newPlayer(browser, cluster.a.url, errors);
    await owner.goto('/lab');
    await hydrated(owner);
    await owner.selectOption('#black-depth', '2');
    await owner.selectOption('#white-depth', '1');
    await owner.click('#new-lab');
    await owner.waitForURL(/\/lab\/[0-9a-f]+$/);
    const labUrl = owner.url();
    const labId = labUrl.split('/').pop()!;
    await waitForIsland(owner);
    await owner.click('#next-turn');
    await waitExplained(owner, 1);

    // A watcher on b sees the game made on a, watch only.
    const watcher = await newPlayer(browser, cluster.b.url, errors);
    await watcher.goto(on(cluster.b, labUrl));
    await waitForIsland(watcher);
    await expect(watcher.locator('#watching')).toBeVisible();
    await expect(watcher.locator('#next-turn')).toHaveCount(0);
    await expect(watcher.locator('#lab-moves li')).toHaveCount(1);
    // The owner steps on a; the watcher's page on b follows.
    await owner.click('#next-turn');
    await waitExplained(owner, 2);
    await waitExplained(watcher, 2);
    await waitDrawn(watcher, 3);
    // The owner opens the game on b, still theirs, and steps there.
    await owner.goto(on(cluster.b, labUrl));
    await waitForIsland(owner);
    await expect(owner.locator('#watching')).toHaveCount(0);
    await owner.click('#next-turn');
    await waitExplained(owner, 3);
    await waitExplained(watcher, 3);
    await screenshot(watcher, info, 'cluster-lab-watcher');

    // The watcher opens it on a and makes a copy there, then steps the copy.
    await watcher.goto(on(cluster.a, labUrl));
    await waitForIsland(watcher);
    await expect(watcher.locator('#lab-moves li')).toHaveCount(3);
    await watcher.click('#copy-lab');
    await watcher.waitForURL((url) => /\/lab\/[0-9a-f]+$/.test(url.pathname) && !url.pathname.endsWith(labId));
    const copyPath = new URL(watcher.url()).pathname;
    await waitForIsland(watcher);
    await expect(watcher.locator('#watching')).toHaveCount(0);
    await watcher.click('#next-turn');
    await waitExplained(watcher, 4);
    // On b the copy is the watcher's too, with its four moves; the original
    // still has three.
    await watcher.goto(cluster.b.url + copyPath);
    await waitForIsland(watcher);
    await expect(watcher.locator('#watching')).toHaveCount(0);
    await expect(watcher.locator('#lab-moves li')).toHaveCount(4);
    await expect(owner.locator('#lab-moves li')).toHaveCount(3);
    await screenshot(watcher, info, 'cluster-lab-copy');
    saveResult(info, 'cluster-lab', { lab: labId, copy: copyPath, instances: [cluster.a.url, cluster.b.url] });
    expect(errors).toEqual([]);
  } finally {
    await cluster.stop();
  }
});
