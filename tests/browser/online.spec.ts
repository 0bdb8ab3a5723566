// Online play in separate browser contexts (separate cookies): a private link
// with a spectator, and quick match; whole games by real clicks on the board.
import { test, expect, waitForIsland, screenshot, saveResult } from './support/fixtures';
import { counts } from './support/board';
import { newPlayer, playWholeGame } from './support/online';
import { stallProxy } from './support/stall_proxy';

test('private link: the friend sits by the button, a third visitor watches, a whole game by clicks', async ({ browser, server }, info) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  const creator = await newPlayer(browser, server.url, errors);
  await creator.goto('/');
  await creator.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await creator.click('#private-table');
  await creator.waitForURL(/\/table\//);
  await expect(creator.locator('#share')).toBeVisible();
  const link = await creator.locator('#share-link').inputValue();
  expect(link).toContain('/table/');
  await waitForIsland(creator);
  await screenshot(creator, info, 'online-waiting');

  // Opening the link does not seat the friend: they watch until they press
  // "Take the free seat".
  const guest = await newPlayer(browser, server.url, errors);
  await guest.goto(link);
  await waitForIsland(guest);
  await expect(guest.locator('#spectator')).toContainText('seat is free');
  const take = guest.locator('#take-seat');
  await expect(take).toBeVisible();
  await expect(take).toHaveText('Take the free seat');
  await guest.reload();
  await waitForIsland(guest);
  await expect(creator.locator('#share')).toBeVisible();
  await expect(guest.locator('#resign')).toHaveCount(0);
  // The button is readable and inside the panel, not under anything.
  const box = await take.boundingBox();
  const panel = await guest.locator('#spectator').boundingBox();
  expect(box && panel).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(panel!.x);
  expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(panel!.y + panel!.height + 0.5);
  const centre = [box!.x + box!.width / 2, box!.y + box!.height / 2];
  const hit = await guest.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id ?? '', centre);
  expect(hit, 'nothing covers the seat button').toBe('take-seat');
  await screenshot(guest, info, 'online-free-seat');
  await take.click();
  await expect(guest.locator('#spectator')).toBeHidden();
  await expect(creator.locator('#share')).toBeHidden();
  await expect(guest.locator('#resign')).toBeVisible();
  // The tab's title tells the player to move, whose tab may be in the
  // background, that it is their move; the other's and a watcher's name the
  // page.
  const turns = () => Promise.all([creator, guest].map(async (p) => (await p.locator('#turn').textContent()) ?? ''));
  await expect.poll(async () => (await turns()).filter((t) => t.startsWith('Your move')).length).toBe(1);
  const [toMove, waiting] = (await turns())[0].startsWith('Your move')
    ? [creator, guest]
    : [guest, creator];
  await expect(toMove).toHaveTitle(/^Your move \((Black|White)\) · Othello 3D$/);
  await expect(waiting).toHaveTitle('A game of Othello · Othello 3D');

  // A third visitor stays a spectator: no seat to take.
  const spectator = await newPlayer(browser, server.url, errors);
  await spectator.goto(link);
  await waitForIsland(spectator);
  await expect(spectator.locator('#spectator')).toContainText('You are watching this game.');
  await expect(spectator.locator('#take-seat')).toHaveCount(0);
  await expect(spectator.locator('#resign')).toHaveCount(0);

  await expect(spectator).toHaveTitle('A game of Othello · Othello 3D');

  const moves = await playWholeGame([creator, guest], [spectator]);
  for (const page of [creator, guest, spectator]) {
    await expect(page.locator('#turn')).toContainText('Black wins');
    await expect(page).toHaveTitle('A game of Othello · Othello 3D');
  }
  expect(await counts(spectator)).toEqual([13, 0]);
  expect(await counts(creator)).toEqual([13, 0]);
  const tallies = await Promise.all(
    ['#tally-black', '#tally-white', '#tally-draws'].map((id) => spectator.locator(id).textContent()),
  );
  expect(tallies.reduce((sum, t) => sum + Number(t), 0)).toBe(1);
  await screenshot(creator, info, 'online-private-final');
  await screenshot(spectator, info, 'online-spectator-final');
  saveResult(info, 'online-private', { moves, counts: await counts(creator) });
  // Back to the lobby in the page (no reload): the site's name again.
  await creator.click('.topbar h1 a');
  await creator.waitForURL((u) => u.pathname === '/');
  await expect(creator).toHaveTitle('Othello 3D');
  expect(errors).toEqual([]);
});

