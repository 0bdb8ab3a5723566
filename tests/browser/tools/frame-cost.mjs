// How long one frame of the 3D board takes to draw: a hot-seat table's
// celebration (the busiest scene: 64 discs in flight and 120 confetti) held
// on screen, frames counted over 4 s, on one backend (SwiftShader, as in the
// browser suite). Against a running server:
//   node tests/browser/tools/frame-cost.mjs http://127.0.0.1:40112/ webgpu|webgl2 [rounds]
// (docs/BENCHMARKS.md, "The browser suite at a faster animation pace").
import { chromium } from 'playwright';

const [url, backend = 'webgpu', rounds = '2'] = process.argv.slice(2);
if (!url) {
  console.error('usage: frame-cost.mjs URL [webgpu|webgl2] [rounds]');
  process.exit(2);
}
const common = ['--no-sandbox', '--disable-gpu-process-crash-limit', '--disable-domain-blocking-for-3d-apis'];
const args = backend === 'webgpu'
  ? [...common, '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader']
  : [...common, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
for (let round = 0; round < Number(rounds); round++) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  await page.waitForFunction(() => (window.othello3d?.status()?.frames ?? 0) > 0, null, { timeout: 60_000 });
  await page.evaluate(() => window.othello3d.setCelebrationMs(60_000));
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForFunction(() => window.othello3d.status().celebrating);
  await page.waitForTimeout(500);
  const before = await page.evaluate(() => window.othello3d.status().frames);
  const started = Date.now();
  await page.waitForTimeout(4000);
  const after = await page.evaluate(() => window.othello3d.status().frames);
  const seconds = (Date.now() - started) / 1000;
  const frames = after - before;
  console.log(`${backend} round ${round + 1}: ${(frames / seconds).toFixed(1)} frames/s, ${((1000 * seconds) / frames).toFixed(1)} ms a frame`);
  await context.close();
}
await browser.close();
