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

use crate::three::{self, *};
use app::board::{ends_celebration, BoardScene, SceneHooks};
use app::protocol::BoardSnapshot;
use leptos::prelude::Callable;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::HtmlCanvasElement;

/// The sine, from the browser (`Math.sin`): Rust's own brings libm's argument
/// reduction (~6 KB of code) into the lobby's module for a few animation
/// curves.
fn sin(x: f64) -> f64 {
    js_sys::Math::sin(x)
}

struct State {
    canvas: HtmlCanvasElement,
    renderer: WebGPURenderer,
    scene: Scene,
    camera: PerspectiveCamera,
    /// The orbit controls, from the first touch of the board on
    /// ([`input::want_orbit`]): their code is a bundle of its own.
    controls: Option<OrbitControls>,
    /// The orbit controls' bundle is on its way.
    orbit_loading: bool,
    /// A press on the board that came before the orbit controls, still held:
    /// pressed again for them once they are there.
    held_press: Option<web_sys::PointerEvent>,
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
    /// Frames drawn.
    frames: u64,
    /// Turns of the frame loop (drawn or not): the loop sleeps while nothing
    /// changes ([`State::wake`]), so an idle board costs no frames.
    ticks: u64,
    drawn_version: u64,
    pending: Option<BoardSnapshot>,
    current: BoardSnapshot,
    size: (f64, f64),
    pointer_down: Option<(f64, f64)>,
    closures: Vec<Closure<dyn FnMut(JsValue)>>,
    canvas_listeners: input::CanvasListeners,
    disposed: bool,
    party: celebration::Party,
    /// Renderers this island replaced before this one (a lost GPU device).
    restarts: u32,
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
        state.wake();
    }

    fn set_cursor(&self, square: Option<u8>) {
        let mut state = self.0.borrow_mut();
        state.set_cursor(square);
        state.wake();
    }

    fn set_hint(&self, square: Option<u8>) {
        let mut state = self.0.borrow_mut();
        state.set_hint(square);
        state.wake();
    }

    fn set_labels(&self, labels: &[(u8, String, bool)]) {
        let mut state = self.0.borrow_mut();
        state.set_labels(labels);
        state.wake();
    }

    fn celebrate(&self) -> bool {
        let mut state = self.0.borrow_mut();
        let started = state.celebrate();
        state.wake();
        started
    }

    fn skip_celebration(&self) {
        let mut state = self.0.borrow_mut();
        state.finish_celebration();
        state.wake();
    }

    fn dispose(&self) {
        let mut state = self.0.borrow_mut();
        state.disposed = true;
        state.renderer.set_animation_loop(&JsValue::NULL);
        if let Some(controls) = &state.controls {
            controls.dispose();
        }
        for (name, listener) in std::mem::take(&mut state.canvas_listeners) {
            let _ = state
                .canvas
                .remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
        // Three.js frees asynchronously; on a lost device that may fail,
        // and there is nothing left to free then.
        three::dispose_quietly(&state.renderer);
    }
}

/// Builds the island on `canvas`; Three.js is loaded in the background.
pub fn start(
    canvas: HtmlCanvasElement,
    hooks: SceneHooks,
    initial: &BoardSnapshot,
) -> Box<dyn BoardScene> {
    let shared = Rc::new_cyclic(|weak: &Weak<Shared>| Shared {
        on_lost: {
            let weak = weak.clone();
            Closure::new(move |info: JsValue| device_lost(&weak, &info))
        },
        canvas,
        hooks,
        holder: RefCell::new(None),
        pending: RefCell::new(Some(initial.clone())),
        disposed: Cell::new(false),
        pending_hint: Cell::new(None),
        pending_labels: RefCell::new(Vec::new()),
        restarts: Cell::new(0),
    });
    launch(shared.clone());
    Box::new(LazyIsland(shared))
}

/// How many times one island replaces a renderer whose GPU device was lost
/// before it settles for the 2D board.
const MAX_RESTARTS: u32 = 5;

