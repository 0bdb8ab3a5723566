//! The board: its wooden frame, felt, grid and markers, the discs on it, and
//! their drop and flip animations.

use super::{now, State};
use crate::three::*;
use app::protocol::BoardSnapshot;
use std::f64::consts::PI;
use wasm_bindgen::{JsCast, JsValue};

const FELT: u32 = 0x1e7b4f;
const GRID: u32 = 0x1d5c3c;
const FRAME: u32 = 0x6b4226;
const DISC_BLACK: u32 = 0x141414;
const DISC_WHITE: u32 = 0xf4f4f0;
const DISC_RADIUS: f64 = 0.42;
pub(super) const DISC_HALF: f64 = 0.05;
const FLIP_MS: f64 = 420.0;
const STAGGER_MS: f64 = 70.0;

/// A disc on one square: a group of a black and a white half; rotation about x
/// by π shows the white face.
pub(super) struct Disc {
    pub(super) group: Group,
    /// Colour shown when the animation ends (+1 black, −1 white).
    pub(super) target: i8,
    /// Start time (ms) and kind of the running animation.
    pub(super) animation: Option<(f64, Animation)>,
}

#[derive(Clone, Copy)]
pub(super) enum Animation {
    Drop,
    Flip { delay: f64 },
}

/// Shared geometries and materials for discs.
pub(super) struct DiscParts {
    half: BufferGeometry,
    black: Material,
    white: Material,
}

/// The rings and squares drawn on the felt.
pub(super) struct Markers {
    /// One yellow dot per square, shown on legal moves.
    pub(super) legal: Vec<Mesh>,
    /// The red ring around the last placement.
    pub(super) last: Mesh,
    /// The pointer's square (faint) or the keyboard cursor (brighter).
    pub(super) hover: Mesh,
    /// The engine's suggested square (the Hint button), a blue ring.
    pub(super) hint_ring: Mesh,
}

/// A short text lying on a square (a hint's value).
pub(super) struct Label {
    mesh: Mesh,
    material: Material,
    texture: CanvasTexture,
    geometry: BufferGeometry,
    /// What it says where: `(square, text, best)` (for the test hooks).
    pub(super) shown: (u8, String, bool),
}

/// The 2D context's `set(property, value)` and `call(method, args)`.
type Setter = Box<dyn Fn(&str, JsValue)>;
type Caller = Box<dyn Fn(&str, &[JsValue])>;

/// A fresh `width`×`height` canvas and its 2D context, reached through
/// Reflect (a handful of calls: typed bindings for each method would add to
/// the lobby's wasm and glue); `None` when the browser gives no 2D context.
fn canvas_2d(width: u32, height: u32) -> Option<(web_sys::HtmlCanvasElement, Setter, Caller)> {
    let document = web_sys::window()?.document()?;
    let canvas: web_sys::HtmlCanvasElement =
        document.create_element("canvas").ok()?.dyn_into().ok()?;
    canvas.set_width(width);
    canvas.set_height(height);
    // A canvas in memory, not on the GPU: the renderer uploads it as a
    // texture, and a GPU canvas would first be read back from the GPU
    // process (a wait of 60-280 ms on the page's main thread per board, for
    // the rim's 1024x1024 coordinates, measured with
    // tests/browser/tools/gpu-trace.mjs).
    let options = params(&[("willReadFrequently", true.into())]);
    let context: JsValue = canvas
        .get_context_with_context_options("2d", &options)
        .ok()??
        .into();
    let target = context.clone();
    let set: Setter = Box::new(move |key: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&target, &JsValue::from_str(key), &value);
    });
    let call: Caller = Box::new(move |name: &str, args: &[JsValue]| {
        if let Ok(f) = js_sys::Reflect::get(&context, &JsValue::from_str(name)) {
            let f: js_sys::Function = f.unchecked_into();
            let _ = f.apply(&context, &args.iter().collect::<js_sys::Array>());
        }
    });
    Some((canvas, set, call))
}

