// Shared fixtures: one server per worker, console-error capture per page, and
// helpers to wait for the 3D island and to save results per backend.
import { test as base, expect, BrowserContext, Page, TestInfo } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, RunningServer } from './server';

/**
 * How much faster than real the board's animations run in the suite (drops,
 * flips, the celebration): `window.othelloAnimationPace`, set by an init
 * script before the page loads (frontend/src/scene/mod.rs, `pace`). Whole
 * games by clicks wait for every flip to be drawn, and a software GPU draws
 * each animation frame on the CPU: at the real pace the suite spent most of
 * its time watching discs turn. The board spec tests the animations
 * themselves at their real pace (`test.use({ animationPace: 1 })`).
 * `OTHELLO_ANIMATION_PACE=1` runs the whole suite at the real pace (to watch
 * it, or to compare).
 */
export const ANIMATION_PACE = Number(process.env.OTHELLO_ANIMATION_PACE ?? 10);

/** Gives every page of a context (one made by hand) the suite's animation pace. */
export async function fastAnimations(context: BrowserContext, pace: number = ANIMATION_PACE) {
  if (pace !== 1) {
    await context.addInitScript((p) => {
      (window as any).othelloAnimationPace = p;
    }, pace);
  }
}

export const test = base.extend<{ consoleErrors: string[]; animationPace: number }, { server: RunningServer }>({
  animationPace: [ANIMATION_PACE, { option: true }],
  context: async ({ context, animationPace }, use) => {
    await fastAnimations(context, animationPace);
    await use(context);
  },
  server: [
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  consoleErrors: async ({ page }, use) => use(collectErrors(page)),
});

/** Gathers a page's console errors, uncaught exceptions and HTTP errors, as they come. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${response.url()}`);
  });
  return errors;
}

export { expect };

/** The backend this project must run on. */
export function expectedBackend(info: TestInfo): 'webgpu' | 'webgl2' {
  return info.project.name === 'webgpu' ? 'webgpu' : 'webgl2';
}

/** Waits until the page has hydrated and the 3D island has drawn a frame. */
export async function waitForIsland(page: Page) {
  // After a navigation away from the lobby, the lobby stays on screen (its
  // island still published) until the new page's lazy chunk has loaded.
  await page.waitForFunction(
    () =>
      document.body.dataset.hydrated === 'true' &&
      (location.pathname === '/' || !document.querySelector('main.lobby')),
    null,
    { timeout: 30_000 },
  );
  try {
    await page.waitForFunction(
      () => {
        const api = (window as any).othello3d;
        return !!api && !!api.status() && api.status().frames > 0;
      },
      null,
      { timeout: 60_000 },
    );
  } catch (error) {
    // Say why no frame came: the island's own report (`othello3dError`: the
    // browser gave neither WebGPU nor WebGL 2, e.g. after GPU process crashes)
    // and what the page shows instead.
    const why = await page
      .evaluate(() => ({
        path: location.pathname,
        island: (window as any).othello3d ? { backend: (window as any).othello3d.backend, status: (window as any).othello3d.status() } : null,
        failure: 'othello3dError' in window ? String((window as any).othello3dError) : null,
        backend: document.querySelector('#backend')?.getAttribute('data-backend') ?? null,
        // What the page shows instead of a board (a refusal, a loading line).
        shows: (document.querySelector('main') as HTMLElement | null)?.innerText.slice(0, 300) ?? null,
      }))
      .catch((e) => String(e));
    throw new Error(`no 3D frame within 60 s: ${JSON.stringify(why)}\n${error}`);
  }
}

/** Waits until the island has drawn the given board version with animations done. */
export async function waitForDrawn(page: Page, version: number) {
  await page.waitForFunction(
    (v) => {
      const s = (window as any).othello3d?.status();
      return !!s && s.drawnVersion >= v;
    },
    version,
    { timeout: 60_000 },
  );
}

export interface PixelStats {
  width: number;
  height: number;
  drawn: number;
  felt: number;
  black: number;
  white: number;
}

export async function pixelStats(page: Page): Promise<PixelStats> {
  return page.evaluate(() => (window as any).othello3d.pixelStats());
}

/** Folder for this project's (backend's) results. */
export function resultsDir(info: TestInfo): string {
  const dir = join('test-results', info.project.name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function saveResult(info: TestInfo, name: string, data: unknown) {
  writeFileSync(join(resultsDir(info), `${name}.json`), JSON.stringify(data, null, 2));
}

/**
 * Saves a screenshot of the page. `timeout`: for a page that animates on a
 * software GPU (a celebration draws one frame every 150–360 ms there, and
 * the screenshot waits for the compositor's next frame).
 */
export async function screenshot(page: Page, info: TestInfo, name: string, timeout?: number) {
  await page.screenshot({ path: join(resultsDir(info), `${name}.png`), timeout });
}