test('quick match pairs two players who play a whole game by clicks', async ({ browser, server }, info) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  const first = await newPlayer(browser, server.url, errors);
  const second = await newPlayer(browser, server.url, errors);
  for (const page of [first, second]) {
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  }
  await first.click('#quick-match');
  await expect(first.locator('#queue-status')).toContainText('Waiting');
  await second.click('#quick-match');
  await first.waitForURL(/\/table\//);
  await second.waitForURL(/\/table\//);
  expect(first.url()).toBe(second.url());
  await waitForIsland(first);
  await waitForIsland(second);
  await expect(first.locator('.mode')).toContainText('quick match');
  const moves = await playWholeGame([first, second], []);
  await expect(first.locator('#turn')).toContainText('Black wins');
  await expect(second.locator('#turn')).toContainText('Black wins');
  // Rematch: both vote; colours carry over.
  await first.click('#rematch');
  await expect(second.locator('.their-vote')).toBeVisible();
  await second.click('#rematch');
  await expect(first.locator('.round')).toContainText('Round 2');
  await expect(second.locator('.round')).toContainText('Round 2');
  await screenshot(second, info, 'online-quick-rematch');
  saveResult(info, 'online-quick', { moves });
  expect(errors).toEqual([]);
});

test('a table socket whose handshake never completes is opened again: the page goes live and gets the pushed seat', async ({ browser, server }) => {
  test.setTimeout(90_000);
  // The creator reaches the site through a proxy that swallows their first
  // table socket's handshake (accepts the connection, never answers): the
  // browser would wait minutes on it. The page must give up on it and open
  // another, and then see what was pushed meanwhile.
  const proxy = await stallProxy(server.url, (path, count) => path.startsWith('/ws/table/') && count === 0);
  try {
    const errors: string[] = [];
    const creator = await newPlayer(browser, proxy.url, errors);
    await creator.goto('/');
    await creator.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await creator.click('#private-table');
    await creator.waitForURL(/\/table\//);
    await expect(creator.locator('#share')).toBeVisible();
    await expect.poll(() => proxy.stalled.length, { timeout: 10_000 }).toBe(1);
    await expect(creator.locator('.connection')).toHaveAttribute('data-connected', 'false');
    const link = await creator.locator('#share-link').inputValue();

    // The friend, directly, takes the seat while the creator's socket hangs.
    const guest = await newPlayer(browser, server.url, errors);
    await guest.goto(link.replace(proxy.url, server.url));
    await waitForIsland(guest);
    await guest.locator('#take-seat').click();
    await expect(guest.locator('#resign')).toBeVisible();

    // Within the connect timeout (10 s) and a back-off the creator is live
    // again on a second socket and sees the seat taken.
    await expect(creator.locator('.connection')).toHaveAttribute('data-connected', 'true', { timeout: 25_000 });
    await expect(creator.locator('#share')).toBeHidden();
    await expect(creator.locator('#resign')).toBeVisible();
    expect(proxy.stalled).toHaveLength(1);
    expect(proxy.passed.filter((p) => p.startsWith('/ws/table/'))).toHaveLength(1);
    // Closing the hung socket is reported by Chromium itself; nothing else.
    const unexpected = errors.filter((e) => !/WebSocket is closed before the connection is established/.test(e));
    expect(unexpected).toEqual([]);
  } finally {
    await proxy.close();
  }
});