/// A `size`×`size` square lying flat, showing `texture` (transparent, and
/// kept out of the depth buffer so it never hides what lies on it).
fn lying_plane(texture: &CanvasTexture, size: f64) -> (BufferGeometry, Material, Mesh) {
    let geometry: BufferGeometry = PlaneGeometry::new(size, size).unchecked_into();
    geometry.rotate_x(-PI / 2.0);
    let material: Material = MeshBasicMaterial::new(&params(&[
        ("map", JsValue::clone(texture)),
        ("transparent", true.into()),
        ("depthWrite", false.into()),
    ]))
    .unchecked_into();
    let mesh = Mesh::new(&geometry, &material);
    (geometry, material, mesh)
}

/// The coordinates on the frame's rim, as on a real board: a–h above and
/// below the columns, 1–8 beside the rows (row 1 at the far side, where the
/// camera's view puts it at the top). One texture, lying just under the felt
/// so only the rim shows.
fn rim_coordinates(root: &Group) {
    const SIZE: u32 = 1024;
    let Some((canvas, set, call)) = canvas_2d(SIZE, SIZE) else {
        return;
    };
    let unit = f64::from(SIZE) / 9.0;
    set("fillStyle", JsValue::from_str("rgba(246, 232, 204, 0.92)"));
    set("font", JsValue::from_str("bold 36px sans-serif"));
    set("textAlign", JsValue::from_str("center"));
    set("textBaseline", JsValue::from_str("middle"));
    let near = unit / 4.0;
    let far = f64::from(SIZE) - unit / 4.0;
    for i in 0..8u8 {
        let along = unit * (f64::from(i) + 1.0);
        let letter = ((b'a' + i) as char).to_string();
        let number = (i + 1).to_string();
        for (text, x, y) in [
            (&letter, along, near),
            (&letter, along, far),
            (&number, near, along),
            (&number, far, along),
        ] {
            call("fillText", &[text.as_str().into(), x.into(), y.into()]);
        }
    }
    let (_, _, rim) = lying_plane(&CanvasTexture::new(&canvas), 9.0);
    rim.position().set(0.0, -0.005, 0.0);
    root.add(&rim);
}

impl Label {
    /// Draws `text` on a 128×128 canvas and lays it flat on the board;
    /// `None` when the browser gives no 2D context.
    fn new(square: u8, text: &str, best: bool) -> Option<Label> {
        let (canvas, set, call) = canvas_2d(128, 128)?;
        // A round badge, so the number reads on the green felt and on the
        // board's light and dark squares alike; the best move's is blue.
        set(
            "fillStyle",
            JsValue::from_str(if best {
                "#0b5cad"
            } else {
                "rgba(20, 30, 40, 0.82)"
            }),
        );
        call("beginPath", &[]);
        call(
            "arc",
            &[
                64.0.into(),
                64.0.into(),
                60.0.into(),
                0.0.into(),
                (2.0 * PI).into(),
            ],
        );
        call("fill", &[]);
        set("fillStyle", JsValue::from_str("#ffffff"));
        set(
            "font",
            JsValue::from_str(if text.chars().count() > 2 {
                "bold 54px sans-serif"
            } else {
                "bold 66px sans-serif"
            }),
        );
        set("textAlign", JsValue::from_str("center"));
        set("textBaseline", JsValue::from_str("middle"));
        call("fillText", &[text.into(), 64.0.into(), 68.0.into()]);
        let texture = CanvasTexture::new(&canvas);
        let (geometry, material, mesh) = lying_plane(&texture, 0.62);
        Some(Label {
            mesh,
            material,
            texture,
            geometry,
            shown: (square, text.to_string(), best),
        })
    }
}

/// What [`build`] makes: the pieces of the board the state keeps.
pub(super) struct BoardParts {
    pub(super) felt: Mesh,
    pub(super) markers: Markers,
    pub(super) disc_parts: DiscParts,
}

/// Builds the frame, felt, grid, star points and markers under `root`.
pub(super) fn build(root: &Group) -> BoardParts {
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

    rim_coordinates(root);

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
    let disc_parts = DiscParts {
        half,
        black: standard(DISC_BLACK, 0.45),
        white: standard(DISC_WHITE, 0.45),
    };

    BoardParts {
        felt,
        markers: Markers {
            legal: legal_markers,
            last: last_marker,
            hover: hover_marker,
            hint_ring: hint_marker,
        },
        disc_parts,
    }
}

