// Puzzles: solved and failed by clicks on the main board, the ratings moving
// as Glicko-2 says (computed here, independently of the server), a retry
// that changes nothing, a multi-move puzzle with the opponent's reply played
// on the board, the themes shown only once a puzzle is over, the solution
// played on the board (and again on demand), `/puzzles/<id>` in the address
// bar, the puzzle of the day the same for two strangers, the history, and
// the refusals a careless or hostile client meets.
import { test, expect, fastAnimations, waitForIsland, screenshot, collectErrors } from './support/fixtures';
import { clickSquare, status } from './support/board';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';
import * as fs from 'fs';
import * as path from 'path';

interface Puzzle {
  id: string;
  obf: string;
  line: string[];
  values: [string, number][];
  exact: boolean;
  rating: number;
  themes: string[];
}

const shipped: Puzzle[] = fs
  .readFileSync(path.join(__dirname, '..', '..', 'puzzles', 'puzzles.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

/** The discs of each colour after `moves` (passes between as needed) from a puzzle's start. */
function discsAfter(obf: string, moves: string[]): { black: number; white: number } {
  const cells = obf.slice(0, 64).split('').map((c) => (c === 'X' ? 1 : c === 'O' ? -1 : 0));
  let me = obf[65] === 'X' ? 1 : -1;
  const flips = (sq: number, who: number) => {
    const out: number[] = [];
    if (cells[sq] !== 0) return out;
    for (const [dr, dc] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]) {
      const run: number[] = [];
      let r = Math.floor(sq / 8) + dr, c = (sq % 8) + dc;
      while (r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === -who) { run.push(r * 8 + c); r += dr; c += dc; }
      if (run.length && r >= 0 && r < 8 && c >= 0 && c < 8 && cells[r * 8 + c] === who) out.push(...run);
    }
    return out;
  };
  for (const name of moves) {
    const sq = index(name);
    if (flips(sq, me).length === 0) me = -me; // the other side had to pass
    for (const f of flips(sq, me)) cells[f] = me;
    cells[sq] = me;
    me = -me;
  }
  return { black: cells.filter((c) => c === 1).length, white: cells.filter((c) => c === -1).length };
}

// Glicko-2 as Mark Glickman's "Example of the Glicko-2 system" (τ = 0.5).
interface G { r: number; rd: number; vol: number }
function glicko(me: G, them: G, score: number): G {
  const SCALE = 173.7178;
  const mu = (me.r - 1500) / SCALE, phi = me.rd / SCALE;
  const muJ = (them.r - 1500) / SCALE, phiJ = them.rd / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(me.vol * me.vol), tau = 0.5;
  const f = (x: number) =>
    (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * Math.pow(phi * phi + v + Math.exp(x), 2)) - (x - a) / (tau * tau);
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > 0.000001) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { r: Math.max(600, muNew * SCALE + 1500), rd: phiNew * SCALE, vol };
}

// The rating test signs up on a server of its own: the worker's shared one
// counts every spec's sign-ups from one address (five an hour), and which
// specs share a worker changes as specs are added.
let ratingServer: RunningServer | undefined;
test.afterAll(async () => {
  await ratingServer?.stop();
});

