//! The renderer: Three.js's WebGPURenderer on WebGPU, or on its WebGL 2
//! backend where WebGPU is missing or `?renderer=webgl2` asks for it
//! (`?renderer=2d`: no 3D at all); the scene, lights and shadows, the orbiting
//! camera, and keeping the canvas's size and the whole board in view.

use super::board;
use super::celebration::Party;
use super::State;
use crate::three::{self, *};
use app::board::SceneHooks;
use app::protocol::BoardSnapshot;
use std::f64::consts::PI;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// The backend asked for: `?renderer=` in the address, else `2d` when the
/// player switched the 3D board off in this browser (`FLAT_BOARD_KEY`).
fn requested_backend() -> Option<String> {
    let window = web_sys::window()?;
    let search = window.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("renderer="))
        .map(str::to_string)
        .or_else(|| {
            window
                .local_storage()
                .ok()
                .flatten()?
                .get_item(app::board::FLAT_BOARD_KEY)
                .ok()
                .flatten()
        })
}

pub(super) async fn build(canvas: HtmlCanvasElement, hooks: SceneHooks) -> Result<State, JsValue> {
    let requested = requested_backend();
    if requested.as_deref() == Some("2d") {
        return Err("the 2D board was asked for (?renderer=2d or the player's choice)".into());
    }
    // No WebGL 2 probe here: creating a throwaway context costs as much as the
    // renderer's own (tens of milliseconds on a software GPU), and this runs
    // while the page hydrates. Without WebGPU or WebGL 2, `init` below fails,
    // and the page shows the 2D board all the same. (`start_renderer` does
    // make one on the WebGL 2 path, from a task of its own after hydration,
    // to tell a software GPU: see its documentation.)
    let webgl_asked = requested.as_deref() == Some("webgl2");
    let renderer: WebGPURenderer = three::start_renderer(&canvas, webgl_asked)
        .await?
        .unchecked_into();
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

    let board::BoardParts {
        felt,
        markers,
        disc_parts,
    } = board::build(&root);

    Ok(State {
        canvas,
        renderer,
        scene,
        camera,
        controls: None,
        orbit_loading: false,
        held_press: None,
        root,
        felt,
        discs: (0..64).map(|_| None).collect(),
        markers,
        hint: None,
        labels: Vec::new(),
        hooks,
        ready: true,
        dirty: true,
        frames: 0,
        ticks: 0,
        drawn_version: 0,
        pending: None,
        current: BoardSnapshot::empty(),
        size: (0.0, 0.0),
        pointer_down: None,
        disc_parts,
        closures: Vec::new(),
        canvas_listeners: Vec::new(),
        disposed: false,
        party: Party::new(),
        cursor: None,
        restarts: 0,
    })
}

impl State {
    pub(super) fn backend_name(&self) -> &'static str {
        if three::property(&self.renderer.backend(), "isWebGPUBackend").is_truthy() {
            "webgpu"
        } else {
            "webgl2"
        }
    }

    pub(super) fn resize(&mut self) {
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
}

/// The camera's orbit controls on `canvas`: a drag turns the camera around
/// the board, the wheel or a pinch zooms (no panning, never under the table).
/// Needs the addons' bundle ([`three::load_addons`]).
pub(super) fn orbit(camera: &PerspectiveCamera, canvas: &HtmlCanvasElement) -> OrbitControls {
    let controls = OrbitControls::new(camera, canvas);
    for (key, value) in [
        ("enablePan", JsValue::FALSE),
        ("enableDamping", JsValue::FALSE),
        ("minDistance", 9.0.into()),
        ("maxDistance", 24.0.into()),
        ("maxPolarAngle", (PI * 0.42).into()),
    ] {
        set_property(&controls, key, &value);
    }
    controls
}
