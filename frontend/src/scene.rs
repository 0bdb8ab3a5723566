//! The 3D board island: builds the Three.js scene (felt, grid, frame, two-sided
//! discs, lights and shadows, an orbiting camera), animates flips, picks squares
//! by raycast, draws the keyboard cursor, plays the end-of-game celebration (the
//! board turns, discs fly, confetti falls), and publishes test hooks on
//! `window.othello3d` (backend, frame count, square positions on screen, pixel
//! counts read back from a render target).

use crate::three::{self, *};
use app::board::{ends_celebration, BoardScene, SceneHooks};
use app::protocol::BoardSnapshot;
use js_sys::{Array, Object, Reflect};
use leptos::prelude::Callable;
use std::cell::{Cell, RefCell};
use std::f64::consts::PI;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlCanvasElement;

const FELT: u32 = 0x1e7b4f;
const GRID: u32 = 0x1d5c3c;
const FRAME: u32 = 0x6b4226;
const DISC_BLACK: u32 = 0x141414;
const DISC_WHITE: u32 = 0xf4f4f0;
const DISC_RADIUS: f64 = 0.42;
const DISC_HALF: f64 = 0.05;
const FLIP_MS: f64 = 420.0;
const STAGGER_MS: f64 = 70.0;
const CELEBRATION_MS: f64 = 6000.0;
const CONFETTI: usize = 120;
const CONFETTI_COLOURS: [u32; 6] = [0xff3b30, 0xffcc00, 0x34c759, 0x0a84ff, 0xaf52de, 0xff9f0a];
/// Where confetti comes to rest: just above the discs' tops.
const CONFETTI_REST: f64 = 2.0 * DISC_HALF + 0.006;

/// A disc on one square: a group of a black and a white half; rotation about x
/// by π shows the white face.
struct Disc {
    group: Group,
    /// Colour shown when the animation ends (+1 black, −1 white).
    target: i8,
    /// Start time (ms) and kind of the running animation.
    animation: Option<(f64, Animation)>,
}

#[derive(Clone, Copy)]
enum Animation {
    Drop,
    Flip { delay: f64 },
}

/// One piece of confetti: falls from `top` after `delay`, tumbling, and lies
/// flat once it reaches the board.
struct Confetto {
    mesh: Mesh,
    x: f64,
    z: f64,
    top: f64,
    delay: f64,
    speed: f64,
    spin: (f64, f64, f64),
    sway: f64,
    phase: f64,
}

/// The running end-of-game celebration.
struct Celebration {
    start: f64,
    confetti: Vec<Confetto>,
}

/// Geometry and materials shared by all confetti, made on first use.
struct ConfettiParts {
    geometry: BufferGeometry,
    materials: Vec<Material>,
}

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
    discs: Vec<Option<Disc>>,
    legal_markers: Vec<Mesh>,
    last_marker: Mesh,
    hover_marker: Mesh,
    /// The engine's suggested square (the Hint button), a blue ring.
    hint_marker: Mesh,
    hint: Option<u8>,
    hooks: SceneHooks,
    ready: bool,
    dirty: bool,
    frames: u64,
    drawn_version: u64,
    pending: Option<BoardSnapshot>,
    current: BoardSnapshot,
    size: (f64, f64),
    pointer_down: Option<(f64, f64)>,
    disc_top: Geometry2,
    closures: Vec<Closure<dyn FnMut(JsValue)>>,
    disposed: bool,
    celebration: Option<Celebration>,
    celebrations: u32,
    confetti_parts: Option<ConfettiParts>,
    /// The keyboard cursor's square.
    cursor: Option<u8>,
    /// How long a celebration lasts; tests may lengthen it, which holds the
    /// last frame of the motion (see `setCelebrationMs`).
    celebration_ms: f64,
}

/// Shared geometries and materials for discs.
struct Geometry2 {
    half: BufferGeometry,
    black: Material,
    white: Material,
}

/// The handle the Leptos component keeps.
struct Island(Rc<RefCell<State>>);

