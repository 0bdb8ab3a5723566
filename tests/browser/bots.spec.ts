// Bot accounts in the browser (PRODUCT.md, Bots): a new account turns into
// a bot on its account page (after saying it understands it is for good),
// makes an API token (shown once), sees the Bot API take it, revokes it and
// sees it refused; a bot account cannot play from the site's pages.
import { test, expect, screenshot, waitForIsland } from './support/fixtures';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';
import { clickSquare, isOver, status, waitForNewVersion, waitForTurnOrEnd } from './support/board';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ args: ['--client-ip-header', 'X-Real-IP'] });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an account becomes a bot, makes a token shown once, uses it by the API and revokes it', async ({ browser }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const name = `bot${Date.now().toString(36).slice(-5)}`;
  const page = await newPlayer(browser, server.url, errors, '198.51.100.171');
  await signUp(page, name);
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  const card = page.locator('#bot-account');
  await expect(card).toBeVisible();
  // Not without saying it understands: the button waits for the box.
  await expect(page.locator('#become-bot')).toBeDisabled();
  await page.check('#become-bot-confirm');
  await page.click('#become-bot');
  await expect(page.locator('#bot-token-form')).toBeVisible();
  await expect(page.locator('#bot-tokens-none')).toBeVisible();

  await page.fill('#bot-token-label', 'engine');
  await page.click('#create-bot-token');
  const token = (await page.locator('#bot-token-new').innerText()).trim();
  expect(token).toMatch(/^oth_[0-9a-f]{64}$/);
  await expect(page.locator('#bot-token-once')).toBeVisible();
  await expect(page.locator('#bot-tokens tbody tr')).toHaveCount(1);
  await screenshot(page, info, 'bot-token');

  const api = (bearer: string) =>
    page.request.get(`${server.url}/api/bot/account`, { headers: { Authorization: `Bearer ${bearer}` } });
  const me = await api(token);
  expect(me.status()).toBe(200);
  expect(await me.text()).toContain(name);
  expect((await api(`oth_${'0'.repeat(64)}`)).status()).toBe(401);

  // Shown once: after a reload the list names it, the token itself is gone.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#bot-tokens tbody tr')).toHaveCount(1);
  await expect(page.locator('#bot-token-new')).toHaveCount(0);
  expect(await page.locator('#bot-account').innerText()).not.toContain(token);

  await page.click('#bot-tokens .revoke-token');
  await expect(page.locator('#bot-tokens .revoke-token')).toHaveCount(0);
  expect((await api(token)).status()).toBe(401);

  // A bot plays by the API only: the lobby's "Play vs AI" is refused, in words.
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-ai');
  await expect(page.locator('.lobby-panel .error[role="alert"]')).toContainText('Bot API');
  expect(page.url()).not.toContain('/table/');
  expect(errors.filter((e) => !e.includes('favicon') && !/status of 403/.test(e))).toEqual([]);
});