test('puzzles by clicks: served puzzles move an account\'s rating as Glicko-2 says; a retry, a link and a signed-out try do not', async ({ browser }, info) => {
  test.setTimeout(150_000);
  ratingServer = await startServer();
  const context = await browser.newContext({ baseURL: ratingServer.url, locale: 'en-US', viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
  await fastAnimations(context);
  const page = await context.newPage();
  const consoleErrors = collectErrors(page);
  expect(shipped.length).toBeGreaterThan(0);
  const pack = new Set(shipped.slice(0, 500).map((p) => p.id));
  const single = shipped.filter((p) => p.line.length === 1 && !pack.has(p.id));
  const fresh: G = { r: 1500, rd: 350, vol: 0.06 };
  const card = page.locator('#puzzle');
  const rating = page.locator('#puzzle-rating');
  const open = async (path: string) => {
    await page.goto(path);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await waitForIsland(page);
    await expect(card).toHaveAttribute('data-state', 'solving');
  };

  // Signed out: solved by clicking its answer, and the page says why no
  // rating moves.
  await open(`/puzzles?id=${single[0].id}`);
  await expect(page).toHaveURL(new RegExp(`/puzzles/${single[0].id}$`));
  await expect(page.locator('#puzzle-task')).toContainText('find the best move');
  // The themes would give the answer away: not shown before it is over.
  await expect(page.locator('#puzzle-themes')).toHaveCount(0);
  await expect(card).not.toContainText('Themes');
  await expect(page.locator('#puzzle-you')).toHaveAttribute('data-unrated', 'puzzles-unrated-signed-out');
  await expect(page.locator('#puzzle-you')).toContainText('sign in');
  await clickSquare(page, index(single[0].line[0]));
  await expect(card).toHaveAttribute('data-state', 'solved');
  await expect(rating).toHaveAttribute('data-unrated', 'puzzles-unrated-signed-out');
  await expect(page.locator('#puzzle-themes')).toHaveAttribute('data-themes', single[0].themes.join(' '));

  // An account: a puzzle opened by link is not rated either.
  const stamp = Date.now().toString(36).slice(-5);
  await signUp(page, `pz${stamp}`);
  await open(`/puzzles/${single[1].id}`);
  await expect(card).toHaveAttribute('data-id', single[1].id);
  await expect(page.locator('#puzzle-you')).toHaveAttribute('data-unrated', 'puzzles-unrated-not-served');
  await clickSquare(page, index(single[1].line[0]));
  await expect(card).toHaveAttribute('data-state', 'solved');
  await expect(rating).toHaveAttribute('data-unrated', 'puzzles-unrated-not-served');

  // The puzzles the site serves (Next puzzle) are rated: the first
  // one-move puzzle it serves, solved by clicking its answer.
  await open('/puzzles');
  const servedSingle = async () => {
    for (let i = 0; i < 30; i++) {
      const id = (await card.getAttribute('data-id'))!;
      const p = shipped.find((q) => q.id === id)!;
      expect(pack.has(id), `${id} is from the offline pack`).toBe(false);
      if (p.line.length === 1) return p;
      await page.click('#puzzle-next');
      await expect(card).not.toHaveAttribute('data-id', id);
      await expect(card).toHaveAttribute('data-state', 'solving');
    }
    throw new Error('no one-move puzzle served');
  };
  const a = await servedSingle();
  await expect(page).toHaveURL(new RegExp(`/puzzles/${a.id}$`));
  await expect(page.locator('#puzzle-you')).toHaveText('Your puzzle rating: 1500?');
  await expect(page.locator('#puzzle-provisional')).toContainText('A ? after your puzzle rating means it is provisional');
  const legal = (await status(page)).legal;
  expect(legal.length).toBeGreaterThanOrEqual(3);
  await clickSquare(page, index(a.line[0]));
  await expect(card).toHaveAttribute('data-state', 'solved');
  await expect(page.locator('#puzzle-verdict')).toHaveText('Solved: every move found.');
  const afterA = glicko(fresh, { r: a.rating, rd: 350, vol: 0.06 }, 1);
  await expect(rating).toHaveAttribute('data-rating', String(Math.round(afterA.r)));
  await expect(rating).toHaveAttribute('data-change', String(Math.round(afterA.r) - 1500));
  // The solution played on the board, ending on its last position with
  // no value written there; again from the start on demand, where every
  // legal move's value is written, the answer marked.
  await expect(card).toHaveAttribute('data-replayed', 'true', { timeout: 15_000 });
  await page.waitForFunction(() => (window as any).othello3d.status().labels === 0);
  await page.click('#puzzle-replay');
  await page.waitForFunction((n) => (window as any).othello3d.status().labels === n, a.values.length);
  const shown = await status(page);
  expect(shown.hint).toBe(index(a.line[0]));
  expect(shown.labelTexts!.filter((l) => l[2]).map((l) => l[0])).toContain(index(a.line[0]));
  await expect(page.locator('#puzzle-solution')).toContainText(`Solution: ${a.line[0]}.`);
  await expect(page.locator('#puzzle-themes')).toBeVisible();
  await expect(card).toHaveAttribute('data-replayed', 'true', { timeout: 15_000 });
  await screenshot(page, info, 'puzzle-solved');

  // Fail the next one served with a legal move that is not the answer.
  await page.click('#puzzle-next');
  await expect(card).not.toHaveAttribute('data-id', a.id);
  await expect(card).toHaveAttribute('data-state', 'solving');
  const b = await servedSingle();
  const wrong = (await status(page)).legal.find((s) => s !== index(b.line[0]))!;
  await clickSquare(page, wrong);
  await expect(card).toHaveAttribute('data-state', 'failed');
  await expect(page.locator('#puzzle-verdict')).toContainText(`the move was ${b.line[0]}`);
  // The answer, not the wrong move, is played on the board, and no value
  // is written on the square played.
  await expect(card).toHaveAttribute('data-replayed', 'true', { timeout: 15_000 });
  const solvedBoard = discsAfter(b.obf, b.line);
  await page.waitForFunction(
    (want) => {
      const s = (window as any).othello3d.status();
      return s.black === want.black && s.white === want.white && s.labels === 0 && !s.animating;
    },
    solvedBoard,
  );
  const afterB = glicko(afterA, { r: b.rating, rd: 350, vol: 0.06 }, 0);
  await expect(rating).toHaveAttribute('data-rating', String(Math.round(afterB.r)));
  await expect(rating).toHaveAttribute('data-change', String(Math.round(afterB.r) - Math.round(afterA.r)));
  await screenshot(page, info, 'puzzle-failed');

  // Try again: solved, and no rating changes.
  await page.click('#puzzle-retry');
  await expect(card).toHaveAttribute('data-state', 'solving');
  await clickSquare(page, index(b.line[0]));
  await expect(card).toHaveAttribute('data-state', 'solved');
  await expect(rating).toHaveText('You tried this puzzle before: this try changes no rating.');

  // The history lists the account's tries, newest first: b, a, the link's.
  const tries = page.locator('#puzzle-history li');
  await expect(tries.first()).toHaveAttribute('data-id', b.id);
  await expect(tries.first()).toHaveAttribute('data-solved', 'false');
  await expect(tries.nth(1)).toHaveAttribute('data-id', a.id);
  await expect(tries.nth(1)).toHaveAttribute('data-solved', 'true');

  // "Next puzzle" serves one not tried yet.
  await page.click('#puzzle-next');
  await expect(card).not.toHaveAttribute('data-id', b.id);
  await expect(card).toHaveAttribute('data-state', 'solving');
  const next = await card.getAttribute('data-id');
  expect([a.id, b.id, single[1].id]).not.toContain(next);
  expect(consoleErrors).toEqual([]);
});

test('a multi-move puzzle plays the reply on the board; the daily puzzle is the same for two strangers', async ({ browser, server }, info) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const one = await newPlayer(browser, server.url, errors);
  const two = await newPlayer(browser, server.url, errors);
  const multi = shipped.find((p) => p.line.length >= 3);
  if (multi) {
    await one.goto(`/puzzles?id=${multi.id}`);
    await waitForIsland(one);
    await expect(one.locator('#puzzle-task')).toContainText('times');
    await clickSquare(one, index(multi.line[0]));
    await expect(one.locator('#puzzle-verdict')).toContainText(`The opponent answered ${multi.line[1]}`);
    await one.waitForFunction((sq) => (window as any).othello3d.status().legal.length > 0 && (window as any).othello3d.status().drawnVersion >= 3, index(multi.line[1]));
    await clickSquare(one, index(multi.line[2]));
    await expect(one.locator('#puzzle')).toHaveAttribute('data-state', multi.line.length > 3 ? 'solving' : 'solved');
    if (multi.line.length === 3) {
      // Over: the board ends on the solution's last position, not the start.
      await expect(one.locator('#puzzle')).toHaveAttribute('data-replayed', 'true', { timeout: 15_000 });
      const end = discsAfter(multi.obf, multi.line);
      await one.waitForFunction(
        (want) => {
          const s = (window as any).othello3d.status();
          return s.black === want.black && s.white === want.white && s.labels === 0;
        },
        end,
      );
    }
    await screenshot(one, info, 'puzzle-multi-move');
  }
  const daily: string[] = [];
  for (const page of [one, two]) {
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await page.click('#puzzle-of-the-day');
    await page.waitForURL(/\/puzzles(\?daily|\/[0-9a-f]+$)/);
    await expect(page.locator('#puzzle-meta')).toContainText('Puzzle of the day');
    daily.push((await page.locator('#puzzle').getAttribute('data-id'))!);
  }
  expect(daily[0]).toBe(daily[1]);
  expect(errors).toEqual([]);
});

test('bad puzzle requests are refused with 4xx and change nothing', async ({ page }) => {
  await page.goto('/');
  const [p] = shipped;
  const answers = await page.evaluate(async ({ id, first, occupied }) => {
    const call = async (name: string, body: string) => {
      const r = await fetch(`/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      return [r.status, await r.text()] as [number, string];
    };
    return {
      unknown: await call('puzzle', JSON.stringify({ choice: { kind: 'id', id: 'nope' } })),
      badChoice: await call('puzzle', JSON.stringify({ choice: { kind: 'everything' } })),
      malformed: await call('puzzle_move', '{"id": '),
      noMoves: await call('puzzle_move', JSON.stringify({ id, moves: [], streak: false })),
      offBoard: await call('puzzle_move', JSON.stringify({ id, moves: [64], streak: false })),
      tooMany: await call('puzzle_move', JSON.stringify({ id, moves: [first, first, first, first, first], streak: false })),
      occupied: await call('puzzle_move', JSON.stringify({ id, moves: [occupied], streak: false })),
      history: await call('puzzle_history', '{}'),
    };
  }, { id: p.id, first: index(p.line[0]), occupied: p.obf.split('').findIndex((c) => c === 'X' || c === 'O') });
  expect(answers.unknown[0]).toBe(404);
  expect(answers.badChoice[0]).toBe(400);
  expect(answers.malformed[0]).toBe(400);
  // Refused (422, the site's refusal status) with the reason in words.
  for (const key of ['noMoves', 'offBoard', 'tooMany', 'occupied'] as const) expect(answers[key][0], key).toBe(422);
  expect(answers.occupied[1]).toContain('is not a legal move here');
  // Nothing was recorded.
  expect(JSON.parse(answers.history[1])).toEqual([]);
});

test('a flood of puzzle moves from one address is capped: 429s, never a 5xx, nothing recorded', async ({ browser }) => {
  const own = await startServer();
  try {
    const context = await browser.newContext({ baseURL: own.url });
    await fastAnimations(context);
    const page = await context.newPage();
    await page.goto('/');
    const [p] = shipped;
    const occupied = p.obf.split('').findIndex((c) => c === 'X' || c === 'O');
    const statuses: number[] = await page.evaluate(async ({ id, occupied }) => {
      const one = () =>
        fetch('/api/puzzle_move', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ id, moves: [occupied], streak: false }),
        }).then((r) => r.status);
      return Promise.all(Array.from({ length: 200 }, one));
    }, { id: p.id, occupied });
    expect(statuses.every((s) => s === 422 || s === 429), JSON.stringify(statuses)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(200 - 120);
    const history = await page.evaluate(async () => (await fetch('/api/puzzle_history', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json());
    expect(history).toEqual([]);
    await context.close();
  } finally {
    await own.stop();
  }
});