impl BoardScene for Island {
    fn show(&self, snapshot: &BoardSnapshot) {
        let mut state = self.0.borrow_mut();
        if state.celebration.is_some() && ends_celebration(&state.current, snapshot) {
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
    let island = LazyIsland {
        holder: holder.clone(),
        pending: pending.clone(),
        disposed: disposed.clone(),
        pending_hint: pending_hint.clone(),
    };
    spawn_local(async move {
        let built = build(canvas, hooks).await;
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
                start_loop(&state);
                publish_hooks(&state);
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

fn requested_backend() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("renderer="))
        .map(str::to_string)
}

async fn build(canvas: HtmlCanvasElement, hooks: SceneHooks) -> Result<State, JsValue> {
    let requested = requested_backend();
    if requested.as_deref() == Some("2d") || (!three::has_webgpu() && !three::has_webgl2()) {
        return Err("neither WebGPU nor WebGL 2 is available".into());
    }
    three::load_three().await?;
    let force_webgl = requested.as_deref() == Some("webgl2") || !three::has_webgpu();
    let renderer = WebGPURenderer::new(&params(&[
        ("canvas", canvas.clone().into()),
        ("antialias", true.into()),
        ("alpha", true.into()),
        ("forceWebGL", force_webgl.into()),
    ]));
    JsFuture::from(renderer.init()).await?;
    set_property(&renderer.shadow_map(), "enabled", &true.into());
    renderer.set_clear_color(0x000000, 0.0);
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .min(2.0);
    renderer.set_pixel_ratio(ratio);

    let scene = Scene::new();
    let root = Group::new();
    scene.add(&root);
    let camera = PerspectiveCamera::new(40.0, 1.0, 0.1, 100.0);
    camera.position().set(0.0, 12.5, 8.5);
    camera.look_at(0.0, 0.0, 0.0);

    let hemisphere = HemisphereLight::new(0xffffff, 0x8899aa, 1.6);
    scene.add(&hemisphere);
    let sun = DirectionalLight::new(0xffffff, 2.2);
    sun.position().set(-4.0, 12.0, 6.0);
    sun.set_cast_shadow(true);
    let shadow = sun.shadow();
    let shadow_camera = three::property(&shadow, "camera");
    for (key, value) in [
        ("left", -6.0),
        ("right", 6.0),
        ("top", 6.0),
        ("bottom", -6.0),
    ] {
        set_property(&shadow_camera, key, &value.into());
    }
    let map_size = three::property(&shadow, "mapSize");
    set_property(&map_size, "x", &1024.into());
    set_property(&map_size, "y", &1024.into());
    scene.add(&sun);

    let standard = |color: u32, roughness: f64| -> Material {
        MeshStandardMaterial::new(&params(&[
            ("color", color.into()),
            ("roughness", roughness.into()),
            ("metalness", 0.0.into()),
        ]))
        .unchecked_into()
    };

    // The frame: a wooden slab under and around the felt.
    let frame = Mesh::new(&BoxGeometry::new(9.0, 0.4, 9.0), &standard(FRAME, 0.7));
    frame.position().set(0.0, -0.21, 0.0);
    frame.set_receive_shadow(true);
    root.add(&frame);

    let felt_geometry: BufferGeometry = PlaneGeometry::new(8.0, 8.0).unchecked_into();
    felt_geometry.rotate_x(-PI / 2.0);
    let felt = Mesh::new(&felt_geometry, &standard(FELT, 0.95));
    felt.set_receive_shadow(true);
    root.add(&felt);

    let line_material = standard(GRID, 1.0);
    for i in 0..=8 {
        let offset = f64::from(i) - 4.0;
        let along_x = Mesh::new(&BoxGeometry::new(8.04, 0.01, 0.04), &line_material);
        along_x.position().set(0.0, 0.004, offset);
        root.add(&along_x);
        let along_z = Mesh::new(&BoxGeometry::new(0.04, 0.01, 8.04), &line_material);
        along_z.position().set(offset, 0.004, 0.0);
        root.add(&along_z);
    }
    // The four star points.
    for (x, z) in [(-2.0, -2.0), (2.0, -2.0), (-2.0, 2.0), (2.0, 2.0)] {
        let dot = Mesh::new(
            &CylinderGeometry::new(0.07, 0.07, 0.012, 16),
            &line_material,
        );
        dot.position().set(x, 0.005, z);
        root.add(&dot);
    }

    let marker = |color: u32, opacity: f64, inner: f64, outer: f64| -> Mesh {
        let geometry: BufferGeometry = RingGeometry::new(inner, outer, 32).unchecked_into();
        geometry.rotate_x(-PI / 2.0);
        let material = MeshBasicMaterial::new(&params(&[
            ("color", color.into()),
            ("transparent", true.into()),
            ("opacity", opacity.into()),
            ("depthWrite", false.into()),
        ]));
        let mesh = Mesh::new(&geometry, &material.unchecked_into());
        mesh.set_visible(false);
        mesh
    };
    let legal_markers: Vec<Mesh> = (0..64)
        .map(|_| {
            let m = marker(0xffe066, 0.85, 0.0, 0.13);
            root.add(&m);
            m
        })
        .collect();
    let last_marker = marker(0xff3b30, 0.95, 0.44, 0.49);
    root.add(&last_marker);
    let hint_marker = marker(0x1e90ff, 0.95, 0.22, 0.38);
    root.add(&hint_marker);
    let hover_geometry: BufferGeometry = PlaneGeometry::new(0.96, 0.96).unchecked_into();
    hover_geometry.rotate_x(-PI / 2.0);
    let hover_marker = Mesh::new(
        &hover_geometry,
        &MeshBasicMaterial::new(&params(&[
            ("color", 0xffffff.into()),
            ("transparent", true.into()),
            ("opacity", 0.22.into()),
            ("depthWrite", false.into()),
        ]))
        .unchecked_into(),
    );
    hover_marker.set_visible(false);
    root.add(&hover_marker);

    let half: BufferGeometry =
        CylinderGeometry::new(DISC_RADIUS, DISC_RADIUS, DISC_HALF, 40).unchecked_into();
    let disc_top = Geometry2 {
        half,
        black: standard(DISC_BLACK, 0.45),
        white: standard(DISC_WHITE, 0.45),
    };

    let controls = OrbitControls::new(&camera, &canvas);
    for (key, value) in [
        ("enablePan", JsValue::FALSE),
        ("enableDamping", JsValue::FALSE),
        ("minDistance", 9.0.into()),
        ("maxDistance", 24.0.into()),
        ("maxPolarAngle", (PI * 0.42).into()),
    ] {
        set_property(&controls, key, &value);
    }

    Ok(State {
        canvas,
        renderer,
        scene,
        camera,
        controls: Some(controls),
        root,
        felt,
        discs: (0..64).map(|_| None).collect(),
        legal_markers,
        last_marker,
        hover_marker,
        hint_marker,
        hint: None,
        hooks,
        ready: true,
        dirty: true,
        frames: 0,
        drawn_version: 0,
        pending: None,
        current: BoardSnapshot::empty(),
        size: (0.0, 0.0),
        pointer_down: None,
        disc_top,
        closures: Vec::new(),
        disposed: false,
        celebration: None,
        celebrations: 0,
        confetti_parts: None,
        cursor: None,
        celebration_ms: CELEBRATION_MS,
    })
}

fn square_centre(index: usize) -> (f64, f64) {
    let col = (index % 8) as f64;
    let row = (index / 8) as f64;
    (col - 3.5, row - 3.5)
}

/// The disc's rotation about x that shows `colour` on top.
fn rest_angle(colour: i8) -> f64 {
    if colour == 1 {
        0.0
    } else {
        PI
    }
}

/// Puts a disc flat on its square with its colour up.
fn rest_disc(disc: &Disc, index: usize) {
    let (x, z) = square_centre(index);
    disc.group.position().set(x, DISC_HALF, z);
    disc.group.rotation().set(rest_angle(disc.target), 0.0, 0.0);
}

fn smoothstep(p: f64) -> f64 {
    let p = p.clamp(0.0, 1.0);
    p * p * (3.0 - 2.0 * p)
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl State {
    fn backend_name(&self) -> &'static str {
        if three::property(&self.renderer.backend(), "isWebGPUBackend").is_truthy() {
            "webgpu"
        } else {
            "webgl2"
        }
    }

    fn new_disc(&self, index: usize, colour: i8) -> Disc {
        let group = Group::new();
        let top = Mesh::new(&self.disc_top.half, &self.disc_top.black);
        top.position().set(0.0, DISC_HALF / 2.0, 0.0);
        top.set_cast_shadow(true);
        let bottom = Mesh::new(&self.disc_top.half, &self.disc_top.white);
        bottom.position().set(0.0, -DISC_HALF / 2.0, 0.0);
        bottom.set_cast_shadow(true);
        group.add(&top);
        group.add(&bottom);
        let (x, z) = square_centre(index);
        group.position().set(x, DISC_HALF, z);
        group.rotation().set_x(rest_angle(colour));
        self.root.add(&group);
        Disc {
            group: group.unchecked_into(),
            target: colour,
            animation: None,
        }
    }

    /// Shows a new server state: places, flips or removes discs as needed.
    fn apply(&mut self, snapshot: &BoardSnapshot) {
        let t = now();
        let placed = snapshot.last_move.map(usize::from);
        let animate = snapshot.version > self.current.version && self.current.version > 0
            || (self.current.version == 0 && snapshot.version == 1);
        for index in 0..64 {
            let colour = snapshot.cells.get(index).copied().unwrap_or(0);
            match (&mut self.discs[index], colour) {
                (slot @ Some(_), 0) => {
                    if let Some(disc) = slot.take() {
                        self.root.remove(&disc.group);
                    }
                }
                (None, 0) => {}
                (None, c) => {
                    let mut disc = self.new_disc(index, c);
                    if animate && placed == Some(index) {
                        disc.animation = Some((t, Animation::Drop));
                    }
                    self.discs[index] = Some(disc);
                }
                (Some(disc), c) if disc.target != c => {
                    disc.target = c;
                    let delay = placed.map_or(0.0, |p| {
                        let dr = (p / 8).abs_diff(index / 8);
                        let dc = (p % 8).abs_diff(index % 8);
                        dr.max(dc) as f64 * STAGGER_MS
                    });
                    if animate {
                        disc.animation = Some((t, Animation::Flip { delay }));
                    } else {
                        disc.group.rotation().set_x(rest_angle(c));
                    }
                }
                _ => {}
            }
        }
        for (index, marker) in self.legal_markers.iter().enumerate() {
            let legal = snapshot.legal.iter().any(|&s| usize::from(s) == index);
            if legal {
                let (x, z) = square_centre(index);
                marker.position().set(x, 0.012, z);
            }
            marker.set_visible(legal);
        }
        match snapshot.last_move {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                self.last_marker.position().set(x, 0.013, z);
                self.last_marker.set_visible(true);
            }
            None => self.last_marker.set_visible(false),
        }
        self.current = snapshot.clone();
        let hint = self.hint;
        self.set_hint(hint);
        self.dirty = true;
    }

    /// Advances animations; returns whether any is still running.
    fn animate(&mut self, t: f64) -> bool {
        if self.celebration.is_some() {
            return self.animate_celebration(t);
        }
        let mut running = false;
        for (index, slot) in self.discs.iter_mut().enumerate() {
            let Some(disc) = slot else { continue };
            let Some((start, kind)) = disc.animation else {
                continue;
            };
            let end_angle = rest_angle(disc.target);
            match kind {
                Animation::Drop => {
                    let p = ((t - start) / 300.0).clamp(0.0, 1.0);
                    disc.group
                        .position()
                        .set_y(DISC_HALF + 1.2 * (1.0 - p) * (1.0 - p));
                    if p >= 1.0 {
                        disc.animation = None;
                        rest_disc(disc, index);
                    } else {
                        running = true;
                    }
                }
                Animation::Flip { delay } => {
                    let p = ((t - start - delay) / FLIP_MS).clamp(0.0, 1.0);
                    let eased = p * p * (3.0 - 2.0 * p);
                    let from = PI - end_angle;
                    disc.group
                        .rotation()
                        .set_x(from + (end_angle - from) * eased);
                    disc.group
                        .position()
                        .set_y(DISC_HALF + 0.6 * (PI * p).sin());
                    if p >= 1.0 {
                        disc.animation = None;
                        rest_disc(disc, index);
                    } else {
                        running = true;
                    }
                }
            }
        }
        running
    }

    fn resize(&mut self) {
        let width = f64::from(self.canvas.client_width().max(1));
        let height = f64::from(self.canvas.client_height().max(1));
        if (width, height) != self.size {
            self.size = (width, height);
            self.renderer.set_size(width, height, false);
            self.camera.set_aspect(width / height);
            // Keep the whole board in view on narrow (portrait) screens.
            let distance = if width < height {
                15.0 * (height / width).min(1.8)
            } else {
                15.0
            };
            let len = (12.5f64 * 12.5 + 8.5 * 8.5).sqrt();
            let k = distance / len;
            self.camera.position().set(0.0, 12.5 * k, 8.5 * k);
            self.camera.look_at(0.0, 0.0, 0.0);
            self.camera.update_projection_matrix();
            self.dirty = true;
        }
    }

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
        let celebrating = self.celebration.is_some();
        let animating = self.animate(t);
        let ended = celebrating && self.celebration.is_none();
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

    /// The hinted square while its ring is drawn: an empty square, outside a
    /// celebration.
    fn shown_hint(&self) -> Option<u8> {
        self.hint.filter(|&s| {
            self.celebration.is_none()
                && self.current.cells.get(usize::from(s)).copied().unwrap_or(1) == 0
        })
    }

    /// Shows the hint ring on an empty square, or hides it.
    fn set_hint(&mut self, square: Option<u8>) {
        self.hint = square;
        match self.shown_hint() {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                self.hint_marker.position().set(x, 0.014, z);
                self.hint_marker.set_visible(true);
            }
            None => self.hint_marker.set_visible(false),
        }
        self.dirty = true;
    }

    /// Shows the keyboard cursor (the hover marker, brighter) or hides it.
    fn set_cursor(&mut self, square: Option<u8>) {
        self.cursor = square;
        match square.filter(|_| self.celebration.is_none()) {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                self.hover_marker.position().set(x, 0.011, z);
                self.hover_marker.material().set_opacity(0.45);
                self.hover_marker.set_visible(true);
            }
            None => self.hover_marker.set_visible(false),
        }
        self.dirty = true;
    }

