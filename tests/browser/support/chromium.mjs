// The browser suite's Chromium flags, in one place: playwright.config.ts
// launches its two projects with them, and the measuring tools in
// tests/browser/tools launch the same browser.

/** Every launch (root, closed network, a GPU process allowed to crash). */
export const COMMON_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // SwiftShader's GPU process can crash on this loaded 2-core machine (and
  // board.spec.ts kills it on purpose). After a few crashes Chromium turns
  // WebGPU and WebGL off for the whole browser and blocks the site from 3D:
  // every later test in that worker would get the 2D board. The island's own
  // recovery (a new renderer after a lost device) is what the suite tests;
  // these keep one crash from failing unrelated specs.
  '--disable-gpu-process-crash-limit',
  '--disable-domain-blocking-for-3d-apis',
];

/** Real WebGPU on SwiftShader Vulkan (no GPU needed): all four are needed. */
export const WEBGPU_FLAGS = [
  ...COMMON_FLAGS,
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
];

/** No WebGPU: Three.js runs its WebGL 2 backend on SwiftShader. */
export const WEBGL2_FLAGS = [...COMMON_FLAGS, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/** The flags for a backend's project: `webgpu` or `webgl2`. */
export function chromiumFlags(backend) {
  return backend === 'webgpu' ? WEBGPU_FLAGS : WEBGL2_FLAGS;
}
