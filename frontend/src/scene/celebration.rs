//! The end-of-game celebration: the board makes one turn, the discs fly up
//! and land back on their squares, and confetti falls onto the board and vanishes
//! there (it never covers the final position).

use super::board::{rest_angle, rest_disc, square_centre, DISC_HALF};
use super::{now, State};
use crate::three::*;
use std::f64::consts::PI;
use wasm_bindgen::JsCast;

/// How long the motion lasts.
const CELEBRATION_MS: f64 = 6000.0;
const CONFETTI: usize = 120;
const CONFETTI_COLOURS: [u32; 6] = [0xff3b30, 0xffcc00, 0x34c759, 0x0a84ff, 0xaf52de, 0xff9f0a];
/// Where confetti comes to rest: just above the discs' tops.
const CONFETTI_REST: f64 = 2.0 * DISC_HALF + 0.006;

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
pub(super) struct Celebration {
    start: f64,
    confetti: Vec<Confetto>,
}

/// Geometry and materials shared by all confetti, made on first use.
pub(super) struct ConfettiParts {
    geometry: BufferGeometry,
    materials: Vec<Material>,
}

/// The celebration's part of the island's state.
pub(super) struct Party {
    /// The celebration playing now.
    pub(super) running: Option<Celebration>,
    /// How many have started (a test hook).
    pub(super) count: u32,
    pub(super) parts: Option<ConfettiParts>,
    /// How long a celebration lasts; tests may lengthen it, which holds the
    /// last frame of the motion (see `setCelebrationMs`).
    pub(super) ms: f64,
}

impl Party {
    pub(super) fn new() -> Self {
        Party {
            running: None,
            count: 0,
            parts: None,
            ms: CELEBRATION_MS,
        }
    }
}

fn smoothstep(p: f64) -> f64 {
    let p = p.clamp(0.0, 1.0);
    p * p * (3.0 - 2.0 * p)
}

impl State {
    /// Starts the celebration. Disc animations still running jump to their end
    /// first, so the celebration starts from (and returns to) the final position.
    pub(super) fn celebrate(&mut self) -> bool {
        if !self.ready || self.disposed {
            return false;
        }
        if self.party.running.is_some() {
            self.finish_celebration();
        }
        for (index, slot) in self.discs.iter_mut().enumerate() {
            if let Some(disc) = slot {
                disc.animation = None;
                rest_disc(disc, index);
            }
        }
        self.markers.hover.set_visible(false);
        let parts = self.party.parts.get_or_insert_with(|| {
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
        self.party.running = Some(Celebration {
            start: now(),
            confetti,
        });
        self.party.count += 1;
        self.dirty = true;
        true
    }

    /// One step of the celebration; ends it when its time is up.
    pub(super) fn animate_celebration(&mut self, t: f64) -> bool {
        let Some(celebration) = &self.party.running else {
            return false;
        };
        let elapsed = (t - celebration.start).max(0.0);
        if elapsed >= self.party.ms {
            self.finish_celebration();
            return false;
        }
        // The motion takes CELEBRATION_MS; a longer `celebration_ms` (tests)
        // holds its last frame until then.
        let p = (elapsed / CELEBRATION_MS).min(1.0);
        // The whole board makes one turn, rising a little on the way.
        self.root.rotation().set_y(2.0 * PI * smoothstep(p));
        self.root.position().set(0.0, 0.4 * super::sin(PI * p), 0.0);
        // Shrink a little mid-turn so the corners stay in view.
        self.root
            .scale()
            .set_scalar(1.0 - 0.14 * super::sin(PI * p));
        // Discs fly up and out in a wave from the centre, spin twice, and land
        // back on their squares with the same face up.
        for (index, slot) in self.discs.iter().enumerate() {
            let Some(disc) = slot else { continue };
            let (x, z) = square_centre(index);
            let wave = 0.06 + 0.05 * (x * x + z * z).sqrt();
            let q = ((p - wave) / 0.55).clamp(0.0, 1.0);
            let lift = super::sin(PI * q);
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
        for c in &celebration.confetti {
            let s = (elapsed - c.delay) / 1000.0;
            if s < 0.0 {
                continue;
            }
            c.mesh.set_visible(true);
            let y = c.top - c.speed * s;
            if y <= CONFETTI_REST {
                // Landed confetti is gone at once: it never lies on the discs,
                // so the final position stays readable (on a phone's small
                // board too) as soon as the discs are back.
                c.mesh.set_visible(false);
            } else {
                c.mesh
                    .position()
                    .set(c.x + c.sway * super::sin(c.phase + 3.0 * s), y, c.z);
                c.mesh
                    .rotation()
                    .set(c.spin.0 * s, c.spin.1 * s, c.spin.2 * s + c.phase);
            }
        }
        true
    }

    /// Ends the celebration: confetti gone, the board and every disc exactly
    /// back in the final position.
    pub(super) fn finish_celebration(&mut self) {
        let Some(celebration) = self.party.running.take() else {
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
}