    /// Starts the celebration. Disc animations still running jump to their end
    /// first, so the celebration starts from (and returns to) the final position.
    fn celebrate(&mut self) -> bool {
        if !self.ready || self.disposed {
            return false;
        }
        if self.celebration.is_some() {
            self.finish_celebration();
        }
        for (index, slot) in self.discs.iter_mut().enumerate() {
            if let Some(disc) = slot {
                disc.animation = None;
                rest_disc(disc, index);
            }
        }
        self.hover_marker.set_visible(false);
        let parts = self.confetti_parts.get_or_insert_with(|| {
            let geometry: BufferGeometry = PlaneGeometry::new(0.14, 0.24).unchecked_into();
            let materials = CONFETTI_COLOURS
                .iter()
                .map(|&color| {
                    MeshBasicMaterial::new(&params(&[
                        ("color", color.into()),
                        // THREE.DoubleSide: confetti shows both faces as it tumbles.
                        ("side", 2.into()),
                    ]))
                    .unchecked_into()
                })
                .collect();
            ConfettiParts {
                geometry,
                materials,
            }
        });
        let random = js_sys::Math::random;
        let confetti: Vec<Confetto> = (0..CONFETTI)
            .map(|i| {
                let mesh = Mesh::new(&parts.geometry, &parts.materials[i % parts.materials.len()]);
                mesh.set_visible(false);
                self.root.add(&mesh);
                Confetto {
                    mesh,
                    x: random() * 9.0 - 4.5,
                    z: random() * 9.0 - 4.5,
                    top: 6.0 + random() * 4.0,
                    delay: random() * CELEBRATION_MS * 0.45,
                    speed: 3.5 + random() * 2.5,
                    spin: (
                        (random() - 0.5) * 14.0,
                        (random() - 0.5) * 14.0,
                        (random() - 0.5) * 10.0,
                    ),
                    sway: 0.15 + random() * 0.3,
                    phase: random() * PI * 2.0,
                }
            })
            .collect();
        self.celebration = Some(Celebration {
            start: now(),
            confetti,
        });
        self.celebrations += 1;
        self.dirty = true;
        true
    }

