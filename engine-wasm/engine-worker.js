// The engine's Web Worker (served as /pkg/engine-worker.js, a module worker).
// It loads the engine's wasm module (/pkg/engine.js + /pkg/engine_bg.wasm,
// built from the engine-wasm crate) on its first message, and answers one
// request at a time:
//
//   request  {id, op: 'search', cells, side, depth}
//            {id, op: 'solve',  cells, side}
//            {id, op: 'hint',   cells, side, depth}   exact in the last 20 empties
//            {id, op: 'hint_all', cells, side, depth, max_nodes, weights}
//                     every move in discs; weights: the URL of eval.bin, fetched once
//            {id, op: 'play',   cells, side, square}  square -1: describe only
//   reply    {id, ok: true, result, ms}   ms: time spent in the engine
//            {id, ok: false, error}
//
// cells: 64 numbers (a1 = 0 … h8 = 63; 0 empty, 1 black, -1 white); side: 1
// or -1. A search result is {square (-1: none), value, nodes, depth, exact};
// a hint_all result is {moves: [{square, value, exact}] best first, depth};
// a play result is {cells, flipped, to_move (0: over), passed, legal, black,
// white}. Cancelling is terminating the worker (the page starts a fresh one).
import init, * as engine from './engine.js';

// The glue has no default path: the module sits next to this script.
const ready = init({ module_or_path: new URL('./engine_bg.wasm', import.meta.url) });

function analysis(a) {
  const out = { square: a.square, value: a.value, nodes: a.nodes, depth: a.depth, exact: a.exact };
  a.free();
  return out;
}

function moveValues(m) {
  const squares = Array.from(m.squares);
  const values = Array.from(m.values);
  const exact = Array.from(m.exact);
  const out = {
    moves: squares.map((square, i) => ({ square, value: values[i], exact: exact[i] === 1 })),
    depth: m.depth,
  };
  m.free();
  return out;
}

function step(s) {
  const out = {
    cells: Array.from(s.cells),
    flipped: Array.from(s.flipped),
    to_move: s.to_move,
    passed: s.passed,
    legal: Array.from(s.legal),
    black: s.black,
    white: s.white,
  };
  s.free();
  return out;
}

// The trained weights: fetched from the URL the page names, the first time a
// hint scores every move.
let weights = null;
async function ensureWeights(url) {
  if (engine.weights_loaded()) return;
  if (typeof url !== 'string' || !url.startsWith('/pkg/')) throw new Error('no weights URL');
  if (!weights) {
    weights = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`weights: HTTP ${response.status}`);
      engine.load_weights(new Uint8Array(await response.arrayBuffer()));
    });
    weights.catch(() => { weights = null; });
  }
  await weights;
}

function run(request) {
  const cells = Int8Array.from(request.cells ?? []);
  const side = request.side | 0;
  switch (request.op) {
    case 'search':
      return analysis(engine.search(cells, side, request.depth >>> 0));
    case 'solve':
      return analysis(engine.solve(cells, side));
    case 'hint':
      return analysis(engine.hint(cells, side, request.depth >>> 0));
    case 'hint_all':
      return moveValues(engine.hint_all(cells, side, request.depth >>> 0, Number(request.max_nodes) || 1));
    case 'play':
      return step(engine.play(cells, side, request.square | 0));
    default:
      throw new Error(`unknown request ${JSON.stringify(request.op)}`);
  }
}

self.onmessage = async (event) => {
  const request = event.data ?? {};
  try {
    await ready;
    const started = performance.now();
    if (request.op === 'hint_all') await ensureWeights(request.weights);
    const result = run(request);
    self.postMessage({ id: request.id, ok: true, result, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id: request.id, ok: false, error: String(error?.message ?? error) });
  }
};
