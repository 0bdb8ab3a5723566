//! The 3D board island: builds the Three.js scene (felt, grid, frame, two-sided
//! discs, lights and shadows, an orbiting camera), animates flips, picks squares
//! by raycast, draws the keyboard cursor, plays the end-of-game celebration (the
//! board turns, discs fly, confetti falls), and publishes test hooks on
//! `window.othello3d`.
//!
//! The parts: [`renderer`] (WebGPU with the WebGL 2 fallback, camera, size),
//! [`board`] (discs, markers, drop and flip animations), [`celebration`],
//! [`input`] (picking, clicks, hover) and [`test_hooks`] (what the browser tests
//! read). This file holds the island's state, its handle for the page and the
//! frame loop.

mod board;
mod celebration;
mod input;
mod renderer;
mod test_hooks;

use crate::three::*;
use app::board::{ends_celebration, BoardScene, SceneHooks};
use app::protocol::BoardSnapshot;
use leptos::prelude::Callable;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::HtmlCanvasElement;

struct State {
    canvas: HtmlCanvasElement,
    renderer: WebGPURenderer,
    scene: Scene,
    camera: PerspectiveCamera,
    controls: Option<OrbitControls>,
    /// Everything that belongs to the board (frame, felt, grid, markers, discs):
    /// the celebration turns this group.
    root: Group,
    felt: Mesh,
    discs: Vec<Option<board::Disc>>,
    markers: board::Markers,
    disc_parts: board::DiscParts,
    /// The engine's suggested square (the Hint button).
    hint: Option<u8>,
    /// The hint's values written on the squares (meshes with their own
    /// canvas textures, freed when replaced).
    labels: Vec<board::Label>,
    /// The keyboard cursor's square.
    cursor: Option<u8>,
    hooks: SceneHooks,
    ready: bool,
    dirty: bool,
    frames: u64,
    drawn_version: u64,
    pending: Option<BoardSnapshot>,
    current: BoardSnapshot,
    size: (f64, f64),
    pointer_down: Option<(f64, f64)>,
    closures: Vec<Closure<dyn FnMut(JsValue)>>,
    disposed: bool,
    party: celebration::Party,
}

/// The handle the Leptos component keeps.
struct Island(Rc<RefCell<State>>);

impl BoardScene for Island {
    fn show(&self, snapshot: &BoardSnapshot) {
        let mut state = self.0.borrow_mut();
        if state.party.running.is_some() && ends_celebration(&state.current, snapshot) {
            state.finish_celebration();
        }
        if state.ready {
            state.apply(snapshot);
        } else {
            state.pending = Some(snapshot.clone());
        }
    }

    fn set_cursor(&self, square: Option<u8>) {
        self.0.borrow_mut().set_cursor(square);
    }

    fn set_hint(&self, square: Option<u8>) {
        self.0.borrow_mut().set_hint(square);
    }

    fn set_labels(&self, labels: &[(u8, String, bool)]) {
        self.0.borrow_mut().set_labels(labels);
    }

    fn celebrate(&self) -> bool {
        self.0.borrow_mut().celebrate()
    }

    fn skip_celebration(&self) {
        self.0.borrow_mut().finish_celebration();
    }

    fn dispose(&self) {
        let mut state = self.0.borrow_mut();
        state.disposed = true;
        state.renderer.set_animation_loop(&JsValue::NULL);
        if let Some(controls) = &state.controls {
            controls.dispose();
        }
        state.renderer.dispose();
    }
}

