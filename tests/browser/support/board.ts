// Helpers to play on the 3D board with real mouse clicks.
import { Page, expect } from '@playwright/test';

export interface IslandStatus {
  frames: number;
  /** Turns of the island's frame loop, drawn or not (it sleeps while nothing changes). */
  ticks: number;
  version: number;
  drawnVersion: number;
  black: number;
  white: number;
  legal: number[];
  animating: boolean;
  /** How much faster than real the animations run (the suite's init script; 1 = real). */
  pace?: number;
  hint?: number | null;
  labels?: number;
  /** Each label on the board as `[square, text, best]`. */
  labelTexts?: [number, string, boolean][];
  /** The orbit controls are there (they load at the first touch of the board). */
  orbit?: boolean;
}

export async function status(page: Page): Promise<IslandStatus> {
  return page.evaluate(() => (window as any).othello3d.status());
}

/** Clicks the centre of a square where the 3D scene draws it. */
export async function clickSquare(page: Page, index: number) {
  const point = await page.evaluate((i) => (window as any).othello3d.squareToScreen(i), index);
  expect(point, `square ${index} projects on screen`).not.toBeNull();
  await page.mouse.click(point[0], point[1]);
}

/** Waits until the board shows a version newer than `after`, fully drawn. */
export async function waitForNewVersion(page: Page, after: number) {
  await page.waitForFunction(
    (v) => {
      const s = (window as any).othello3d?.status();
      return !!s && s.version > v && s.drawnVersion >= s.version && !s.animating;
    },
    after,
    { timeout: 60_000 },
  );
}

export async function isOver(page: Page): Promise<boolean> {
  const text = (await page.locator('#turn').textContent()) ?? '';
  return /wins|Draw/.test(text);
}

/** Waits until the viewer may move (legal markers shown) or the game is over. */
export async function waitForTurnOrEnd(page: Page) {
  await page.waitForFunction(
    () => {
      const s = (window as any).othello3d?.status();
      const turn = document.querySelector('#turn')?.textContent ?? '';
      if (/wins|Draw/.test(turn)) return true;
      return !!s && s.legal.length > 0 && s.drawnVersion >= s.version && !s.animating;
    },
    null,
    { timeout: 60_000 },
  );
}

export async function counts(page: Page): Promise<[number, number]> {
  const black = Number(await page.locator('#black-count').textContent());
  const white = Number(await page.locator('#white-count').textContent());
  return [black, white];
}

/** Starts a game from the lobby. */
export async function startVsAi(page: Page, depth: number, colour: 'black' | 'white') {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.selectOption('#ai-depth', String(depth));
  await page.check(`#play-${colour}`);
  await page.click('#start-ai');
  await page.waitForURL(/\/table\//);
}

export async function startHotSeat(page: Page) {
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
}

/** Resigns the way a player does: Resign, then "Yes, resign" in the inline confirmation. */
export async function resign(page: Page) {
  await page.click('#resign');
  await page.click('#resign-yes');
}

/** Waits until the analysis board's values card lists one value per legal move. */
export async function analysisValuesShown(page: Page) {
  await page.waitForFunction(
    () => {
      const legal = (window as any).othello3d.status().legal.length;
      return legal > 0 && document.querySelectorAll('#analysis-values li').length === legal;
    },
    null,
    { timeout: 90_000 },
  );
}
