// Start-up A/B: interleaved cold loads of the lobby from two (or more) servers,
// in one Chromium, so that both variants see the same machine load. Prints the
// median time to the page's first paint (`first-contentful-paint`),
// `othello:hydrated` and `othello:first-frame` per URL.
//
//   node tests/browser/tools/startup-ab.mjs LOADS webgpu|webgl2 URL [URL…]
//
// HARNESS=quiet (default) leaves each page alone for 2 s before reading its
// marks, as perf.spec.ts does; HARNESS=active waits for `load` and polls with
// waitForFunction (the harness perf.spec.ts used before 2026-12-02);
// HARNESS=both alternates the two on every URL.
// THROTTLE=1 emulates a 10 Mbit/s, 40 ms link (CDP). The first load of each
// URL is kept: it is a cold browser, as in perf.spec.ts. TRACE=file.json adds
// one more cold load of the first URL, not counted, recorded as a Chromium
// trace (timeline, V8 compile and wasm events, CPU samples) to open in
// DevTools' Performance panel or Perfetto: the trace behind the start-up
// breakdown in docs/BENCHMARKS.md.
import { chromium } from 'playwright-core';
import { chromiumFlags } from '../support/chromium.mjs';

const [loadsArg, backend, ...urls] = process.argv.slice(2);
const loads = Number(loadsArg);
if (!loads || !['webgpu', 'webgl2'].includes(backend) || urls.length === 0) {
  console.error('usage: startup-ab.mjs LOADS webgpu|webgl2 URL [URL…]');
  process.exit(2);
}
const harness = process.env.HARNESS ?? 'quiet';
const modes = harness === 'both' ? ['active', 'quiet'] : [harness];
if (!modes.every((m) => m === 'active' || m === 'quiet')) {
  console.error('HARNESS is quiet, active or both');
  process.exit(2);
}
const throttle = process.env.THROTTLE === '1';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags(backend) });
const runs = urls.flatMap((url) => modes.map((mode) => ({ url, mode, paint: [], hydrated: [], frame: [] })));
const trace = process.env.TRACE;
const TRACE_CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading',
  'v8', 'v8.execute', 'v8.wasm', 'disabled-by-default-v8.compile', 'disabled-by-default-v8.cpu_profiler',
];

async function load({ url, mode }, tracePath) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 5e6 / 8 });
  }
  if (tracePath) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
  if (mode === 'quiet') {
    await page.goto(url, { waitUntil: 'commit' });
    await new Promise((resolve) => setTimeout(resolve, throttle ? 4000 : 2000));
  } else {
    await page.goto(url);
  }
  await page.waitForFunction(() => performance.getEntriesByName('othello:first-frame').length > 0, null, { timeout: 60_000 });
  const [paint, hydrated, frame] = await page.evaluate(() => [
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
    performance.getEntriesByName('othello:hydrated')[0].startTime,
    performance.getEntriesByName('othello:first-frame')[0].startTime,
  ]);
  if (tracePath) await browser.stopTracing();
  await context.close();
  return [Math.round(paint), Math.round(hydrated), Math.round(frame)];
}

for (let i = 0; i < loads; i++) {
  for (const run of runs) {
    const [paint, hydrated, frame] = await load(run);
    run.paint.push(paint);
    run.hydrated.push(hydrated);
    run.frame.push(frame);
  }
}
if (trace) {
  const [paint, hydrated, frame] = await load(runs[0], trace);
  console.log(`trace of one more load of ${runs[0].url} (${paint} / ${hydrated} / ${frame} ms, slowed by tracing): ${trace}`);
}
await browser.close();
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};
for (const r of runs) {
  console.log(`${backend} ${r.url} (${r.mode} harness): first paint median ${median(r.paint)} ms (${r.paint.join(', ')}); hydrated median ${median(r.hydrated)} ms (${r.hydrated.join(', ')}); first frame median ${median(r.frame)} ms (${r.frame.join(', ')})`);
}
