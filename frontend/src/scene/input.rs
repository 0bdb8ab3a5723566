//! Input on the board: picking the square under the pointer by raycast, the
//! hover marker, clicks (a press and release that barely moved; a drag turns
//! the camera instead) and the orbit controls' redraws. The keyboard cursor is
//! driven by the page (`BoardScene::set_cursor`).

use super::board::{square_centre, DISC_HALF};
use super::State;
use crate::three::{self, *};
use leptos::prelude::Callable;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

impl State {
    /// The square under a point in client coordinates, by raycast onto the felt.
    pub(super) fn pick(&self, client_x: f64, client_y: f64) -> Option<u8> {
        if self.party.running.is_some() {
            return None;
        }
        let rect = self.canvas.get_bounding_client_rect();
        let x = (client_x - rect.left()) / rect.width() * 2.0 - 1.0;
        let y = -((client_y - rect.top()) / rect.height()) * 2.0 + 1.0;
        let raycaster = Raycaster::new();
        raycaster.set_from_camera(&Vector2::new(x, y), &self.camera);
        let hits = raycaster.intersect_object(&self.felt, false);
        let hit = hits.get(0);
        if hit.is_undefined() {
            return None;
        }
        let point: Vector3 = three::property(&hit, "point").unchecked_into();
        let col = (point.x() + 4.0).floor();
        let row = (point.z() + 4.0).floor();
        if (0.0..8.0).contains(&col) && (0.0..8.0).contains(&row) {
            Some((row as u8) * 8 + col as u8)
        } else {
            None
        }
    }

    /// Where a square's centre is on screen, in client coordinates.
    pub(super) fn square_to_screen(&self, index: usize) -> (f64, f64) {
        let (x, z) = square_centre(index);
        let v = Vector3::new(x, DISC_HALF, z).project(&self.camera);
        let rect = self.canvas.get_bounding_client_rect();
        (
            rect.left() + (v.x() + 1.0) / 2.0 * rect.width(),
            rect.top() + (1.0 - v.y()) / 2.0 * rect.height(),
        )
    }
}

/// The canvas's events the island listens to, and its listener for each.
pub(super) type CanvasListeners = Vec<(&'static str, Closure<dyn FnMut(JsValue)>)>;

/// Listens to the canvas's pointer (and, once they are there, the orbit
/// controls' changes); returns the canvas's listeners (removed when the
/// island is disposed: a renderer that replaces a lost one listens on the
/// same canvas) and the controls' listener.
pub(super) fn listen(state: &Rc<RefCell<State>>) -> (CanvasListeners, Closure<dyn FnMut(JsValue)>) {
    let canvas = state.borrow().canvas.clone();
    let weak = Rc::downgrade(state);
    let changed = Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| {
        if let Some(state) = weak.upgrade() {
            if let Ok(mut s) = state.try_borrow_mut() {
                s.dirty = true;
                s.wake();
            }
        }
    });
    let on_change: js_sys::Function = changed.as_ref().unchecked_ref::<js_sys::Function>().clone();
    let weak = Rc::downgrade(state);
    let orbit_on = on_change.clone();
    let down = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::PointerEvent = event.unchecked_into();
        if let Some(state) = weak.upgrade() {
            state.borrow_mut().pointer_down =
                Some((f64::from(event.client_x()), f64::from(event.client_y())));
            want_orbit(&state, &orbit_on, Some(event));
        }
    });
    let weak = Rc::downgrade(state);
    let up = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::MouseEvent = event.unchecked_into();
        let Some(state) = weak.upgrade() else { return };
        let (x, y) = (f64::from(event.client_x()), f64::from(event.client_y()));
        let picked = {
            let mut s = state.borrow_mut();
            s.held_press = None;
            let start = s.pointer_down.take();
            match start {
                Some((sx, sy)) if (sx - x) * (sx - x) + (sy - y) * (sy - y) < 36.0 => s.pick(x, y),
                _ => None,
            }
        };
        if let Some(square) = picked {
            let hooks = state.borrow().hooks;
            let _ = hooks.on_square.try_run(square);
        }
    });
    let weak = Rc::downgrade(state);
    let orbit_on = on_change.clone();
    let hover = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::MouseEvent = event.unchecked_into();
        let Some(state) = weak.upgrade() else { return };
        {
            let Ok(mut s) = state.try_borrow_mut() else {
                return;
            };
            let picked = s.pick(f64::from(event.client_x()), f64::from(event.client_y()));
            match picked {
                Some(square) => {
                    let (x, z) = square_centre(usize::from(square));
                    s.markers.hover.position().set(x, 0.011, z);
                    s.markers.hover.material().set_opacity(0.22);
                    s.markers.hover.set_visible(true);
                }
                None => {
                    let cursor = s.cursor;
                    s.set_cursor(cursor);
                }
            }
            s.dirty = true;
            s.wake();
        }
        want_orbit(&state, &orbit_on, None);
    });
    let weak = Rc::downgrade(state);
    let wheel = Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| {
        if let Some(state) = weak.upgrade() {
            want_orbit(&state, &on_change, None);
        }
    });
    let on_canvas = vec![
        ("pointerdown", down),
        ("pointerup", up),
        ("pointermove", hover),
        ("wheel", wheel),
    ];
    for (name, listener) in &on_canvas {
        let _ = canvas.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
    }
    (on_canvas, changed)
}

/// The orbit controls, from the first time a pointer is on the board (it
/// moves over it, presses it, or turns the wheel): their bundle is loaded
/// then, not with the page. A press that came before them and is still held
/// (a touch: no pointer moves over a touch screen first) is pressed again for
/// them, so that first drag turns the camera too. `on_change` redraws.
fn want_orbit(
    state: &Rc<RefCell<State>>,
    on_change: &js_sys::Function,
    press: Option<web_sys::PointerEvent>,
) {
    {
        let Ok(mut s) = state.try_borrow_mut() else {
            return;
        };
        if s.controls.is_some() || s.disposed {
            return;
        }
        if press.is_some() {
            s.held_press = press;
        }
        if s.orbit_loading {
            return;
        }
        s.orbit_loading = true;
    }
    let weak = Rc::downgrade(state);
    let on_change = on_change.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = three::load_addons().await;
        let Some(state) = weak.upgrade() else { return };
        let (canvas, held) = {
            let mut s = state.borrow_mut();
            s.orbit_loading = false;
            if s.disposed {
                return;
            }
            if let Err(error) = loaded {
                // The next touch of the board tries again.
                web_sys::console::warn_2(&"the orbit controls did not load:".into(), &error);
                return;
            }
            let controls = super::renderer::orbit(&s.camera, &s.canvas);
            controls.add_event_listener("change", &on_change);
            s.controls = Some(controls);
            (s.canvas.clone(), s.held_press.take())
        };
        if let Some(press) = held {
            three::press_again(&canvas, &press);
        }
    });
}
