//! The sound that comes with a tournament pairing (PRODUCT.md, Tournaments:
//! "taken to every pairing"): two short rising tones from the Web Audio API,
//! played by the challenge notifier before it takes the player to their
//! new table (the page they were on has had their clicks, which browsers
//! ask before a page may make a sound). The player turns it off (or on
//! again) in the pairing notice; the choice is kept in the browser. Each
//! sound played is counted in the tab's session storage
//! (`othello-pairing-sounds`), which the browser suite reads.

/// The local storage key that turns the sound off ("off").
#[cfg(feature = "hydrate")]
const OFF_KEY: &str = "othello-pairing-sound";
/// The session storage key counting the sounds played in this tab.
#[cfg(feature = "hydrate")]
const COUNT_KEY: &str = "othello-pairing-sounds";

/// Whether the player wants the sound (the default).
pub fn enabled() -> bool {
    #[cfg(feature = "hydrate")]
    {
        let Ok(Some(storage)) = leptos::prelude::window().local_storage() else {
            return true;
        };
        storage.get_item(OFF_KEY).ok().flatten().as_deref() != Some("off")
    }
    #[cfg(not(feature = "hydrate"))]
    true
}

/// Turns the sound on or off for this browser.
pub fn set_enabled(on: bool) {
    #[cfg(feature = "hydrate")]
    if let Ok(Some(storage)) = leptos::prelude::window().local_storage() {
        let _ = if on {
            storage.remove_item(OFF_KEY)
        } else {
            storage.set_item(OFF_KEY, "off")
        };
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = on;
}

/// Plays the pairing sound unless the player turned it off; true when it
/// was started (a browser without Web Audio stays silent).
pub fn play() -> bool {
    if !enabled() {
        return false;
    }
    #[cfg(feature = "hydrate")]
    {
        if tones().is_err() {
            return false;
        }
        if let Ok(Some(storage)) = leptos::prelude::window().session_storage() {
            let count = storage
                .get_item(COUNT_KEY)
                .ok()
                .flatten()
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or(0);
            let _ = storage.set_item(COUNT_KEY, &(count + 1).to_string());
        }
        true
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

/// Two soft tones, 660 Hz then 880 Hz, 0.12 s each, fading out.
#[cfg(feature = "hydrate")]
fn tones() -> Result<(), wasm_bindgen::JsValue> {
    use web_sys::{AudioContext, OscillatorType};
    let context = AudioContext::new()?;
    let start = context.current_time();
    for (i, pitch) in [660.0_f32, 880.0].into_iter().enumerate() {
        let at = start + 0.14 * i as f64;
        let tone = context.create_oscillator()?;
        tone.set_type(OscillatorType::Sine);
        tone.frequency().set_value(pitch);
        let gain = context.create_gain()?;
        gain.gain().set_value_at_time(0.0, at)?;
        gain.gain().linear_ramp_to_value_at_time(0.25, at + 0.01)?;
        gain.gain()
            .exponential_ramp_to_value_at_time(0.001, at + 0.12)?;
        tone.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&context.destination())?;
        tone.start_with_when(at)?;
        tone.stop_with_when(at + 0.13)?;
    }
    Ok(())
}
