//! The pairing sound (PRODUCT.md, Tournaments: a short sound when a player
//! is taken to their next game): two soft tones, 660 Hz then 880 Hz, as a
//! small WAV file the server makes once and serves at [`PATH`]. The
//! browser plays it with an `<audio>` element (`app::pages::pairing_sound`):
//! the Web Audio API from Rust would add imports to the JS glue every page
//! loads, and the lobby has no bytes to spare.

use axum::http::header;
use axum::response::IntoResponse;
use std::sync::OnceLock;

/// Where the sound is served.
pub const PATH: &str = "/sound/paired.wav";

const RATE: u32 = 16_000;

/// The sound as a WAV file: 8-bit mono PCM at 16 kHz, 0.3 s.
pub fn paired_wav() -> Vec<u8> {
    let length = (RATE as f64 * 0.3) as usize;
    let mut samples = vec![0.0_f64; length];
    for (pitch, start) in [(660.0_f64, 0.0_f64), (880.0, 0.14)] {
        let first = (start * RATE as f64) as usize;
        let tone = (0.12 * RATE as f64) as usize;
        for i in 0..tone {
            let t = i as f64 / RATE as f64;
            // A 10 ms rise, then an exponential fade.
            let envelope = (t / 0.01).min(1.0) * (-t / 0.035).exp();
            if let Some(sample) = samples.get_mut(first + i) {
                *sample += 0.3 * envelope * (2.0 * std::f64::consts::PI * pitch * t).sin();
            }
        }
    }
    let data: Vec<u8> = samples
        .iter()
        .map(|s| (128.0 + 127.0 * s.clamp(-1.0, 1.0)).round() as u8)
        .collect();
    let mut wav = Vec::with_capacity(44 + data.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes());
    wav.extend_from_slice(&RATE.to_le_bytes()); // bytes per second
    wav.extend_from_slice(&1u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&(data.len() as u32).to_le_bytes());
    wav.extend_from_slice(&data);
    wav
}

/// `GET /sound/paired.wav`.
pub async fn paired() -> impl IntoResponse {
    static WAV: OnceLock<Vec<u8>> = OnceLock::new();
    let body = WAV.get_or_init(paired_wav).clone();
    (
        [
            (header::CONTENT_TYPE, "audio/wav"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sound_is_a_short_wav_of_two_tones_and_silence_between() {
        let wav = paired_wav();
        assert_eq!(&wav[0..4], b"RIFF");
        assert_eq!(&wav[8..16], b"WAVEfmt ");
        assert_eq!(&wav[36..40], b"data");
        let data = &wav[44..];
        assert_eq!(data.len(), 4_800, "0.3 s at 16 kHz");
        assert_eq!(
            u32::from_le_bytes([wav[40], wav[41], wav[42], wav[43]]) as usize,
            data.len()
        );
        // Sound in each tone, silence (the mid level) in the gap between.
        let loud = |from: f64, to: f64| {
            data[(from * 16_000.0) as usize..(to * 16_000.0) as usize]
                .iter()
                .any(|&s| s.abs_diff(128) > 20)
        };
        assert!(loud(0.0, 0.05) && loud(0.14, 0.19));
        assert!(
            data[(0.125 * 16_000.0) as usize..(0.135 * 16_000.0) as usize]
                .iter()
                .all(|&s| s.abs_diff(128) <= 2)
        );
    }
}
