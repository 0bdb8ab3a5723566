//! Another position on a page's main board for a while: the practice of a
//! game's mistakes puts each of its positions there.
//!
//! The pages with a game (the table, an archived game, the lab) draw their
//! board with [`MainBoard`], which shows the page's own position — or, while
//! a [`Takeover`] is set in the app's [`BoardTakeover`], the takeover's
//! position with its hint and values, sends the clicks and Enter to it, and
//! draws its banner over the board; the board is `quiet` meanwhile (the
//! switches are not moves). It lives apart from `Board3D` so that the lobby,
//! whose board is never taken over, does not load it.

use crate::board::{Board3D, PassLog};
use crate::protocol::BoardSnapshot;
use leptos::prelude::*;

/// What takes the board over.
#[derive(Clone)]
pub struct Takeover {
    pub snapshot: Signal<BoardSnapshot>,
    pub on_square: Callback<u8>,
    pub hint: Signal<Option<u8>>,
    pub labels: Signal<Vec<(u8, String, bool)>>,
    pub banner: ViewFn,
}

/// The page's [`Takeover`], provided once by the app for every page.
#[derive(Clone, Copy)]
pub struct BoardTakeover(pub RwSignal<Option<Takeover>>);

/// A page's main board: [`Board3D`] with the page's own position, or a
/// takeover's while one is set.
#[component]
pub fn MainBoard(
    #[prop(into)] snapshot: Signal<BoardSnapshot>,
    #[prop(into)] on_square: Callback<u8>,
    #[prop(optional, into)] passes: Option<Signal<PassLog>>,
    #[prop(optional, into)] hint: Option<Signal<Option<u8>>>,
    #[prop(optional, into)] labels: Option<Signal<Vec<(u8, String, bool)>>>,
    #[prop(optional, into)] celebrate: Option<Signal<bool>>,
) -> impl IntoView {
    let own_hint = hint.unwrap_or_else(|| Signal::derive(|| None));
    let own_labels = labels.unwrap_or_else(|| Signal::derive(Vec::new));
    let takeover = use_context::<BoardTakeover>().map(|t| t.0);
    let taken = move || {
        takeover.and_then(|t| t.with(|o| o.as_ref().map(|x| (x.snapshot, x.hint, x.labels))))
    };
    let quiet = Signal::derive(move || takeover.is_some_and(|t| t.with(Option::is_some)));
    let shown = Signal::derive(move || taken().map_or_else(|| snapshot.get(), |t| t.0.get()));
    let hint = Signal::derive(move || taken().map_or_else(|| own_hint.get(), |t| t.1.get()));
    let labels = Signal::derive(move || taken().map_or_else(|| own_labels.get(), |t| t.2.get()));
    let clicked = Callback::new(move |square: u8| {
        match takeover.and_then(|t| t.with_untracked(|o| o.as_ref().map(|x| x.on_square))) {
            Some(theirs) => theirs.run(square),
            None => on_square.run(square),
        }
    });
    let banner = move || takeover.and_then(|t| t.with(|o| o.as_ref().map(|x| x.banner.run())));
    let celebrate = celebrate.unwrap_or_else(|| Signal::derive(|| true));
    let voice = crate::voice::VOICE;
    view! {
        {match passes {
            Some(passes) => view! {
                <Board3D snapshot=shown on_square=clicked passes hint labels celebrate voice quiet />
            }
            .into_any(),
            None => view! {
                <Board3D snapshot=shown on_square=clicked hint labels celebrate voice quiet />
            }
            .into_any(),
        }}
        {banner}
    }
}