test('/bots lists a bot online with its BOT tag and a challenge link, in the menu of every page; the people are elsewhere', async ({ browser }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const name = `eng${Date.now().toString(36).slice(-5)}`;
  const bot = await newPlayer(browser, server.url, errors, '198.51.100.172');
  await signUp(bot, name);
  // The account turns into a bot and makes a token (its page's own calls).
  const token = await bot.evaluate(async () => {
    const call = async (fn: string, body: unknown) => {
      const r = await fetch(`/api/${fn}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      if (!r.ok) throw new Error(`${fn}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    await call('become_bot', {});
    return (await call('create_bot_token', { label: 'engine' })).token as string;
  });
  const person = await newPlayer(browser, server.url, errors, '198.51.100.173');
  await person.setViewportSize({ width: 1280, height: 800 });
  // Before its program uses the token, the bot is listed offline.
  await person.goto('/players');
  await person.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await person.click('#menu-bots');
  await person.waitForURL((url) => url.pathname === '/bots');
  await person.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(person.locator('#menu-bots')).toHaveAttribute('aria-current', 'page');
  const card = person.locator(`.bot-line[data-name="${name}"]`);
  await expect(card).toHaveAttribute('data-online', 'false');
  await expect(card.locator('.bot-status')).toHaveText('Offline');
  // Its program connects (any Bot API call with the token): online.
  const me = await person.request.get(`${server.url}/api/bot/account`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  await person.reload();
  await person.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(card).toHaveAttribute('data-online', 'true');
  await expect(card.locator('.bot-status')).toHaveText('Online: it answers challenges now.');
  await expect(card.locator('.bot-tag')).toHaveText('BOT');
  await expect(card.locator('.bot-ratings')).toHaveText('no rated game yet');
  // Online bots come first.
  await expect(person.locator('.bot-line').first()).toHaveAttribute('data-online', 'true');
  await expect(person.locator('#bots-board-blitz')).toBeVisible();
  await screenshot(person, info, 'bots-page');
  // Its challenge link opens the bot's profile at the challenge form.
  await card.locator('.challenge-link').click();
  await person.waitForURL((url) => url.pathname === `/@/${name}` && url.hash === '#challenge');
  // In Greek, the page speaks Greek.
  await person.goto('/lang/el?back=/bots');
  await person.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(person.locator('h1')).toHaveText('Μποτ');
  await expect(card.locator('.bot-status')).toHaveText('Συνδεδεμένο: απαντά τώρα σε προκλήσεις.');
  // No sideways scroll on a phone.
  await person.setViewportSize({ width: 390, height: 844 });
  const wide = await person.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide).toBeLessThanOrEqual(0);
  await screenshot(person, info, 'bots-page-el-phone');
  expect(errors).toEqual([]);
});

test('a signed-up player plays a house bot by clicks, rated, found by Play a bot in the lobby; both ratings move; quick match offers a bot', async ({ browser }, info) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  // The house bots as the deploy kit runs them: deploy/house-bots.sh sets
  // them up and starts their `othello bot` bridges (the engine's command
  // that `cargo test` built), which play through the Bot API.
  // Quick match offers a bot after 2 s alone (20 s by default).
  const own = await startServer({ args: ['--client-ip-header', 'X-Real-IP', '--bot-offer-secs', '2'] });
  const bots = spawn('bash', ['deploy/house-bots.sh', own.url, mkdtempSync(join(tmpdir(), 'house-bots-')), '--database', own.database], {
    env: {
      ...process.env,
      OTHELLO_SERVER_BIN: resolve(process.env.OTHELLO_SERVER_BIN ?? 'target/debug/othello-server'),
      OTHELLO_BIN: resolve(process.env.OTHELLO_BIN ?? 'target/debug/othello'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said: string[] = [];
  bots.stdout.on('data', (d) => said.push(String(d)));
  bots.stderr.on('data', (d) => said.push(String(d)));
  let opened: { close(): Promise<void> } | undefined;
  try {
    const page = await newPlayer(browser, own.url, errors, '198.51.100.174');
    opened = page.context();
    await page.setViewportSize({ width: 1280, height: 800 });
    const me = `hum${Date.now().toString(36).slice(-5)}`;
    await signUp(page, me);
    // The lobby's "Play a bot" (beside quick match) opens /bots, where the
    // house bots are online with their ratings.
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.click('#play-bot');
    await page.waitForURL((url) => url.pathname === '/bots');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    const pebble = page.locator('.bot-line[data-name="Pebble-bot"]');
    await expect
      .poll(async () => {
        await page.reload();
        await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
        return pebble.getAttribute('data-online');
      }, { timeout: 60_000, message: `the house bots come online: ${said.join('')}` })
      .toBe('true');
    await expect(page.locator('.bot-line')).toHaveCount(4);
    await pebble.locator('.challenge-link').click();
    await page.waitForURL(/\/@\/Pebble-bot/);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    // Its profile says it is a bot.
    await expect(page.locator('#profile-bot .bot-tag')).toHaveText('BOT');
    await page.locator('#challenge form[data-live=true]').waitFor();
    await page.selectOption('#challenge-colour', 'black');
    await page.check('#challenge-rated');
    await page.click('#challenge-send');
    // The bot accepts: the player is taken to the table, rated.
    await page.waitForURL(/\/table\//, { timeout: 30_000 });
    await waitForIsland(page);
    // The table's page is not loaded again by the challenge's notifier (it
    // once was, within 15 s of the answer): a mark on this load stays.
    await page.evaluate(() => ((window as any).sameLoad = true));
    await expect(page.locator('#mode')).toContainText('rated');
    await expect(page.locator('#player-white')).toContainText('Pebble-bot');
    // Marked BOT at the table too; the person is not.
    await expect(page.locator('#player-white .bot-tag')).toHaveText('BOT');
    await expect(page.locator('#player-black .bot-tag')).toHaveCount(0);
    // Every move by a click on the board; the bot answers each.
    let clicks = 0;
    for (let guard = 0; guard < 40; guard++) {
      await waitForTurnOrEnd(page);
      if (await isOver(page)) break;
      const s = await status(page);
      await clickSquare(page, s.legal[0]);
      await waitForNewVersion(page, s.version);
      clicks++;
    }
    expect(await isOver(page)).toBe(true);
    expect(clicks).toBeGreaterThan(5);
    expect(await page.evaluate(() => (window as any).sameLoad), 'the table was not loaded twice').toBe(true);
    // Rated: both players' ratings moved, one up and one down.
    await expect(page.locator('#players .rating-change')).toHaveCount(2, { timeout: 20_000 });
    await screenshot(page, info, 'house-bot-game-over');
    await page.goto('/bots');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await expect(pebble.locator('.bot-ratings')).toHaveText(/^Blitz \d+\?$/);
    await expect(pebble.locator('.game-list li')).toHaveCount(1);

    // Quick match, alone: after the wait the nearest-rated bot online is
    // offered; "Keep waiting" keeps the player in the queue without it.
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.check('#rated');
    await page.click('#quick-match');
    await expect(page.locator('#queue-status')).toBeVisible();
    const offer = page.locator('#bot-offer');
    await expect(offer).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('#bot-offer-text')).toContainText('No one has come in 2 s');
    await screenshot(page, info, 'quick-match-bot-offer');
    await page.click('#bot-offer-wait');
    await expect(offer).toHaveCount(0);
    await expect(page.locator('#queue-status')).toBeVisible();
    // Left and joined again: offered again; taken, the bot's table is the
    // player's next game, rated, and the queue is left.
    await page.click('#leave-queue');
    await page.click('#quick-match');
    await expect(offer).toBeVisible({ timeout: 15_000 });
    const offered = (await offer.getAttribute('data-bot'))!;
    expect(['Pebble-bot', 'Ripple-bot', 'Tide-bot', 'Storm-bot']).toContain(offered);
    await expect(page.locator('#bot-offer-text')).toContainText(offered);
    await page.click('#bot-offer-play');
    await page.waitForURL(/\/table\//, { timeout: 30_000 });
    await waitForIsland(page);
    await expect(page.locator('#mode')).toContainText('rated');
    await expect(page.locator('#players')).toContainText(offered);

    // A synchro pair from a random start, asked of Pebble-bot on its
    // profile: two games at once, colours swapped; both archived, the sum
    // shown on each game's page.
    await page.goto('/@/Pebble-bot');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.locator('#challenge form[data-live=true]').waitFor();
    await page.check('#challenge-random-start');
    await page.check('#challenge-synchro');
    await page.click('#challenge-send');
    await page.waitForURL(/\/table\//, { timeout: 30_000 });
    await waitForIsland(page);
    const first = new URL(page.url()).pathname;
    await expect(page.locator('#synchro-note')).toBeVisible();
    const other = (await page.locator('#synchro-table-other').getAttribute('href'))!;
    expect(other).toMatch(/^\/table\/[0-9a-f]+$/);
    expect(other).not.toBe(first);
    const second = await page.context().newPage();
    await second.goto(other);
    await waitForIsland(second);
    await expect(second.locator('#synchro-note')).toBeVisible();
    await screenshot(second, info, 'synchro-second-table');
    // A random start (8-12 moves in: at least 12 discs; the server test
    // checks it is one start of the published set for both); the person's
    // colours swapped.
    for (const p of [page, second]) {
      const s = await status(p);
      expect(s.black + s.white).toBeGreaterThanOrEqual(12);
    }
    const mine = async (p: typeof page) => (await p.locator('#player-black .bot-tag').count()) === 0 ? 'black' : 'white';
    expect(await mine(second)).not.toBe(await mine(page));
    for (const p of [page, second]) {
      await p.click('#resign');
      await p.click('#resign-yes');
      await expect.poll(() => isOver(p), { timeout: 15_000 }).toBe(true);
    }
    await second.close();
    // The newest game in the person's profile is one of the pair: it names
    // the other and the disc sum over both.
    await page.goto(`/@/${me}`);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.locator('#profile-games li a').first().click();
    await page.waitForURL(/\/game\//);
    await expect(page.locator('#synchro-sum')).toContainText('Disc sum over both games');
    await expect(page.locator('#synchro-other')).toHaveAttribute('href', /^\/game\/[0-9a-f]+$/);
    await screenshot(page, info, 'synchro-game-sum');
    await page.locator('#synchro-other').click();
    await page.waitForURL(/\/game\//);
    await expect(page.locator('#synchro-sum')).toContainText('Disc sum over both games');
    // (Read before the server stops: its pages poll it while open.)
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
  } finally {
    await opened?.close();
    bots.kill('SIGTERM');
    await own.stop();
  }
});
