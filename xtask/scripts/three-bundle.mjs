// Bundles the island's Three.js (`cargo xtask site`): the entry module comes
// on stdin (written by the xtask from the classes frontend/src/three.rs
// binds), the bundle goes to the file named by the second argument. esbuild
// bundles, tree-shakes and minifies it; terser then compresses esbuild's
// output again (two passes: inlining, dead branches and unused code esbuild's
// minifier keeps), 4.6 % fewer brotli bytes (147.5 → 140.7 KB on WebGPU;
// docs/BENCHMARKS.md, "Three.js without XR").
//
// Three's `Renderer` also constructs parts the board never uses, which
// tree-shaking cannot drop because the constructor names them: the WebXR
// manager (with its controllers), the PMREM generator (environment maps,
// reached through the node library's environment node) and the GPU
// timestamp-query pools (`trackTimestamp`). Each is replaced here by a stub
// of the same shape: XR is never enabled and never presents; the other two
// throw if they are ever constructed (a scene with an environment map, a
// renderer asked to track timestamps), so a later use fails loudly in the
// browser suite instead of drawing wrong. 7.4 KB less brotli on the lobby's
// WebGPU bundle (docs/BENCHMARKS.md, "Three.js without XR").
//
// The addons' bundle (`addons`: the orbit controls, loaded at the first touch
// of the board) takes what it imports from `three` from the page's bundle,
// published as `globalThis.THREE` before the addons load: a shim module
// exports exactly the names given as the third argument, so one copy of each
// class is in the page and an addon that imports another name fails here.
//
// Usage: node three-bundle.mjs webgpu|webgl|addons OUTFILE [NAMES,…] < entry.js
import * as esbuild from 'esbuild';
import { minify } from 'terser';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Module (under node_modules/three/) → its stub. A module under a backend's
// folder is in that backend's bundle only.
const STUBS = {
  'src/renderers/common/XRManager.js': `
import { EventDispatcher } from '../../core/EventDispatcher.js';
export default class XRManager extends EventDispatcher {
  constructor() {
    super();
    this.enabled = false;
    this.isPresenting = false;
    this.cameraAutoUpdate = true;
  }
  getEnvironmentBlendMode() {}
  getCamera() {}
  updateCamera() {}
  renderLayers() {}
  setAnimationLoop() {}
  dispose() {}
}`,
  'src/renderers/common/extras/PMREMGenerator.js': `
export default class PMREMGenerator {
  constructor() { throw new Error('Othello 3D: PMREMGenerator (environment maps) is not in this Three.js bundle'); }
}`,
  'src/renderers/webgpu/utils/WebGPUTimestampQueryPool.js': `
export default class WebGPUTimestampQueryPool {
  constructor() { throw new Error('Othello 3D: timestamp queries are not in this Three.js bundle'); }
}`,
  'src/renderers/webgl-fallback/utils/WebGLTimestampQueryPool.js': `
export default class WebGLTimestampQueryPool {
  constructor() { throw new Error('Othello 3D: timestamp queries are not in this Three.js bundle'); }
}`,
};

const [backend, outfile, shared = ''] = process.argv.slice(2);
if (!['webgpu', 'webgl', 'addons'].includes(backend) || !outfile) {
  console.error('usage: node three-bundle.mjs webgpu|webgl|addons OUTFILE [NAMES,…] < entry.js');
  process.exit(2);
}
const addons = backend === 'addons';
const otherBackend = backend === 'webgpu' ? '/webgl-fallback/' : '/webgpu/';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const three = path.join(root, 'node_modules/three') + path.sep;
const stubbed = new Set();

const stubs = {
  name: 'othello-three-stubs',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]three[\\/]src[\\/].*\.js$/ }, (args) => {
      const relative = args.path.startsWith(three) ? args.path.slice(three.length).split(path.sep).join('/') : null;
      const contents = relative && STUBS[relative];
      if (!contents) return undefined;
      stubbed.add(relative);
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

// For the addons: `three` is the page's bundle, as `globalThis.THREE`.
const pageThree = {
  name: 'othello-page-three',
  setup(build) {
    build.onResolve({ filter: /^three$/ }, () => ({ path: 'page-three', namespace: 'othello' }));
    build.onLoad({ filter: /.*/, namespace: 'othello' }, () => ({
      contents: `export const { ${shared.split(',').filter(Boolean).join(', ')} } = globalThis.THREE;`,
      loader: 'js',
    }));
  },
};

const bundled = await esbuild.build({
  stdin: { contents: readFileSync(0, 'utf8'), sourcefile: 'three-entry.js', resolveDir: root, loader: 'js' },
  bundle: true,
  format: 'esm',
  minify: true,
  treeShaking: true,
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  // Addons import 'three': the same sources, one copy of Three.js.
  ...(addons ? {} : { alias: { three: './node_modules/three/src/Three.Core.js' } }),
  absWorkingDir: root,
  outfile,
  write: false,
  plugins: addons ? [pageThree] : [stubs],
});
const [output] = bundled.outputFiles;
const compressed = await minify(output.text, {
  module: true,
  ecma: 2022,
  compress: { passes: 2 },
  mangle: true,
  format: { comments: false },
});
writeFileSync(outfile, compressed.code);

// A stub that matched no module means Three moved or renamed it: the bundle
// would silently carry the real one again.
const missing = addons ? [] : Object.keys(STUBS).filter((p) => !p.includes(otherBackend) && !stubbed.has(p));
if (missing.length) {
  console.error(`three-bundle: no ${missing.join(', ')} in the ${backend} bundle (update STUBS in xtask/scripts/three-bundle.mjs)`);
  process.exit(1);
}
