// Where a cold page load's time goes, from a Chrome trace: the GPU process's
// main thread (WebGPU command flushes, where SwiftShader compiles and draws;
// the display compositor's SwapBuffers; pipeline and shader creation) and the
// page's renderer main thread (tasks, V8 and wasm compilation), beside the
// page's own marks (othello:hydrated, othello:first-frame).
//
//   node tests/browser/tools/gpu-trace.mjs URL [webgpu|webgl2] [LOADS]
//
// Each load runs in a fresh context after one untraced warm-up load (the
// browser and its GPU process already started, as in the suite and for a
// visitor's second page). Prints one summary per load; the last load's raw
// trace is written to test-results/gpu-trace.json (open it in Perfetto or
// chrome://tracing). Against a server started with e.g.
// `target/debug/othello-server --listen 127.0.0.1:40112 --rate-per-ip 0`.
import { chromium } from '@playwright/test';
import fs from 'node:fs';
import { chromiumFlags } from '../support/chromium.mjs';

const [url, backend = 'webgpu', loadsArg = '3'] = process.argv.slice(2);
if (!url) {
  console.error('usage: gpu-trace.mjs URL [webgpu|webgl2] [LOADS]');
  process.exit(2);
}
const args = chromiumFlags(backend);
const categories = ['toplevel', 'gpu', 'gpu.dawn', 'disabled-by-default-gpu.dawn', 'gpu.service', 'viz', 'v8', 'v8.wasm', 'devtools.timeline', 'blink'];
const out = 'test-results/gpu-trace.json';
fs.mkdirSync('test-results', { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });

async function load(traced) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  if (traced) await browser.startTracing(page, { path: out, categories });
  await page.goto(url);
  await page.waitForFunction(
    () =>
      ((window).othello3d?.status()?.frames ?? 0) > 0 ||
      (document.body.dataset.hydrated === 'true' && !document.querySelector('#board-canvas')),
    null,
    { timeout: 60_000 },
  );
  // What the GPU does for the first frame comes after the page's mark.
  await page.waitForTimeout(3000);
  const marks = await page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('othello:'))
        .map((m) => [m.name.slice(8), Math.round(m.startTime)]),
    ),
  );
  if (traced) await browser.stopTracing();
  await context.close();
  return marks;
}

/** Sums complete events by name on one process's main thread. */
function summarise(events, processName, threadName, names) {
  const pids = new Map();
  const tids = new Map();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') pids.set(e.pid, e.args.name);
    if (e.name === 'thread_name') tids.set(`${e.pid}/${e.tid}`, e.args.name);
  }
  const sums = {};
  let busy = 0;
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    if (pids.get(e.pid) !== processName || tids.get(`${e.pid}/${e.tid}`) !== threadName) continue;
    if (e.name === 'ThreadControllerImpl::RunTask') busy += e.dur;
    const key = names.find((n) => e.name.includes(n));
    if (!key) continue;
    sums[key] ??= { count: 0, ms: 0 };
    sums[key].count += 1;
    sums[key].ms += e.dur / 1000;
  }
  for (const v of Object.values(sums)) v.ms = Math.round(v.ms);
  return { tasksMs: Math.round(busy / 1000), ...sums };
}

await load(false);
for (let i = 0; i < Number(loadsArg); i++) {
  const marks = await load(true);
  const trace = JSON.parse(fs.readFileSync(out, 'utf8'));
  const events = trace.traceEvents ?? trace;
  const gpu = summarise(events, 'GPU Process', 'CrGpuMain', [
    'WebGPUDecoderImpl::HandleDawnCommands',
    'WebGPU',
    'SkiaOutputSurfaceImplOnGpu::SwapBuffers',
    'DeviceBase::APICreateRenderPipeline',
    'DeviceBase::APICreateShaderModule',
    'RasterDecoderImpl::DoEndRasterCHROMIUM',
  ]);
  const renderer = summarise(events, 'Renderer', 'CrRendererMain', [
    'v8.wasm.compiledModule',
    'v8.wasm.streamFromResponseCallback',
    'wasm.SyncCompile',
    'v8.compile',
    'v8.run',
    'FunctionCall',
    'ParseHTML',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
  ]);
  console.log(JSON.stringify({ backend, load: i, marks, gpuMain: gpu, rendererMain: renderer }));
}
await browser.close();
