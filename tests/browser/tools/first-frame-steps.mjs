// What the lobby's first 3D frame waits for after hydration: cold loads from
// one Chromium (a fresh context each, the page left alone 2.5 s), then the
// page's own marks and the Three.js bundle's resource timing. Prints the
// medians (ms from navigation start) per backend.
//
//   node tests/browser/tools/first-frame-steps.mjs URL [LOADS]
//
// Used for docs/BENCHMARKS.md, "What the first frame waits for after hydration".
import { chromium } from 'playwright-core';

const [url, loadsArg] = process.argv.slice(2);
const loads = Number(loadsArg ?? 7);
if (!url || !loads) {
  console.error('usage: first-frame-steps.mjs URL [LOADS]');
  process.exit(2);
}
// The flags of playwright.config.ts's two projects.
const common = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const backends = {
  webgpu: [...common, '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader'],
  webgl2: [...common, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
};
for (const [name, args] of Object.entries(backends)) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  const rows = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    rows.push(
      await page.evaluate(() => {
        const mark = (n) => Math.round(performance.getEntriesByName(n)[0]?.startTime ?? -1);
        const three = performance.getEntriesByType('resource').find((r) => r.name.includes('/vendor/three/'));
        return [mark('othello:hydrated'), Math.round(three?.startTime ?? -1), Math.round(three?.responseEnd ?? -1), mark('othello:first-frame')];
      }),
    );
    await context.close();
  }
  const median = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  console.log(`${name}: hydrated ${median(0)}, bundle fetch starts ${median(1)}, bundle loaded ${median(2)}, first frame ${median(3)} ms`, JSON.stringify(rows));
  await browser.close();
}
