// Runs the engine's shipped wasm module (site/pkg/engine.js + engine_bg.wasm,
// the files the browser's worker loads) in Node on the positions the native
// test wrote, and prints its results (see tests/identity.rs).
//
//   node identity.mjs <engine.js> <engine_bg.wasm> <input file> <output file>
//
// Input, one position a line: `<side> <64 comma-separated cells> <kind>`,
// kind `s` (search at depths 1..6) or `x<group>` (exact solve). Output, one
// line per input line: `square,value,nodes` per result, space-separated.
// Timings go to stdout as `time <kind> <milliseconds>`.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [glue, wasm, input, output] = process.argv.slice(2);
// The glue is an ES module with a .js name: give Node an .mjs copy.
const dir = mkdtempSync(join(tmpdir(), 'engine-wasm-'));
copyFileSync(glue, join(dir, 'engine.mjs'));
const engine = await import(pathToFileURL(join(dir, 'engine.mjs')).href);
engine.initSync({ module: readFileSync(wasm) });
rmSync(dir, { recursive: true, force: true });

const times = new Map();
const timed = (kind, f) => {
  const t = performance.now();
  const a = f();
  times.set(kind, (times.get(kind) ?? 0) + performance.now() - t);
  const out = `${a.square},${a.value},${a.nodes}`;
  a.free();
  return out;
};
const lines = [];
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const [side, cellText, kind] = line.split(' ');
  const cells = Int8Array.from(cellText.split(',').map(Number));
  const s = Number(side);
  if (kind === 's') {
    const out = [];
    for (let depth = 1; depth <= 6; depth++) {
      out.push(timed(`search${depth}`, () => engine.search(cells, s, depth)));
    }
    lines.push(out.join(' '));
  } else {
    lines.push(timed(`solve-${kind.slice(1)}`, () => engine.solve(cells, s)));
  }
}
writeFileSync(output, lines.join('\n') + '\n');
for (const [kind, ms] of times) console.log(`time ${kind} ${ms.toFixed(1)}`);
