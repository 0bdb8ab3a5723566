//! Quick match's offer of a bot (docs/PRODUCT.md, Bots): when a signed-in
//! person has waited alone for a while, the queue's socket names the
//! nearest-rated bot online; the lobby shows it under the queue with a way
//! to play it (a challenge to the bot, with the queue's time control and
//! rating, after which the queue is left) and a way to keep waiting. Mounted
//! by the queue's chunk ([`crate::live::join_queue`]) into the lobby's
//! `#bot-offer-slot`, so none of it is in the code the lobby loads first.

use crate::challenges::{Colour, NewChallenge};
use crate::i18n::Lang;
use crate::protocol::TimeControl;
use leptos::prelude::*;

/// Where the offer stands.
#[derive(Clone, Debug, PartialEq)]
enum Offer {
    /// Shown, unanswered.
    Open,
    /// "Play" pressed: the challenge is on its way.
    Sending,
    /// The challenge was sent; the bot's answer takes the player to the
    /// table (the challenge notifier, on any page).
    Sent,
    /// "Keep waiting" pressed (or the queue left): nothing shown.
    Declined,
    /// The challenge was refused (the refusal's text).
    Failed(String),
}

/// What the queue's socket said, and what pressing "Play" needs.
pub struct Offered {
    pub bot: String,
    pub rating: i32,
    pub waited_s: u32,
    pub control: TimeControl,
    pub rated: bool,
}

/// Shows `offered` in the lobby's `#bot-offer-slot` (replacing an earlier
/// offer); `socket` is the queue's, closed once the challenge is sent, and
/// `queued` the lobby's "waiting" flag.
pub fn show(lang: Lang, offered: Offered, socket: web_sys::WebSocket, queued: RwSignal<bool>) {
    use wasm_bindgen::JsCast;
    let Some(slot) = document()
        .get_element_by_id("bot-offer-slot")
        .and_then(|slot| slot.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        let _ = socket;
        return;
    };
    slot.set_inner_html("");
    let handle = leptos::mount::mount_to(slot, move || {
        provide_context(lang);
        view! { <BotOffer offered socket queued /> }
    });
    // Lives as long as the page: the slot is the lobby's own.
    handle.forget();
}

#[component]
fn BotOffer(offered: Offered, socket: web_sys::WebSocket, queued: RwSignal<bool>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let state = RwSignal::new(Offer::Open);
    let Offered {
        bot,
        rating,
        waited_s,
        control,
        rated,
    } = offered;
    let bot = StoredValue::new(bot);
    let socket = StoredValue::new_local(socket);
    // Leaving the queue withdraws an unanswered offer.
    Effect::new(move |_| {
        if !queued.get() && state.get_untracked() == Offer::Open {
            state.set(Offer::Declined);
        }
    });
    let play = move |_| {
        state.set(Offer::Sending);
        leptos::task::spawn_local(async move {
            let sent = crate::challenges::challenge(NewChallenge {
                name: bot.get_value(),
                control,
                colour: Colour::Random,
                rated,
                random_start: false,
                synchro: false,
            })
            .await;
            match sent {
                Ok(_) => {
                    // Out of the queue: the bot's game is the one to play.
                    socket.with_value(|socket| {
                        let _ = socket.close();
                    });
                    let _ = state.try_set(Offer::Sent);
                    let _ = queued.try_set(false);
                }
                Err(error) => {
                    let _ = state.try_set(Offer::Failed(error.text(lang)));
                }
            }
        });
    };
    let text = move || {
        t!(
            lang,
            "lobby-bot-offer",
            bot = bot.get_value(),
            rating = rating,
            secs = waited_s
        )
    };
    move || {
        match state.get() {
        Offer::Open | Offer::Sending => view! {
            <div class="bot-offer" id="bot-offer" role="status" data-bot=bot.get_value()>
                <p id="bot-offer-text">{text()}</p>
                <button id="bot-offer-play" on:click=play disabled=move || state.get() == Offer::Sending>
                    {t!(lang, "lobby-bot-offer-play", bot = bot.get_value())}
                </button>
                " "
                <button class="secondary" id="bot-offer-wait" on:click=move |_| state.set(Offer::Declined)>
                    {t!(lang, "lobby-bot-offer-wait")}
                </button>
            </div>
        }
        .into_any(),
        Offer::Sent => view! {
            <p class="bot-offer" id="bot-offer-sent" role="status">
                {t!(lang, "lobby-bot-offer-sent", bot = bot.get_value())}
            </p>
        }
        .into_any(),
        Offer::Failed(text) => view! {
            <p class="error" id="bot-offer-error" role="alert">{text}</p>
        }
        .into_any(),
        Offer::Declined => ().into_any(),
    }
    }
}