    /// One step of the celebration; ends it when its time is up.
    fn animate_celebration(&mut self, t: f64) -> bool {
        let Some(celebration) = &self.celebration else {
            return false;
        };
        let elapsed = (t - celebration.start).max(0.0);
        if elapsed >= self.celebration_ms {
            self.finish_celebration();
            return false;
        }
        // The motion takes CELEBRATION_MS; a longer `celebration_ms` (tests)
        // holds its last frame until then.
        let p = (elapsed / CELEBRATION_MS).min(1.0);
        // The whole board makes one turn, rising a little on the way.
        self.root.rotation().set_y(2.0 * PI * smoothstep(p));
        self.root.position().set(0.0, 0.4 * (PI * p).sin(), 0.0);
        // Shrink a little mid-turn so the corners stay in view.
        self.root.scale().set_scalar(1.0 - 0.14 * (PI * p).sin());
        // Discs fly up and out in a wave from the centre, spin twice, and land
        // back on their squares with the same face up.
        for (index, slot) in self.discs.iter().enumerate() {
            let Some(disc) = slot else { continue };
            let (x, z) = square_centre(index);
            let wave = 0.06 + 0.05 * x.hypot(z);
            let q = ((p - wave) / 0.55).clamp(0.0, 1.0);
            let lift = (PI * q).sin();
            let out = 1.0 + 0.3 * lift;
            disc.group
                .position()
                .set(x * out, DISC_HALF + 2.4 * lift, z * out);
            disc.group.rotation().set(
                rest_angle(disc.target) + 4.0 * PI * smoothstep(q),
                0.0,
                0.9 * lift * (x - z).signum(),
            );
        }
        for (i, c) in celebration.confetti.iter().enumerate() {
            let s = (elapsed - c.delay) / 1000.0;
            if s < 0.0 {
                continue;
            }
            c.mesh.set_visible(true);
            let y = c.top - c.speed * s;
            if y <= CONFETTI_REST {
                let rest = CONFETTI_REST + i as f64 * 0.0002;
                c.mesh.position().set(c.x, rest, c.z);
                c.mesh.rotation().set(-PI / 2.0, 0.0, c.phase);
            } else {
                c.mesh
                    .position()
                    .set(c.x + c.sway * (c.phase + 3.0 * s).sin(), y, c.z);
                c.mesh
                    .rotation()
                    .set(c.spin.0 * s, c.spin.1 * s, c.spin.2 * s + c.phase);
            }
        }
        true
    }

