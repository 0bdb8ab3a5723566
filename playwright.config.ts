// Browser suite: Playwright driving Debian's Chromium, once with real WebGPU
// (SwiftShader Vulkan, no GPU needed) and once on the WebGL 2 fallback.
// Each worker starts its own server on a free port with a fresh database
// (tests/browser/support/fixtures.ts).
import { defineConfig } from '@playwright/test';
// @ts-ignore: a plain ES module, shared with the tools (no type declarations).
import { WEBGPU_FLAGS, WEBGL2_FLAGS } from './tests/browser/support/chromium.mjs';

export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results/playwright-artifacts',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: Number(process.env.OTHELLO_BROWSER_WORKERS ?? 2),
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/browser-results.json' }],
  ],
  use: {
    // English pages unless a spec asks for Greek (tests/browser/i18n.spec.ts).
    locale: 'en-US',
    viewport: { width: 1100, height: 760 },
    actionTimeout: 20_000,
    // The service worker (offline play) is tested by installable.spec.ts,
    // which allows it; elsewhere its precache would only add load to tests
    // about other things.
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'webgpu',
      use: {
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: WEBGPU_FLAGS,
        },
      },
    },
    {
      name: 'webgl2',
      // The fallback renderer runs the specs whose outcome the renderer can
      // change: the board's drawing and picking (board, pipeline, hint's
      // values on the squares), whole games by clicks (table, first_visit),
      // the first frame and bytes (perf) and the offline site (installable,
      // offline). The other specs test the server and the pages' words,
      // layout and keyboard, the same on either renderer, so they run once,
      // on the WebGPU project: running them twice doubled the suite's time
      // and tested nothing the fallback could change (docs/BENCHMARKS.md,
      // The test command's time).
      // (Matched on the file's whole name: analysis_board.spec.ts is not board.spec.ts.)
      testMatch: /(^|\/)(board|pipeline|hint|table|first_visit|perf|installable|offline)\.spec\.ts$/,
      use: {
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: WEBGL2_FLAGS,
        },
      },
    },
  ],
});
