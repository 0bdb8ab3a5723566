// The pipeline end to end: server-rendered HTML hydrates with no console
// errors, the 3D island runs on the expected backend and draws real pixels.
import { test, expect, expectedBackend, waitForIsland, pixelStats, saveResult, screenshot } from './support/fixtures';

test('lobby is server-rendered, hydrates and draws the board', async ({ page, consoleErrors, request }, info) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('Othello 3D');
  expect(html).toContain('id="board-canvas"');
  expect(html).toContain('type="importmap"');

  const started = Date.now();
  await page.goto('/');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  const hydratedMs = Date.now() - started;
  await waitForIsland(page);
  const firstFrameMs = Date.now() - started;

  const backend = expectedBackend(info);
  await expect(page.locator('#backend')).toHaveAttribute('data-backend', backend);
  expect(await page.evaluate(() => (window as any).othello3d.backend)).toBe(backend);

  await screenshot(page, info, 'lobby');
  const stats = await pixelStats(page);
  saveResult(info, 'pipeline', { backend, hydratedMs, firstFrameMs, pixels: stats, consoleErrors });
  // The felt fills a good part of the frame; the lobby's board is set up at
  // the start: two black and two white discs, about as many pixels of each.
  expect(stats.drawn).toBeGreaterThan(stats.width * stats.height * 0.2);
  expect(stats.felt).toBeGreaterThan(stats.width * stats.height * 0.15);
  expect(stats.black).toBeGreaterThan(50);
  expect(stats.white).toBeGreaterThan(50);
  expect(stats.black / stats.white).toBeGreaterThan(0.5);
  expect(stats.black / stats.white).toBeLessThan(2);
  expect(consoleErrors).toEqual([]);
});

test('multisampling is off on a software GPU; ?msaa=on turns it on and the board is drawn the same', async ({ page, consoleErrors }, info) => {
  // The suite's GPU is SwiftShader, a software one: every frame's four
  // samples a pixel would be drawn and resolved on the CPU.
  await page.goto('/');
  await waitForIsland(page);
  await expect(page.locator('#board-canvas')).toHaveAttribute('data-samples', '0');
  const plain = await pixelStats(page);
  // A hardware GPU's setting, asked for: the same board, multisampled.
  await page.goto('/?msaa=on');
  await waitForIsland(page);
  await expect(page.locator('#board-canvas')).toHaveAttribute('data-samples', '4');
  expect(await page.evaluate(() => (window as any).othello3d.backend)).toBe(expectedBackend(info));
  const smooth = await pixelStats(page);
  await screenshot(page, info, 'lobby-msaa');
  saveResult(info, 'msaa', { plain, smooth });
  const near = (a: number, b: number) => Math.abs(a - b) <= 0.05 * Math.max(a, b);
  expect(smooth.drawn).toBeGreaterThan(smooth.width * smooth.height * 0.2);
  expect(smooth.black).toBeGreaterThan(50);
  expect(smooth.white).toBeGreaterThan(50);
  expect(near(smooth.black, plain.black), `black ${plain.black} → ${smooth.black}`).toBe(true);
  expect(near(smooth.white, plain.white), `white ${plain.white} → ${smooth.white}`).toBe(true);
  // And asked off, off.
  await page.goto('/?msaa=off');
  await waitForIsland(page);
  await expect(page.locator('#board-canvas')).toHaveAttribute('data-samples', '0');
  expect(consoleErrors).toEqual([]);
});

test('health and readiness answer', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.ok()).toBeTruthy();
  expect((await health.json()).status).toBe('ok');
  const ready = await request.get('/readyz');
  expect(ready.ok()).toBeTruthy();
});