/// Builds the island on `canvas`; Three.js is loaded in the background.
pub fn start(
    canvas: HtmlCanvasElement,
    hooks: SceneHooks,
    initial: &BoardSnapshot,
) -> Box<dyn BoardScene> {
    let holder: Rc<RefCell<Option<Rc<RefCell<State>>>>> = Rc::new(RefCell::new(None));
    let pending = Rc::new(RefCell::new(Some(initial.clone())));
    let disposed = Rc::new(Cell::new(false));
    let pending_hint = Rc::new(Cell::new(None));
    let pending_labels: Rc<RefCell<Vec<(u8, String, bool)>>> = Rc::new(RefCell::new(Vec::new()));
    let island = LazyIsland {
        pending_labels: pending_labels.clone(),
        holder: holder.clone(),
        pending: pending.clone(),
        disposed: disposed.clone(),
        pending_hint: pending_hint.clone(),
    };
    spawn_local(async move {
        let built = renderer::build(canvas, hooks).await;
        // The page may have gone (e.g. the lobby, left for a table) while
        // Three.js loaded: then free what was built and tell nobody.
        if disposed.get() {
            if let Ok(state) = built {
                Island(Rc::new(RefCell::new(state))).dispose();
            }
            return;
        }
        match built {
            Ok(state) => {
                let backend = state.backend_name();
                let state = Rc::new(RefCell::new(state));
                if let Some(snapshot) = pending.borrow_mut().take() {
                    state.borrow_mut().pending = Some(snapshot);
                }
                state.borrow_mut().hint = pending_hint.get();
                let labels = std::mem::take(&mut *pending_labels.borrow_mut());
                if !labels.is_empty() {
                    state.borrow_mut().set_labels(&labels);
                }
                start_loop(&state);
                test_hooks::publish_hooks(&state);
                *holder.borrow_mut() = Some(state);
                let _ = hooks.on_backend.try_run(backend.to_string());
            }
            Err(error) => {
                web_sys::console::warn_2(&"3D board unavailable:".into(), &error);
                let _ = hooks.on_backend.try_run("2d".to_string());
            }
        }
    });
    Box::new(island)
}

/// The island before Three.js has loaded: keeps the latest snapshot.
struct LazyIsland {
    holder: Rc<RefCell<Option<Rc<RefCell<State>>>>>,
    pending: Rc<RefCell<Option<BoardSnapshot>>>,
    disposed: Rc<Cell<bool>>,
    pending_hint: Rc<Cell<Option<u8>>>,
    pending_labels: Rc<RefCell<Vec<(u8, String, bool)>>>,
}

impl BoardScene for LazyIsland {
    fn show(&self, snapshot: &BoardSnapshot) {
        match self.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).show(snapshot),
            None => *self.pending.borrow_mut() = Some(snapshot.clone()),
        }
    }

    fn set_cursor(&self, square: Option<u8>) {
        if let Some(state) = self.holder.borrow().as_ref() {
            Island(state.clone()).set_cursor(square);
        }
    }

    fn set_hint(&self, square: Option<u8>) {
        match self.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).set_hint(square),
            None => self.pending_hint.set(square),
        }
    }

    fn set_labels(&self, labels: &[(u8, String, bool)]) {
        match self.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).set_labels(labels),
            None => *self.pending_labels.borrow_mut() = labels.to_vec(),
        }
    }

    fn celebrate(&self) -> bool {
        match self.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).celebrate(),
            None => false,
        }
    }

    fn skip_celebration(&self) {
        if let Some(state) = self.holder.borrow().as_ref() {
            Island(state.clone()).skip_celebration();
        }
    }

    fn dispose(&self) {
        self.disposed.set(true);
        if let Some(state) = self.holder.borrow().as_ref() {
            Island(state.clone()).dispose();
        }
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl State {
    /// Draws a frame if anything changed; returns whether a celebration has
    /// just played to its end (the caller tells the page, outside the borrow).
    fn frame(&mut self, t: f64) -> bool {
        if self.disposed {
            return false;
        }
        if let Some(snapshot) = self.pending.take() {
            self.apply(&snapshot);
        }
        self.resize();
        let celebrating = self.party.running.is_some();
        let animating = self.animate(t);
        let ended = celebrating && self.party.running.is_none();
        if self.dirty || animating {
            self.renderer.render(&self.scene, &self.camera);
            self.frames += 1;
            if self.frames == 1 {
                if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
                    let _ = performance.mark("othello:first-frame");
                }
            }
            self.dirty = animating;
            if !animating {
                self.drawn_version = self.current.version;
            }
        }
        ended
    }
}

fn start_loop(state: &Rc<RefCell<State>>) {
    let for_loop = Rc::downgrade(state);
    let animation = Closure::<dyn FnMut(JsValue)>::new(move |time: JsValue| {
        if let Some(state) = for_loop.upgrade() {
            let t = time.as_f64().unwrap_or_else(now);
            let ended = match state.try_borrow_mut() {
                Ok(mut s) => s.frame(t),
                Err(_) => false,
            };
            if ended {
                let hooks = state.borrow().hooks;
                hooks.on_celebration_end.run(());
            }
        }
    });
    state
        .borrow()
        .renderer
        .set_animation_loop(animation.as_ref().unchecked_ref());

    let listeners = input::listen(state);
    let mut s = state.borrow_mut();
    s.closures.push(animation);
    s.closures.extend(listeners);
}
