// What the lobby's `othello:hydrated` mark is made of: interleaved cold loads
// of the same server's lobby in three forms, the page's HTML rewritten on its
// way in (all three go through the same interception, so they pay the same
// for it):
//
//   app        as served; a mark `othello:hydrate-start` just before the boot
//              script calls the module's `hydrate()` (after the glue, the
//              wasm's streaming compile, its instantiation and the page's
//              first paint)
//   no-hydrate the same boot, but `hydrate()` is not called: the mark
//              `othello:hydrated` is set where the call would be — the time
//              the bytes alone (fetch, compile, instantiate) and the wait for
//              the first paint take
//   no-wasm    no boot script and no module preloads: the mark is set in the
//              first task after the server page's first paint (the boot's own
//              `requestAnimationFrame` + `setTimeout`) — the page's floor
//   parsed     as no-wasm, but the mark is set as soon as the whole HTML is
//              parsed (a script at the end of the body), before any paint
//
// Prints per form the median (and min–max) of `othello:hydrated`, and for
// `app` of `othello:hydrate-start` too, in ms from navigation start.
//
//   node tests/browser/tools/hydrate-floor.mjs LOADS webgpu|webgl2 URL
import { chromium } from 'playwright-core';
import { chromiumFlags } from '../support/chromium.mjs';

const [loadsArg, backend, url] = process.argv.slice(2);
const loads = Number(loadsArg);
if (!loads || !['webgpu', 'webgl2'].includes(backend) || !url) {
  console.error('usage: hydrate-floor.mjs LOADS webgpu|webgl2 URL');
  process.exit(2);
}
const HYDRATE_CALL = 'mod.hydrate();';
const FORMS = {
  app: (html) => replaceOnce(html, HYDRATE_CALL, `performance.mark('othello:hydrate-start');${HYDRATE_CALL}`),
  'no-hydrate': (html) => replaceOnce(html, HYDRATE_CALL, `performance.mark('othello:hydrated');`),
  'no-wasm': (html) => noWasm(html, `requestAnimationFrame(function(){setTimeout(function(){performance.mark('othello:hydrated');},0);});`),
  parsed: (html) => noWasm(html, '', `performance.mark('othello:hydrated');`),
};

function noWasm(html, boot, end = '') {
  const nonce = /<script nonce="([0-9a-f]+)">\(function\(glue,wasm\)/.exec(html)?.[1];
  if (!nonce) throw new Error('no boot script in the page');
  const bootScript = new RegExp(`<script nonce="${nonce}">\\(function\\(glue,wasm\\).*?</script>`, 's');
  if (!bootScript.test(html)) throw new Error('the boot script did not match');
  const out = html
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(bootScript, boot ? `<script nonce="${nonce}">${boot}</script>` : '');
  return end ? replaceOnce(out, '</body>', `<script nonce="${nonce}">${end}</script></body>`) : out;
}

function replaceOnce(html, from, to) {
  const at = html.indexOf(from);
  if (at < 0 || html.indexOf(from, at + 1) >= 0) throw new Error(`expected one "${from}" in the page`);
  return html.slice(0, at) + to + html.slice(at + from.length);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags(backend) });
const results = Object.fromEntries(Object.keys(FORMS).map((f) => [f, { hydrated: [], start: [] }]));
const target = new URL(url);

async function load(form) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const page = await context.newPage();
  await page.route(
    (u) => u.origin === target.origin && u.pathname === target.pathname,
    async (route) => {
      const response = await route.fetch();
      const body = FORMS[form](await response.text());
      await route.fulfill({ response, body });
    },
  );
  await page.goto(url, { waitUntil: 'commit' });
  // Hands off while the page starts, as perf.spec.ts does.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await page.waitForFunction(() => performance.getEntriesByName('othello:hydrated').length > 0, null, { timeout: 60_000 });
  const [hydrated, start] = await page.evaluate(() => [
    performance.getEntriesByName('othello:hydrated')[0].startTime,
    performance.getEntriesByName('othello:hydrate-start')[0]?.startTime ?? -1,
  ]);
  results[form].hydrated.push(hydrated);
  if (start >= 0) results[form].start.push(start);
  await context.close();
}

for (let i = 0; i < loads; i++) {
  // Rotate the order so that no form always follows the same one.
  const forms = Object.keys(FORMS);
  for (let k = 0; k < forms.length; k++) await load(forms[(i + k) % forms.length]);
}
await browser.close();

const fmt = (xs) => (xs.length ? `${Math.round(median(xs))} ms (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})` : '—');
for (const [form, r] of Object.entries(results)) {
  console.log(`${form.padEnd(11)} hydrated ${fmt(r.hydrated)}${r.start.length ? `, hydrate() called at ${fmt(r.start)}` : ''}`);
}
