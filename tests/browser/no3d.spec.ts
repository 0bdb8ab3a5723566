// The 2D board when the browser has no 3D at all: its own Chromium, launched
// with WebGL and the GPU off (WebGPU then has no adapter). It is the same
// browser for either project, so it runs once, on the WebGPU project
// (playwright.config.ts).
import { test, expect, collectErrors } from './support/fixtures';

// The renderer has no WebGL 2 probe of its own (a throwaway context cost tens
// of milliseconds while the page hydrated): a browser with neither WebGPU nor
// WebGL 2 must still end on the 2D board, through the renderer's failed init.
test('a browser without WebGPU and WebGL 2 gets the 2D board', async ({ playwright, server }) => {
  const browser = await playwright.chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-3d-apis', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ baseURL: server.url });
    const errors = collectErrors(page);
    await page.goto('/');
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    expect(await page.evaluate(() => !!document.createElement('canvas').getContext('webgl2'))).toBe(false);
    await expect(page.locator('#backend')).toHaveAttribute('data-backend', '2d');
    await expect(page.locator('#board-canvas')).toBeHidden();
    await expect(page.locator('#board-2d button')).toHaveCount(64);
    // It plays: a hot-seat table on the 2D board.
    await page.locator('#start-hot-seat').click();
    await expect(page).toHaveURL(/\/table\//);
    // The lobby (and its own 2D board) stays on screen until the table page's
    // chunk has loaded: a click before then lands on the lobby's board.
    await expect(page.locator('main.lobby')).toHaveCount(0);
    await expect(page.locator('#backend')).toHaveAttribute('data-backend', '2d');
    await expect(page.locator('#board-2d [data-square="37"]')).toHaveClass(/\blegal\b/);
    await page.locator('#board-2d [data-square="37"]').click();
    await expect(page.locator('#black-count')).toHaveText('4');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