/// What the island keeps whatever renderer it has: the page's latest snapshot,
/// hint and labels while no renderer runs (Three.js still loading, or a lost
/// GPU device being replaced), and the running one.
struct Shared {
    canvas: HtmlCanvasElement,
    hooks: SceneHooks,
    holder: RefCell<Option<Rc<RefCell<State>>>>,
    pending: RefCell<Option<BoardSnapshot>>,
    disposed: Cell<bool>,
    pending_hint: Cell<Option<u8>>,
    pending_labels: RefCell<Vec<(u8, String, bool)>>,
    /// Renderers replaced after a lost device.
    restarts: Cell<u32>,
    /// Each renderer's `onDeviceLost` (one for the island's life, so that
    /// replacing a renderer never drops the callback that is running).
    on_lost: Closure<dyn FnMut(JsValue)>,
}

/// Builds a renderer and scene on the island's canvas (in the background) and
/// runs it, or tells the page to show the 2D board.
fn launch(shared: Rc<Shared>) {
    spawn_local(async move {
        let built = renderer::build(shared.canvas.clone(), shared.hooks).await;
        // The page may have gone (e.g. the lobby, left for a table) while
        // Three.js loaded: then free what was built and tell nobody.
        if shared.disposed.get() {
            if let Ok(state) = built {
                Island(Rc::new(RefCell::new(state))).dispose();
            }
            return;
        }
        match built {
            Ok(mut state) => {
                state.restarts = shared.restarts.get();
                let backend = state.backend_name();
                let state = Rc::new(RefCell::new(state));
                if let Some(snapshot) = shared.pending.borrow_mut().take() {
                    state.borrow_mut().pending = Some(snapshot);
                }
                state.borrow_mut().hint = shared.pending_hint.get();
                let labels = std::mem::take(&mut *shared.pending_labels.borrow_mut());
                if !labels.is_empty() {
                    state.borrow_mut().set_labels(&labels);
                }
                set_property(
                    &state.borrow().renderer,
                    "onDeviceLost",
                    shared.on_lost.as_ref(),
                );
                start_loop(&state);
                test_hooks::publish_hooks(&state);
                *shared.holder.borrow_mut() = Some(state);
                let _ = shared.hooks.on_backend.try_run(backend.to_string());
            }
            Err(error) => {
                web_sys::console::warn_2(&"3D board unavailable:".into(), &error);
                test_hooks::publish_failure(&error);
                let _ = shared.hooks.on_backend.try_run("2d".to_string());
            }
        }
    });
}

/// When the GPU device is lost (the browser's GPU process crashed or was
/// reset), replaces the renderer instead of leaving a frozen board: the
/// position, hint and labels carry over to a new renderer on the same canvas.
/// On WebGL 2 the browser first restores the context (Three.js asked it to),
/// on WebGPU a new device is asked for at once. Where the browser no longer
/// gives a 3D context, or after [`MAX_RESTARTS`] losses, the 2D board shows.
fn device_lost(shared: &Weak<Shared>, info: &JsValue) {
    let Some(shared) = shared.upgrade() else {
        return;
    };
    let message = three::property(info, "message");
    web_sys::console::warn_2(&"3D board: the GPU device was lost:".into(), &message);
    let webgl = three::property(info, "api").as_string().as_deref() == Some("WebGL");
    replace_renderer(&shared, webgl);
}

fn replace_renderer(shared: &Rc<Shared>, webgl: bool) {
    if shared.disposed.get() {
        return;
    }
    let Some(state) = shared.holder.borrow_mut().take() else {
        return;
    };
    if let Ok(s) = state.try_borrow() {
        let snapshot = s.pending.clone().unwrap_or_else(|| s.current.clone());
        *shared.pending.borrow_mut() = Some(snapshot);
        shared.pending_hint.set(s.hint);
        *shared.pending_labels.borrow_mut() = s.labelled().cloned().collect();
    }
    Island(state).dispose();
    let restarts = shared.restarts.get() + 1;
    shared.restarts.set(restarts);
    if restarts > MAX_RESTARTS {
        let _ = shared.hooks.on_backend.try_run("2d".to_string());
        return;
    }
    // WebGPU: a new device at once. WebGL 2: the browser gives the context
    // back with `webglcontextrestored`, or never where it has turned 3D off.
    let shared = shared.clone();
    spawn_local(async move {
        let restored =
            wasm_bindgen_futures::JsFuture::from(three::context_back(&shared.canvas, webgl)).await;
        if restored.is_ok_and(|back| back.is_truthy()) {
            launch(shared);
        } else if !shared.disposed.get() {
            let _ = shared.hooks.on_backend.try_run("2d".to_string());
        }
    });
}

