//! The browser side of Othello 3D: the wasm entry point that hydrates the Leptos
//! app, and the board island that draws the game with Three.js from Rust.

mod scene;
mod three;

use wasm_bindgen::prelude::wasm_bindgen;

/// Called by the Leptos hydration script once the wasm module is loaded.
#[wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    app::hydrate(app::board::SceneFactory(scene::start), hydrated);
}

/// Runs once hydration has finished (after a lazy route's chunk, if any).
fn hydrated() {
    // A marker for tests and tools: the page is interactive from here on.
    let window = web_sys::window();
    if let Some(body) = window
        .as_ref()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute("data-hydrated", "true");
    }
    // For timings (tests/browser/perf.spec.ts): `performance.getEntriesByName`.
    if let Some(performance) = window.and_then(|w| w.performance()) {
        let _ = performance.mark("othello:hydrated");
    }
}