    /// Ends the celebration: confetti gone, the board and every disc exactly
    /// back in the final position.
    fn finish_celebration(&mut self) {
        let Some(celebration) = self.celebration.take() else {
            return;
        };
        for c in &celebration.confetti {
            self.root.remove(&c.mesh);
        }
        self.root.rotation().set(0.0, 0.0, 0.0);
        self.root.position().set(0.0, 0.0, 0.0);
        self.root.scale().set_scalar(1.0);
        for (index, slot) in self.discs.iter_mut().enumerate() {
            if let Some(disc) = slot {
                disc.animation = None;
                rest_disc(disc, index);
            }
        }
        let cursor = self.cursor;
        self.set_cursor(cursor);
        self.dirty = true;
    }

    /// Whether the board is exactly at rest in the position it shows: the board
    /// unturned, no confetti, every disc flat on its square with its colour up.
    fn at_rest(&self) -> bool {
        let rotation = self.root.rotation();
        let position = self.root.position();
        let scale = self.root.scale();
        let board_still = scale.x() == 1.0
            && scale.y() == 1.0
            && scale.z() == 1.0
            && rotation.angle_x() == 0.0
            && rotation.angle_y() == 0.0
            && rotation.angle_z() == 0.0
            && position.x() == 0.0
            && position.y() == 0.0
            && position.z() == 0.0;
        let discs_still = self.discs.iter().enumerate().all(|(index, slot)| {
            let colour = self.current.cells.get(index).copied().unwrap_or(0);
            match slot {
                None => colour == 0,
                Some(disc) => {
                    let (x, z) = square_centre(index);
                    let p = disc.group.position();
                    let r = disc.group.rotation();
                    disc.target == colour
                        && p.x() == x
                        && p.y() == DISC_HALF
                        && p.z() == z
                        && r.angle_x() == rest_angle(colour)
                        && r.angle_z() == 0.0
                }
            }
        });
        self.celebration.is_none() && board_still && discs_still
    }

