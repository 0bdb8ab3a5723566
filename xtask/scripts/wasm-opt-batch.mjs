// `wasm-opt -Os --strip-debug --strip-producers` over many files in one
// process: binaryen.js (npm `binaryen`, the same build as its `wasm-opt`
// command) is loaded once, instead of once per file. The site has ~200 lazy
// chunks, most under 1 KiB: started one command each, loading binaryen took
// most of the step's time (docs/BENCHMARKS.md, "The site's wasm-opt step").
// Usage: node wasm-opt-batch.mjs FILE... (each optimised in place).
import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';

const F = binaryen.Features;
// The features the wasm-opt command line enabled (`--enable-bulk-memory`
// turns on bulk-memory-opt too, `--enable-reference-types`
// call-indirect-overlong; the output is byte-identical to the command's).
const features =
  F.MVP |
  F.BulkMemory |
  F.BulkMemoryOpt |
  F.NontrappingFPToInt |
  F.SignExt |
  F.MutableGlobals |
  F.ReferenceTypes |
  F.CallIndirectOverlong |
  F.Multivalue;

binaryen.setOptimizeLevel(2);
// Shrink level 1 (`-Os`), not 2 (`-Oz`): on the lobby's main module -Os
// writes more bytes (870,942 against 821,348) that brotli packs smaller
// (240,650 against 242,422), in less time (12.1 against 14.2 s;
// docs/BENCHMARKS.md). What goes over the wire is the brotli.
binaryen.setShrinkLevel(1);
binaryen.setDebugInfo(false);
// The command line writes optimised Stack IR at -O2 and above; the library's
// defaults do not.
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);
for (const file of process.argv.slice(2)) {
  const module = binaryen.readBinary(readFileSync(file));
  module.setFeatures(features);
  module.optimize();
  module.runPasses(['strip-debug', 'strip-producers']);
  writeFileSync(file, module.emitBinary());
  module.dispose();
}
