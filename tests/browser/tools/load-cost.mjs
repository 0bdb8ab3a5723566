// What a page load costs the machine, per Chromium process kind: CPU seconds
// of the browser, GPU, renderer and utility processes while a page loads
// (until its first 3D frame, or hydration for a page without a board), in the
// 3 s after, and in 3 s more of the page left alone (an idle board should cost
// nothing then). Each load in a fresh context, as the browser suite's tests do.
//
//   node tests/browser/tools/load-cost.mjs URL [LOADS] [webgpu|webgl2] [PATHS]
//
// PATHS: comma-separated, default `/`; a path without a 3D board (e.g.
// `/account` or `/?renderer=2d`) waits for hydration instead of a frame.
// Against a server started with e.g.
// `target/debug/othello-server --listen 127.0.0.1:40112 --rate-per-ip 0`.
// CHROMIUM_ARGS adds flags. Reads /proc, so Linux only; the figures include whatever else runs.
import { chromium } from '@playwright/test';
import fs from 'node:fs';
import { chromiumFlags } from '../support/chromium.mjs';

const [url, loadsArg, backend = 'webgpu', pathsArg = '/'] = process.argv.slice(2);
if (!url) {
  console.error('usage: load-cost.mjs URL [LOADS] [webgpu|webgl2] [PATHS]');
  process.exit(2);
}
const loads = Number(loadsArg ?? 4);
const args = chromiumFlags(backend);
// CHROMIUM_ARGS: more flags, space-separated, to compare.
const extra = (process.env.CHROMIUM_ARGS ?? '').split(' ').filter(Boolean);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...args, ...extra] });
const ticksPerSecond = 100;

/** CPU seconds so far of every Chromium process, summed per `--type`. */
function cpu() {
  const by = {};
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chrom')) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
      const kind = cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
      by[kind] = (by[kind] ?? 0) + seconds;
    } catch {
      // The process ended meanwhile.
    }
  }
  return by;
}
const diff = (a, b) =>
  Object.fromEntries(
    Object.keys(b)
      .filter((k) => k !== 'zygote')
      .map((k) => [k, +(b[k] - (a[k] ?? 0)).toFixed(2)]),
  );

for (const path of pathsArg.split(',')) {
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const start = cpu();
    const t0 = Date.now();
    await page.goto(url + path);
    await page.waitForFunction(
      () =>
        ((window).othello3d?.status()?.frames ?? 0) > 0 ||
        (document.body.dataset.hydrated === 'true' && !document.querySelector('#board-canvas')),
      null,
      { timeout: 60_000 },
    );
    const loaded = cpu();
    const ms = Date.now() - t0;
    await page.waitForTimeout(3000);
    const after = cpu();
    await page.waitForTimeout(3000);
    const idle = cpu();
    const ticks = await page.evaluate(() => (window).othello3d?.status()?.ticks ?? null);
    console.log(
      `${path} #${i}: ready in ${ms} ms; load ${JSON.stringify(diff(start, loaded))}; ` +
        `next 3 s ${JSON.stringify(diff(loaded, after))}; 3 s more ${JSON.stringify(diff(after, idle))}; loop turns ${ticks}`,
    );
    await context.close();
  }
}
await browser.close();