/// The island's handle for the page: forwards to the running renderer, or
/// keeps what the page sends while there is none.
struct LazyIsland(Rc<Shared>);

impl BoardScene for LazyIsland {
    fn show(&self, snapshot: &BoardSnapshot) {
        match self.0.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).show(snapshot),
            None => *self.0.pending.borrow_mut() = Some(snapshot.clone()),
        }
    }

    fn set_cursor(&self, square: Option<u8>) {
        if let Some(state) = self.0.holder.borrow().as_ref() {
            Island(state.clone()).set_cursor(square);
        }
    }

    fn set_hint(&self, square: Option<u8>) {
        match self.0.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).set_hint(square),
            None => self.0.pending_hint.set(square),
        }
    }

    fn set_labels(&self, labels: &[(u8, String, bool)]) {
        match self.0.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).set_labels(labels),
            None => *self.0.pending_labels.borrow_mut() = labels.to_vec(),
        }
    }

    fn celebrate(&self) -> bool {
        match self.0.holder.borrow().as_ref() {
            Some(state) => Island(state.clone()).celebrate(),
            None => false,
        }
    }

    fn skip_celebration(&self) {
        if let Some(state) = self.0.holder.borrow().as_ref() {
            Island(state.clone()).skip_celebration();
        }
    }

    fn dispose(&self) {
        self.0.disposed.set(true);
        if let Some(state) = self.0.holder.borrow_mut().take() {
            Island(state).dispose();
        }
    }
}

/// The island's clock: the page's time in ms, times [`pace`]. Every
/// animation (drops, flips, the celebration) reads its time from here or from
/// the frame loop's time scaled the same way.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
        * pace()
}

thread_local! {
    static PACE: Cell<Option<f64>> = const { Cell::new(None) };
}

/// How fast the island's animations run: 1, their real speed, unless the
/// page was opened with `window.othelloAnimationPace` already set (a test
/// hook: the browser suite sets it with an init script where whole games are
/// played by clicks and the flips are not what is tested; the board spec
/// tests them at 1). Read once per page; 1–50.
fn pace() -> f64 {
    PACE.with(|pace| {
        pace.get().unwrap_or_else(|| {
            let asked = web_sys::window()
                .and_then(|w| js_sys::Reflect::get(&w, &"othelloAnimationPace".into()).ok())
                .and_then(|v| v.as_f64())
                .filter(|v| v.is_finite())
                .map_or(1.0, |v| v.clamp(1.0, 50.0));
            pace.set(Some(asked));
            asked
        })
    })
}

impl State {
    /// Starts the frame loop if it sleeps: called wherever the board changes
    /// (the page's calls, the pointer, the camera's controls). Not inlined:
    /// one copy for its eight callers (the lobby's bytes).
    #[inline(never)]
    pub(super) fn wake(&self) {
        if !self.disposed {
            three::wake(&self.renderer);
        }
    }

    /// Draws a frame if anything changed, else puts the loop to sleep until
    /// [`State::wake`]; returns whether a celebration has just played to its
    /// end (the caller tells the page, outside the borrow).
    fn frame(&mut self, t: f64) -> bool {
        if self.disposed {
            return false;
        }
        self.ticks += 1;
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
        } else {
            three::sleep(&self.renderer);
        }
        ended
    }
}

fn start_loop(state: &Rc<RefCell<State>>) {
    let for_loop = Rc::downgrade(state);
    let animation = Closure::<dyn FnMut(JsValue)>::new(move |time: JsValue| {
        if let Some(state) = for_loop.upgrade() {
            let t = time.as_f64().map_or_else(now, |t| t * pace());
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

    let (on_canvas, on_controls) = input::listen(state);
    let mut s = state.borrow_mut();
    s.closures.push(animation);
    s.closures.push(on_controls);
    s.canvas_listeners = on_canvas;
}