pub(super) fn square_centre(index: usize) -> (f64, f64) {
    let col = (index % 8) as f64;
    let row = (index / 8) as f64;
    (col - 3.5, row - 3.5)
}

/// The disc's rotation about x that shows `colour` on top.
pub(super) fn rest_angle(colour: i8) -> f64 {
    if colour == 1 {
        0.0
    } else {
        PI
    }
}

/// Puts a disc flat on its square with its colour up.
pub(super) fn rest_disc(disc: &Disc, index: usize) {
    let (x, z) = square_centre(index);
    disc.group.position().set(x, DISC_HALF, z);
    disc.group.rotation().set(rest_angle(disc.target), 0.0, 0.0);
}

impl State {
    pub(super) fn new_disc(&self, index: usize, colour: i8) -> Disc {
        let group = Group::new();
        let top = Mesh::new(&self.disc_parts.half, &self.disc_parts.black);
        top.position().set(0.0, DISC_HALF / 2.0, 0.0);
        top.set_cast_shadow(true);
        let bottom = Mesh::new(&self.disc_parts.half, &self.disc_parts.white);
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
    pub(super) fn apply(&mut self, snapshot: &BoardSnapshot) {
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
        for (index, marker) in self.markers.legal.iter().enumerate() {
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
                self.markers.last.position().set(x, 0.013, z);
                self.markers.last.set_visible(true);
            }
            None => self.markers.last.set_visible(false),
        }
        self.current = snapshot.clone();
        let hint = self.hint;
        self.set_hint(hint);
        self.dirty = true;
    }

    /// Advances animations; returns whether any is still running.
    pub(super) fn animate(&mut self, t: f64) -> bool {
        if self.party.running.is_some() {
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
                        .set_y(DISC_HALF + 0.6 * super::sin(PI * p));
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

    /// The hinted square while its ring is drawn: an empty square, outside a
    /// celebration.
    pub(super) fn shown_hint(&self) -> Option<u8> {
        self.hint.filter(|&s| {
            self.party.running.is_none()
                && self.current.cells.get(usize::from(s)).copied().unwrap_or(1) == 0
        })
    }

    /// Writes the labels on their squares (replacing and freeing the old
    /// ones): white text on a dark round badge, the best move's badge blue.
    pub(super) fn set_labels(&mut self, labels: &[(u8, String, bool)]) {
        for old in self.labels.drain(..) {
            self.root.remove(&old.mesh);
            old.texture.dispose();
            old.material.dispose();
            old.geometry.dispose();
        }
        for (square, text, best) in labels {
            if let Some(label) = Label::new(*square, text, *best) {
                let (x, z) = square_centre(usize::from(*square));
                label.mesh.position().set(x, 0.02, z);
                self.root.add(&label.mesh);
                self.labels.push(label);
            }
        }
        self.dirty = true;
    }

    /// The labels drawn: `(square, text, best)` (for the test hooks).
    pub(super) fn labelled(&self) -> impl Iterator<Item = &(u8, String, bool)> {
        self.labels.iter().map(|l| &l.shown)
    }

    /// Shows the hint ring on an empty square, or hides it.
    pub(super) fn set_hint(&mut self, square: Option<u8>) {
        self.hint = square;
        match self.shown_hint() {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                self.markers.hint_ring.position().set(x, 0.014, z);
                self.markers.hint_ring.set_visible(true);
            }
            None => self.markers.hint_ring.set_visible(false),
        }
        self.dirty = true;
    }

    /// Shows the keyboard cursor (the hover marker, brighter) or hides it.
    pub(super) fn set_cursor(&mut self, square: Option<u8>) {
        self.cursor = square;
        match square.filter(|_| self.party.running.is_none()) {
            Some(square) => {
                let (x, z) = square_centre(usize::from(square));
                self.markers.hover.position().set(x, 0.011, z);
                self.markers.hover.material().set_opacity(0.45);
                self.markers.hover.set_visible(true);
            }
            None => self.markers.hover.set_visible(false),
        }
        self.dirty = true;
    }

    /// Whether the board is exactly at rest in the position it shows: the board
    /// unturned, no confetti, every disc flat on its square with its colour up.
    pub(super) fn at_rest(&self) -> bool {
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
        self.party.running.is_none() && board_still && discs_still
    }
}
