//! Test hooks: `window.othello3d`, what the Playwright specs (and the curious)
//! can ask the island: the backend, a status (frames drawn, version shown,
//! counts, legal squares, animation and celebration state, whether the board
//! is at rest, cursor, hint, the labels on the squares), squares' positions on screen, pixel counts read
//! back from a render target, and a longer celebration for tests that act
//! during one.

use super::State;
use crate::three::{self, *};
use js_sys::{Array, Object, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Publishes `window.othello3d`: what tests (and the curious) can ask the island.
pub(super) fn publish_hooks(state: &Rc<RefCell<State>>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = Object::new();
    let backend = state.borrow().backend_name();
    set_property(&api, "backend", &backend.into());

    let weak = Rc::downgrade(state);
    let status = Closure::<dyn Fn() -> JsValue>::new(move || {
        let Some(state) = weak.upgrade() else {
            return JsValue::NULL;
        };
        let Ok(s) = state.try_borrow() else {
            return JsValue::NULL;
        };
        let (black, white) = s.current.counts();
        three::params(&[
            ("frames", (s.frames as f64).into()),
            ("ticks", (s.ticks as f64).into()),
            ("restarts", s.restarts.into()),
            ("pace", super::pace().into()),
            ("version", (s.current.version as f64).into()),
            ("drawnVersion", (s.drawn_version as f64).into()),
            ("black", (black as f64).into()),
            ("white", (white as f64).into()),
            (
                "legal",
                s.current
                    .legal
                    .iter()
                    .map(|&q| JsValue::from(q))
                    .collect::<Array>()
                    .into(),
            ),
            ("animating", s.dirty.into()),
            ("celebrating", s.party.running.is_some().into()),
            ("celebrations", s.party.count.into()),
            ("atRest", s.at_rest().into()),
            // The orbit controls are there (from the first touch of the board).
            ("orbit", s.controls.is_some().into()),
            ("cursor", s.cursor.map_or(JsValue::NULL, JsValue::from)),
            ("hint", s.shown_hint().map_or(JsValue::NULL, JsValue::from)),
            ("labels", (s.labelled().count() as u32).into()),
            // Each label as `[square, text, best]`.
            (
                "labelTexts",
                s.labelled()
                    .map(|(square, text, best)| {
                        Array::of3(&(*square).into(), &text.into(), &(*best).into())
                    })
                    .collect::<Array>()
                    .into(),
            ),
        ])
        .into()
    });
    let weak = Rc::downgrade(state);
    let to_screen = Closure::<dyn Fn(u32) -> JsValue>::new(move |index: u32| {
        let Some(state) = weak.upgrade() else {
            return JsValue::NULL;
        };
        let Ok(s) = state.try_borrow() else {
            return JsValue::NULL;
        };
        if index >= 64 {
            return JsValue::NULL;
        }
        let (x, y) = s.square_to_screen(index as usize);
        Array::of2(&x.into(), &y.into()).into()
    });
    let weak = Rc::downgrade(state);
    let pixels = Closure::<dyn Fn() -> js_sys::Promise>::new(move || {
        let weak = weak.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let state = weak
                .upgrade()
                .ok_or_else(|| JsValue::from_str("island gone"))?;
            pixel_stats(&state).await
        })
    });
    // Tests that must act during a celebration (Skip) make it last longer
    // than a slow software renderer could need.
    let weak = Rc::downgrade(state);
    let set_celebration_ms = Closure::<dyn Fn(f64)>::new(move |ms: f64| {
        if let Some(state) = weak.upgrade() {
            state.borrow_mut().party.ms = ms.max(100.0);
        }
    });
    set_property(&api, "setCelebrationMs", set_celebration_ms.as_ref());
    set_celebration_ms.forget();
    set_property(&api, "status", status.as_ref());
    set_property(&api, "squareToScreen", to_screen.as_ref());
    set_property(&api, "pixelStats", pixels.as_ref());
    let _ = Reflect::set(&window, &"othello3d".into(), &api);
    status.forget();
    to_screen.forget();
    pixels.forget();
}

/// Publishes why the 3D board could not start (`window.othello3dError`), so
/// that a test waiting for a frame can say why none came.
pub(super) fn publish_failure(error: &JsValue) {
    if let Some(window) = web_sys::window() {
        let _ = Reflect::set(&window, &"othello3dError".into(), error);
    }
}

/// Renders the scene into a render target, reads the pixels back and counts
/// felt, black-disc and white-disc pixels. Proves the GPU really drew the board.
async fn pixel_stats(state: &Rc<RefCell<State>>) -> Result<JsValue, JsValue> {
    const W: u32 = 256;
    const H: u32 = 256;
    let (target, promise) = {
        let s = state.borrow();
        let target = RenderTarget::new(W, H);
        s.camera.set_aspect(1.0);
        s.camera.update_projection_matrix();
        s.renderer.set_render_target(&target);
        s.renderer.render(&s.scene, &s.camera);
        // Three.js tests `=== null`: pass null, never undefined.
        s.renderer.set_render_target(&JsValue::NULL);
        let (w, h) = s.size;
        s.camera.set_aspect(w / h.max(1.0));
        s.camera.update_projection_matrix();
        let promise = s
            .renderer
            .read_render_target_pixels_async(&target, 0, 0, W, H);
        (target, promise)
    };
    state.borrow_mut().dirty = true;
    state.borrow().wake();
    let data = JsFuture::from(promise).await?;
    target.dispose();
    let bytes = js_sys::Uint8Array::new(&data).to_vec();
    let (mut felt, mut black, mut white, mut drawn) = (0u32, 0u32, 0u32, 0u32);
    for px in bytes.chunks_exact(4) {
        let (r, g, b, a) = (px[0] as u32, px[1] as u32, px[2] as u32, px[3] as u32);
        if a == 0 {
            continue;
        }
        drawn += 1;
        let max = r.max(g).max(b);
        let min = r.min(g).min(b);
        if g * 10 > r * 14 && g * 10 > b * 13 && g > 20 {
            felt += 1;
        } else if max < 10 && g <= r + 3 {
            black += 1;
        } else if min > 150 && max - min < 40 {
            white += 1;
        }
    }
    Ok(three::params(&[
        ("width", W.into()),
        ("height", H.into()),
        ("drawn", drawn.into()),
        ("felt", felt.into()),
        ("black", black.into()),
        ("white", white.into()),
    ])
    .into())
}
