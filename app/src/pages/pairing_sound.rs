//! The sound that comes with a tournament pairing (PRODUCT.md, Tournaments:
//! "taken to every pairing"): two short rising tones (a file the server
//! makes, `server/src/sound.rs`), played by the challenge notifier before it takes the player to their
//! new table (the page they were on has had their clicks, which browsers
//! ask before a page may make a sound). The player turns it off (or on
//! again) in the pairing notice; the choice is kept in the browser. Each
//! sound played is counted in the tab's session storage
//! (`othello-pairing-sounds`), which the browser suite reads. Two lazy
//! chunks call it (the notifier's and the tournaments' page): its functions
//! are inlined into each, so wasm-split does not move them into the main
//! module the lobby loads.

/// The local storage key that turns the sound off ("off").
#[cfg(feature = "hydrate")]
const OFF_KEY: &str = "othello-pairing-sound";
/// The session storage key counting the sounds played in this tab.
#[cfg(feature = "hydrate")]
const COUNT_KEY: &str = "othello-pairing-sounds";

/// Whether the player wants the sound (the default).
#[inline(always)]
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
#[inline(always)]
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
/// was started (a page that cannot add the element stays silent).
#[inline(always)]
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

/// Plays the server's sound file (two soft tones, `server/src/sound.rs`)
/// with an `<audio autoplay>` element at the end of the body, one per page
/// (set again to play again). The Web Audio API from Rust would add imports
/// to the JS glue every page loads (about 500 B on the wire): the element
/// uses bindings the app already has.
#[cfg(feature = "hydrate")]
#[inline(always)]
fn tones() -> Result<(), wasm_bindgen::JsValue> {
    const ID: &str = "pairing-sound";
    let document = leptos::prelude::document();
    let audio = match document.get_element_by_id(ID) {
        Some(audio) => audio,
        None => {
            let audio = document.create_element("audio")?;
            audio.set_attribute("id", ID)?;
            audio.set_attribute("autoplay", "")?;
            audio.set_attribute("hidden", "")?;
            let body = document.body().ok_or(wasm_bindgen::JsValue::NULL)?;
            body.insert_before(&audio, None)?;
            audio
        }
    };
    audio.set_attribute("src", SOUND)?;
    Ok(())
}

/// The sound's address (served by the server: `server/src/sound.rs`).
pub const SOUND: &str = "/sound/paired.wav";