    /// The square under a point in client coordinates, by raycast onto the felt.
    fn pick(&self, client_x: f64, client_y: f64) -> Option<u8> {
        if self.celebration.is_some() {
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
    fn square_to_screen(&self, index: usize) -> (f64, f64) {
        let (x, z) = square_centre(index);
        let v = Vector3::new(x, DISC_HALF, z).project(&self.camera);
        let rect = self.canvas.get_bounding_client_rect();
        (
            rect.left() + (v.x() + 1.0) / 2.0 * rect.width(),
            rect.top() + (1.0 - v.y()) / 2.0 * rect.height(),
        )
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

    let canvas = state.borrow().canvas.clone();
    let weak = Rc::downgrade(state);
    let down = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::MouseEvent = event.unchecked_into();
        if let Some(state) = weak.upgrade() {
            state.borrow_mut().pointer_down =
                Some((f64::from(event.client_x()), f64::from(event.client_y())));
        }
    });
    let weak = Rc::downgrade(state);
    let up = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::MouseEvent = event.unchecked_into();
        let Some(state) = weak.upgrade() else { return };
        let (x, y) = (f64::from(event.client_x()), f64::from(event.client_y()));
        let picked = {
            let mut s = state.borrow_mut();
            let start = s.pointer_down.take();
            match start {
                Some((sx, sy)) if (sx - x).hypot(sy - y) < 6.0 => s.pick(x, y),
                _ => None,
            }
        };
        if let Some(square) = picked {
            let hooks = state.borrow().hooks;
            let _ = hooks.on_square.try_run(square);
        }
    });
    let weak = Rc::downgrade(state);
    let hover = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let event: web_sys::MouseEvent = event.unchecked_into();
        let Some(state) = weak.upgrade() else { return };
        let Ok(mut s) = state.try_borrow_mut() else {
            return;
        };
        let picked = s.pick(f64::from(event.client_x()), f64::from(event.client_y()));
        match picked {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                s.hover_marker.position().set(x, 0.011, z);
                s.hover_marker.material().set_opacity(0.22);
                s.hover_marker.set_visible(true);
            }
            None => {
                let cursor = s.cursor;
                s.set_cursor(cursor);
            }
        }
        s.dirty = true;
    });
    let weak = Rc::downgrade(state);
    let changed = Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| {
        if let Some(state) = weak.upgrade() {
            if let Ok(mut s) = state.try_borrow_mut() {
                s.dirty = true;
            }
        }
    });
    let _ = canvas.add_event_listener_with_callback("pointerdown", down.as_ref().unchecked_ref());
    let _ = canvas.add_event_listener_with_callback("pointerup", up.as_ref().unchecked_ref());
    let _ = canvas.add_event_listener_with_callback("pointermove", hover.as_ref().unchecked_ref());
    if let Some(controls) = &state.borrow().controls {
        controls.add_event_listener("change", changed.as_ref().unchecked_ref());
    }
    let mut s = state.borrow_mut();
    s.closures.extend([animation, down, up, hover, changed]);
}

/// Publishes `window.othello3d`: what tests (and the curious) can ask the island.
fn publish_hooks(state: &Rc<RefCell<State>>) {
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
            ("celebrating", s.celebration.is_some().into()),
            ("celebrations", s.celebrations.into()),
            ("atRest", s.at_rest().into()),
            ("cursor", s.cursor.map_or(JsValue::NULL, JsValue::from)),
            ("hint", s.shown_hint().map_or(JsValue::NULL, JsValue::from)),
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
            state.borrow_mut().celebration_ms = ms.max(100.0);
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
