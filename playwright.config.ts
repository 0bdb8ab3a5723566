// Browser suite: Playwright driving Debian's Chromium, once with real WebGPU
// (SwiftShader Vulkan, no GPU needed) and once on the WebGL 2 fallback.
// Each worker starts its own server on a free port with a fresh database
// (tests/browser/support/fixtures.ts).
import { defineConfig } from '@playwright/test';

const common = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

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
          args: [
            ...common,
            '--enable-unsafe-webgpu',
            '--enable-features=Vulkan',
            '--use-vulkan=swiftshader',
            '--use-angle=swiftshader',
          ],
        },
      },
    },
    {
      name: 'webgl2',
      // Several instances on PostgreSQL is server behaviour, the same on
      // either renderer: it runs once, on the WebGPU project.
      // The no-3D browser is launched by its spec, whatever the project.
      // Target sizes are layout, the same on either renderer.
      testIgnore: /(cluster|no3d|targets)\.spec\.ts/,
      use: {
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [...common, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
        },
      },
    },
  ],
});
