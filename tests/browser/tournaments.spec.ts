// A Swiss tournament as four new players meet it, by clicks: one creates it
// from /tournaments, all four join on its page, the creator starts it; each
// round takes every player to their game, where two moves are played on the
// 3D board and one side resigns; the "Back to the tournament" link leads on.
// After three rounds the standings on the page (points, BQ, discs) equal a
// computation of this test's own from the archived games; nobody met twice.
// The pages are checked by axe in both languages and on a phone.
// Over 600 lines: the tournament flows share one server and the helpers above them.
import { Browser, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, screenshot, waitForIsland } from './support/fixtures';
import { status, clickSquare, waitForNewVersion } from './support/board';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  // Four browsers reach their boards one after another: the first-move
  // timer of a tournament's game (20 s by default) is longer here, so a
  // slow machine does not forfeit a game before its players arrive.
  server = await startServer({ args: ['--client-ip-header', 'X-Real-IP', '--first-move-secs-event', '180'] });
});
test.afterAll(async () => {
  await server?.stop();
});

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true', null, { timeout: 60_000 });
}

/** On the tournament's page: waits for the player's game, and goes to it. */
async function toMyGame(page: Page, finished: string[] = [], tournament?: string) {
  await expect(async () => {
    const path = new URL(page.url()).pathname;
    if (finished.includes(path) && tournament) {
      // Back at a game already over: for a second after a game ends, before
      // the director has scored it, the tournament's page still links it as
      // the player's game. Look again from the tournament's page.
      await page.goto(tournament);
      await hydrated(page);
    } else if (!/\/table\//.test(path)) {
      const link = page.locator('#my-game');
      if (await link.isVisible()) await link.click();
    }
    const now = new URL(page.url()).pathname;
    expect(now).toMatch(/\/table\//);
    expect(finished).not.toContain(now);
  }).toPass({ timeout: 30_000 });
  await hydrated(page);
  await waitForIsland(page);
}

/**
 * Follows "Back to the tournament" from a finished game: lands on the
 * tournament's page, or already on the next game — the tournament's page
 * moves on to a new pairing by itself (an arena pairs a player again as soon
 * as an opponent is free), possibly before this looks at the address.
 */
async function backToTournament(page: Page, finished: string[]) {
  const moved = (u: URL) => /\/tournaments\//.test(u.pathname) || (/\/table\//.test(u.pathname) && !finished.includes(u.pathname));
  // Once (2026-12-06, a full suite on the loaded 2-core machine) a click on
  // the link left the page on the finished game for 60 s, the link still
  // shown, the table's socket live: not explained. As a player would,
  // the test clicks again if nothing happened after 20 s, and says so.
  for (let attempt = 1; ; attempt++) {
    await page.click('#back-to-tournament');
    try {
      await page.waitForURL(moved, { timeout: 20_000 });
      break;
    } catch (e) {
      const still = finished.includes(new URL(page.url()).pathname) && (await page.locator('#back-to-tournament').isVisible());
      if (attempt < 3 && still) {
        console.warn(`"Back to the tournament" did not navigate in 20 s (attempt ${attempt}); clicking again`);
        continue;
      }
      const shows = await page.locator('main').innerText().catch(() => '');
      throw new Error(`after "Back to the tournament": ${page.url()}\n${shows.slice(0, 1500)}\n${e}`);
    }
  }
  await hydrated(page);
}

/**
 * The one failed load a player's page may log here: a new pairing's table is
 * named on the tournament's page a moment before the director has seated its
 * players there (the pairing is stored first), so the table's page asks for
 * it again after 0.3 s and 0.9 s (`get_table_soon`, app/src/pages/table/load.rs)
 * — and Chromium logs the first answer, a 404 of `get_table`, as an error.
 * Seen once in a whole suite on the loaded machine (2026-12-06, the arena).
 */
function pairingNotSeatedYet(error: string): boolean {
  return /status of 404 .*\(\S*\/api\/get_table on \S*\/table\/[0-9a-f]+\)$/.test(error);
}

/** The player whose board offers a move clicks the first one. */
async function oneMove(players: Page[]) {
  for (let attempt = 0; attempt < 300; attempt++) {
    for (const page of players) {
      const s = await status(page);
      if (s && s.legal.length > 0 && s.drawnVersion >= s.version && !s.animating) {
        await clickSquare(page, s.legal[0]);
        for (const p of players) await waitForNewVersion(p, s.version);
        return;
      }
    }
    await players[0].waitForTimeout(100);
  }
  throw new Error('nobody could move');
}

async function audit(page: Page, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

interface Game {
  black: string;
  white: string | null;
  game: string | null;
}

test('four players play a three-round Swiss by clicks; the standings and BQ match the archive', async ({ browser }, info) => {
  test.setTimeout(420_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const names = ['sa', 'sb', 'sc', 'sd'].map((n) => `${n}${stamp}`);
  const players: Page[] = [];
  for (let i = 0; i < 4; i++) {
    const page = await newPlayer(browser, server.url, errors, `198.51.100.${40 + i}`);
    await signUp(page, names[i]);
    players.push(page);
  }
  const [host] = players;

  // The lobby leads to the tournaments; the host creates a Swiss.
  await host.click('#open-tournaments');
  await host.waitForURL(/\/tournaments$/);
  await hydrated(host);
  await host.fill('#tournament-name', `Evening ${stamp}`);
  await host.fill('#tournament-rounds', '3');
  await host.fill('#tournament-starts', '60');
  await host.click('#tournament-submit');
  await host.waitForURL(/\/tournaments\/[0-9a-f]+$/);
  const url = host.url();
  const id = url.split('/').pop()!;
  await hydrated(host);
  await expect(host.locator('#tournament-name')).toHaveText(`Evening ${stamp}`);
  // Starting early needs two players.
  await host.click('#tournament-join');
  await expect(host.locator('#tournament-leave')).toBeVisible();
  for (const page of players.slice(1)) {
    await page.goto(url);
    await hydrated(page);
    await page.click('#tournament-join');
    await expect(page.locator('#tournament-leave')).toBeVisible();
  }
  await host.reload();
  await hydrated(host);
  await expect(host.locator('main')).toContainText('4 players');
  await screenshot(host, info, 'tournament-open');
  const findings = [...(await audit(host, 'tournament-open'))];
  await host.click('#tournament-start');

  const finished: string[] = [];
  for (let round = 1; round <= 3; round++) {
    for (const page of players) await toMyGame(page, finished, url);
    // Group the players by table.
    const tables = new Map<string, Page[]>();
    for (const page of players) {
      const table = new URL(page.url()).pathname;
      tables.set(table, [...(tables.get(table) ?? []), page]);
    }
    expect(tables.size).toBe(2);
    finished.push(...tables.keys());
    for (const pair of tables.values()) {
      expect(pair.length).toBe(2);
      await expect(pair[0].locator('#tournament-note')).toBeVisible();
      await expect(pair[0].locator('#mode')).toContainText('tournament');
      await oneMove(pair);
      await oneMove(pair);
      // One of them resigns (alternating who, round by round).
      const resigner = pair[round % 2];
      await resigner.click('#resign');
      await resigner.click('#resign-yes');
      for (const page of pair) {
        await expect(page.locator('#back-to-tournament')).toBeVisible();
        // No rematch at a tournament's table.
        await expect(page.locator('#rematch')).toHaveCount(0);
      }
    }
    // The finished game's celebration animates on a software GPU: under a
    // loaded two-core run a frame can take longer than any sane wait, so
    // this picture (for people to look at, not an assertion) is taken when
    // a frame comes and noted when none does.
    if (round === 1) {
      await screenshot(players[0], info, 'tournament-game-over', 30_000).catch((e) =>
        info.annotations.push({ type: 'screenshot skipped', description: String(e).slice(0, 200) }),
      );
    }
    for (const page of players) await backToTournament(page, finished);
  }
  await expect(host.locator('#tournament-status')).toContainText('final', { timeout: 20_000 });
  // The podium: the first three of the standings, on their steps.
  const podium = host.locator('#podium .step');
  await expect(podium).toHaveCount(3);
  const firstThree = await host.locator('#standings tbody tr td:nth-child(2)').evaluateAll((cells) =>
    cells.slice(0, 3).map((c) => (c as HTMLElement).innerText.trim()),
  );
  for (let place = 1; place <= 3; place++) {
    await expect(host.locator(`#podium .place-${place} a`)).toHaveText(firstThree[place - 1]);
  }
  await screenshot(host, info, 'tournament-final');

  // The standings shown equal a computation from the archived games.
  // The page's own fetch (same origin, the player's cookie).
  const api = (name: string, body: unknown) =>
    host.evaluate(
      async ({ name, body }) => {
        const r = await fetch(`/api/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        if (!r.ok) throw new Error(`${name}: ${r.status} ${await r.text()}`);
        return r.json();
      },
      { name, body },
    );
  const view = await api('tournament', { id });
  const points = new Map<string, number>();
  const discs = new Map<string, number>();
  const opponents = new Map<string, string[]>();
  const met = new Set<string>();
  for (const games of view.rounds as Game[][]) {
    expect(games.length).toBe(2);
    for (const g of games) {
      expect(g.white).not.toBeNull();
      const white = g.white!;
      const pair = [g.black, white].sort().join('|');
      expect(met.has(pair)).toBe(false);
      met.add(pair);
      const archived = await api('get_game', { id: g.game });
      const empty = 64 - archived.black_discs - archived.white_discs;
      let [bp, wp, bd, wd] = [1, 1, archived.black_discs + empty / 2, archived.white_discs + empty / 2];
      if (archived.winner) {
        const won = (archived.winner === 'black' ? archived.black_discs : archived.white_discs) + empty;
        const w = archived.reason === 'finished' ? won : Math.max(33, won);
        const l = 64 - w;
        [bp, wp, bd, wd] = archived.winner === 'black' ? [2, 0, w, l] : [0, 2, l, w];
      }
      for (const [name, p, d, o] of [[g.black, bp, bd, white], [white, wp, wd, g.black]] as [string, number, number, string][]) {
        points.set(name, (points.get(name) ?? 0) + p);
        discs.set(name, (discs.get(name) ?? 0) + d);
        opponents.set(name, [...(opponents.get(name) ?? []), o]);
      }
    }
  }
  const expected = names
    .map((name) => {
      const opp = (opponents.get(name) ?? []).reduce((sum, o) => sum + points.get(o)!, 0);
      return { name, points: points.get(name)!, bq: discs.get(name)! + (6 * opp) / 2, discs: discs.get(name)! };
    })
    .sort((a, b) => b.points - a.points || b.bq - a.bq || b.discs - a.discs);
  const rows = host.locator('#standings tbody tr');
  await expect(rows).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    const e = expected[i];
    const shownPoints = (await row.locator('td.points').innerText()).replace('½', '.5');
    expect(Number(shownPoints.startsWith('.') ? `0${shownPoints}` : shownPoints) * 2).toBe(e.points);
    expect(Number(await row.locator('td.bq').innerText())).toBe(e.bq);
    expect(Number(await row.locator('td.discs').innerText())).toBe(e.discs);
  }
  // The export names everyone.
  const text = await (await host.request.get(`/tournaments/${id}/export.txt`)).text();
  for (const name of names) expect(text).toContain(name);

  // The winner's profile shows the tournament and their place.
  await host.goto(`/@/${view.standings[0].name}`);
  await hydrated(host);
  await expect(host.locator('#profile-tournaments')).toContainText(`Evening ${stamp}`);
  await expect(host.locator('#profile-tournaments')).toContainText('1 of 4');

  // Both languages, a phone, axe.
  findings.push(...(await audit(host, 'tournament-final')));
  await host.goto('/tournaments');
  await hydrated(host);
  await expect(host.locator('#tournament-list')).toContainText(`Evening ${stamp}`);
  findings.push(...(await audit(host, 'tournaments')));
  await host.goto(`/lang/el?back=/tournaments/${id}`);
  await hydrated(host);
  await expect(host.locator('#standings h2')).toHaveText('Κατάταξη');
  findings.push(...(await audit(host, 'tournament-el')));
  await host.setViewportSize({ width: 390, height: 844 });
  await host.reload();
  await hydrated(host);
  const sideways = await host.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(sideways).toBeLessThanOrEqual(1);
  await screenshot(host, info, 'tournament-el-phone');
  expect(findings).toEqual([]);
  expect(errors.filter((e) => !e.includes('favicon') && !pairingNotSeatedYet(e))).toEqual([]);
});

/**
 * Four new players (names `prefixes` + a stamp, addresses 198.51.100.`ip`…)
 * in an arena the first creates, already running, all four joined on its page.
 */
async function runningArena(browser: Browser, errors: string[], prefixes: string[], ip: number, title: string, bots = false) {
  const stamp = Date.now().toString(36).slice(-5);
  const names = prefixes.map((n) => `${n}${stamp}`);
  const players: Page[] = [];
  for (let i = 0; i < 4; i++) {
    const page = await newPlayer(browser, server.url, errors, `198.51.100.${ip + i}`);
    await signUp(page, names[i]);
    players.push(page);
  }
  const [host] = players;
  await host.goto('/tournaments');
  await hydrated(host);
  await host.fill('#tournament-name', `${title} ${stamp}`);
  await host.selectOption('#tournament-kind', 'arena');
  await host.fill('#tournament-minutes', '30');
  await host.fill('#tournament-starts', '0');
  // The creator may let bots in (they join by the Bot API); the page says so.
  if (bots) await host.check('#tournament-bots');
  await host.click('#tournament-submit');
  await host.waitForURL(/\/tournaments\/[0-9a-f]+$/);
  const url = host.url();
  const id = url.split('/').pop()!;
  if (bots) await expect(host.locator('main.tournament-page')).toContainText('bots welcome');
  for (const page of players) {
    if (page !== host) await page.goto(url);
    await hydrated(page);
    await page.click('#tournament-join');
  }
  return { names, players, url, id };
}

test('four players play an arena by clicks; its points match the archive', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  // Everybody joins (the arena runs already); each is paired at once.
  const { names, players, url, id } = await runningArena(browser, errors, ['aa', 'ab', 'ac', 'ad'], 80, 'Arena', true);
  const finished: string[] = [];
  for (let wave = 1; wave <= 2; wave++) {
    for (const page of players) {
      try {
        await toMyGame(page, finished, url);
      } catch (e) {
        // Where the page is and what it shows, to tell why.
        const state = await page.evaluate(async (id) => {
          const r = await fetch('/api/tournament', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ id }),
          });
          return r.text();
        }, id);
        throw new Error(`wave ${wave}: ${page.url()}\n${state.slice(0, 3000)}\n${e}`);
      }
    }
    const tables = new Map<string, Page[]>();
    for (const page of players) {
      const table = new URL(page.url()).pathname;
      tables.set(table, [...(tables.get(table) ?? []), page]);
    }
    expect(tables.size).toBe(2);
    finished.push(...tables.keys());
    for (const pair of tables.values()) {
      if (wave === 1) {
        // One player goes berserk before their first move: half the clock
        // (and no increment), once; both see it.
        const berserker = pair[0];
        await expect(berserker.locator('#berserk')).toBeVisible();
        await berserker.click('#berserk');
        await expect(berserker.locator('#berserk')).toHaveCount(0);
        for (const page of pair) await expect(page.locator('#tournament-note .berserked')).toContainText('berserk');
        await screenshot(berserker, info, 'arena-berserk');
      }
      await oneMove(pair);
      await oneMove(pair);
      const resigner = pair[wave % 2];
      await resigner.click('#resign');
      await resigner.click('#resign-yes');
      for (const page of pair) await expect(page.locator('#back-to-tournament')).toBeVisible();
    }
    for (const page of players) await backToTournament(page, finished);
  }
  // A spectator's page (the players' own pages move on to their next game:
  // the arena pairs them again at once).
  const watcher = await newPlayer(browser, server.url, errors, '198.51.100.99');
  await watcher.goto(url);
  await hydrated(watcher);
  await expect(watcher.locator('main')).toContainText('arena');
  // The standings come live over the tournament's socket.
  await expect(watcher.locator('main.tournament-page')).toHaveAttribute('data-live', 'true');
  await screenshot(watcher, info, 'arena-standings');
  // Points from the archive: 2 a win, doubled after two wins in a row —
  // once all four games of the two waves are scored, and the page (which
  // looks again every two seconds) shows them.
  const rows = watcher.locator('#standings tbody tr');
  await expect(async () => {
    const view = await watcher.evaluate(async (id) => {
      const r = await fetch('/api/tournament', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ id }),
      });
      return r.json();
    }, id);
    type Scored = Game & { black_points: number | null; white_points: number | null };
    const scored = (view.rounds as Scored[][]).flat().filter((g) => g.black_points !== null);
    expect(scored.length).toBeGreaterThanOrEqual(4);
    const points = new Map<string, number>();
    const history = new Map<string, number[]>();
    for (const g of scored) {
      for (const [name, halves] of [[g.black, g.black_points], [g.white!, g.white_points!]] as [string, number][]) {
        const h = history.get(name) ?? [];
        const fire = h.length >= 2 && h.slice(-2).every((r) => r === 2);
        points.set(name, (points.get(name) ?? 0) + (fire ? 2 * halves : halves));
        history.set(name, [...h, halves]);
      }
    }
    await expect(rows).toHaveCount(4);
    for (let i = 0; i < 4; i++) {
      const row = rows.nth(i);
      const name = await row.locator('td').nth(1).innerText();
      const shown = parseInt(await row.locator('td.points').innerText(), 10);
      expect(shown, `${name}: ${JSON.stringify(view.standings)} ${JSON.stringify(scored)}`).toBe(points.get(name) ?? 0);
    }
  }).toPass({ timeout: 20_000 });
  const audit1 = await audit(watcher, 'arena');
  expect(audit1).toEqual([]);
  expect(errors.filter((e) => !e.includes('favicon') && !pairingNotSeatedYet(e))).toEqual([]);
});

test('three players in a two-round Swiss are taken to every pairing from any page; the pages speak in words', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const names = ['ta', 'tb', 'tc'].map((n) => `${n}${stamp}`);
  const players: Page[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await newPlayer(browser, server.url, errors, `198.51.100.${120 + i}`);
    await signUp(page, names[i]);
    players.push(page);
  }
  const [host] = players;
  await host.goto('/tournaments');
  await hydrated(host);
  await host.fill('#tournament-name', `Pairs ${stamp}`);
  await host.fill('#tournament-rounds', '2');
  await host.fill('#tournament-starts', '60');
  await host.click('#tournament-submit');
  await host.waitForURL(/\/tournaments\/[0-9a-f]+$/);
  const url = host.url();
  await hydrated(host);
  for (const page of players) {
    if (page !== host) {
      await page.goto(url);
      await hydrated(page);
    }
    await page.click('#tournament-join');
    await expect(page.locator('#tournament-leave')).toBeVisible();
  }
  // The start in the reader's time zone, with a countdown.
  await expect(host.locator('#tournament-status time')).not.toContainText('UTC');
  await expect(host.locator('#tournament-countdown')).toBeVisible();

  // Someone watching the tournament's page tells when a round is paired.
  const watcher = await newPlayer(browser, server.url, errors, '198.51.100.129');
  await watcher.goto(url);
  await hydrated(watcher);
  await expect(watcher.locator('main.tournament-page')).toHaveAttribute('data-live', 'true');

  /**
   * Pairs round `round` (by `pair`), and checks every player with a game in
   * it is on its table within 5 s of the watcher's page showing the round
   * (each page's own address: no player clicks anything).
   */
  const finished: string[] = [];
  async function paired(round: number, pair: () => Promise<void>): Promise<Map<string, Page[]>> {
    const arrivals = players.map((page) =>
      page
        .waitForURL((u) => /\/table\//.test(u.pathname) && !finished.includes(u.pathname), { timeout: 60_000, waitUntil: 'commit' })
        .then(() => ({ page, at: Date.now() }))
        .catch(() => null),
    );
    await pair();
    await expect(watcher.locator('#tournament-status')).toContainText(`Round ${round} of 2`, { timeout: 30_000 });
    const seen = Date.now();
    // The player with the bye goes nowhere: after 8 s this stops waiting
    // (the times measured decide; a late arrival fails below).
    const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), 8_000));
    const arrived = (await Promise.all(arrivals.map((a) => Promise.race([a, late])))).filter((a) => a !== null);
    const tables = new Map<string, Page[]>();
    for (const a of arrived) {
      expect(a!.at - seen, `round ${round}: a player reached the table ${a!.at - seen} ms after the round showed`).toBeLessThanOrEqual(5_000);
      const table = new URL(a!.page.url()).pathname;
      tables.set(table, [...(tables.get(table) ?? []), a!.page]);
    }
    expect(tables.size).toBe(1);
    for (const pair of tables.values()) expect(pair.length).toBe(2);
    return tables;
  }

  // Round 1: the host on the tournament's page, one player in the lobby, one
  // on the leaderboard. (Three players: one game and a bye.)
  await players[1].goto('/');
  await hydrated(players[1]);
  await players[2].goto('/players');
  await hydrated(players[2]);
  const round1 = await paired(1, () => host.click('#tournament-start'));
  const [table1, pair1] = [...round1.entries()][0];
  // The notice names the opponent.
  for (const page of pair1) {
    const other = names[players.indexOf(pair1[pair1[0] === page ? 1 : 0])];
    await expect(page.locator('#tournament-paired')).toContainText(other);
  }
  await screenshot(pair1[0], info, 'tournament-paired');
  // Each was called by a sound (counted in the tab's session storage), which
  // the notice can turn off: both do, for the next round (the player with
  // the bye keeps it).
  const sounds = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('othello-pairing-sounds') ?? 0));
  for (const page of pair1) expect(await sounds(page), 'a sound called the player').toBeGreaterThanOrEqual(1);
  for (const page of pair1) {
    await expect(page.locator('#tournament-sound')).toBeChecked();
    await page.uncheck('#tournament-sound');
  }
  const heard = new Map<Page, number>();
  for (const page of players) heard.set(page, await sounds(page));
  for (const page of pair1) {
    await hydrated(page);
    await waitForIsland(page);
    // A tournament's table: the way back, no new table, no rematch, and no
    // resigning before anyone has moved.
    await expect(page.locator('#tournament-note')).toBeVisible();
    await expect(page.locator('#back-to-tournament')).toBeVisible();
    await expect(page.locator('#new-table')).toHaveCount(0);
    await expect(page.locator('#resign')).toHaveCount(0);
  }
  await oneMove(pair1);
  await oneMove(pair1);
  const resigner = pair1[0];
  await resigner.click('#resign');
  await resigner.click('#resign-yes');
  for (const page of pair1) {
    await expect(page.locator('#tournament-standings-link')).toBeVisible();
    await expect(page.locator('#back-to-tournament')).toBeVisible();
    await expect(page.locator('#rematch')).toHaveCount(0);
    await expect(page.locator('#new-table')).toHaveCount(0);
  }
  finished.push(table1);

  // Round 2: both round-1 players left on their finished table, the bye's
  // player on the leaderboard (or wherever the notifier found them).
  const round2 = await paired(2, async () => {});
  const [, pair2] = [...round2.entries()][0];
  for (const page of pair2) await expect(page.locator('#tournament-paired')).toBeVisible();
  for (const page of pair2) {
    const now = await sounds(page);
    if (pair1.includes(page)) expect(now, 'the sound turned off stays off').toBe(heard.get(page));
    else expect(now, 'a sound called the player').toBeGreaterThan(heard.get(page)!);
  }

  // The tournament's page, in both languages, within a phone's width; the
  // Greek one keeps no English word.
  await watcher.setViewportSize({ width: 390, height: 844 });
  for (const lang of ['en', 'el']) {
    await watcher.goto(`/lang/${lang}?back=${new URL(url).pathname}`);
    await hydrated(watcher);
    await expect(watcher.locator('#crosstable-legend')).toBeVisible();
    const width = await watcher.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${lang}: the page is ${width} px wide`).toBeLessThanOrEqual(390);
    await expect(watcher.locator('.lang-switch')).toBeInViewport();
    if (lang === 'el') {
      const text = await watcher.locator('main').innerText();
      for (const word of ['bye', 'Blitz', 'Rapid', 'UTC']) expect(text, `Greek page: "${word}"`).not.toContain(word);
      await screenshot(watcher, info, 'tournament-el-phone-words');
    }
  }
  await watcher.goto('/lang/en?back=/tournaments');
  await hydrated(watcher);
  expect(await watcher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(errors.filter((e) => !e.includes('favicon') && !pairingNotSeatedYet(e))).toEqual([]);
});

test('four players in an arena are taken to their next game from a finished table or another page', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  const { names, players, url, id } = await runningArena(browser, errors, ['na', 'nb', 'nc', 'nd'], 140, 'Next');
  const finished: string[] = [];
  for (const page of players) await toMyGame(page, finished, url);
  const tables = new Map<string, Page[]>();
  for (const page of players) {
    const table = new URL(page.url()).pathname;
    tables.set(table, [...(tables.get(table) ?? []), page]);
  }
  expect(tables.size).toBe(2);
  finished.push(...tables.keys());
  const [pairA, pairB] = [...tables.values()];

  // When each player's next game is paired: the tournament's own record,
  // looked at every 250 ms by a watcher (a player's count of games grows).
  const watcher = await newPlayer(browser, server.url, errors, '198.51.100.149');
  await watcher.goto(url);
  await hydrated(watcher);
  const counts = async () => {
    const view = await watcher.evaluate(async (id) => {
      const r = await fetch('/api/tournament', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ id }),
      });
      return r.json();
    }, id);
    const games = (view.rounds as Game[][]).flat().filter((g) => g.white !== null);
    return new Map(names.map((n) => [n, games.filter((g) => g.black === n || g.white === n).length]));
  };
  const start = await counts();
  for (const n of names) expect(start.get(n)).toBe(1);
  const pairedAt = new Map<string, number>();
  let watching = true;
  const watch = (async () => {
    while (watching && pairedAt.size < 4) {
      const now = await counts();
      for (const n of names) if (!pairedAt.has(n) && now.get(n)! > 1) pairedAt.set(n, Date.now());
      await watcher.waitForTimeout(250);
    }
  })();
  const arrivals = players.map((page) =>
    page
      .waitForURL((u) => /\/table\//.test(u.pathname) && !finished.includes(u.pathname), { timeout: 90_000, waitUntil: 'commit' })
      .then(() => Date.now()),
  );

  // Pair A finishes first and both go elsewhere (the lobby, the leaderboard);
  // pair B finishes and stays on its finished table. Nobody clicks after.
  for (const pair of [pairA, pairB]) {
    await oneMove(pair);
    await oneMove(pair);
    await pair[0].click('#resign');
    await pair[0].click('#resign-yes');
    for (const page of pair) await expect(page.locator('#back-to-tournament')).toBeVisible();
    if (pair === pairA) {
      await Promise.all([pairA[0].goto('/').catch(() => {}), pairA[1].goto('/players').catch(() => {})]);
    }
  }
  const arrived = await Promise.all(arrivals);
  await expect.poll(() => pairedAt.size, { timeout: 10_000 }).toBe(4);
  watching = false;
  await watch;
  for (let i = 0; i < 4; i++) {
    const late = arrived[i] - pairedAt.get(names[i])!;
    expect(late, `${names[i]} reached the next table ${late} ms after its pairing`).toBeLessThanOrEqual(5_000);
  }
  await hydrated(players[0]);
  await expect(players[0].locator('#tournament-paired')).toBeVisible();
  await screenshot(players[0], info, 'arena-taken');
  expect(errors.filter((e) => !e.includes('favicon') && !pairingNotSeatedYet(e))).toEqual([]);
});
