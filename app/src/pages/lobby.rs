//! The lobby: the site's front page, where a player starts a game.

use crate::board::Board3D;
use crate::protocol::BoardSnapshot;
use leptos::prelude::*;

/// The lobby page.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let snapshot = Signal::derive(BoardSnapshot::empty);
    let on_square = Callback::new(|_square: u8| {});
    view! {
        <main class="lobby">
            <header class="topbar">
                <h1>"Othello 3D"</h1>
            </header>
            <section class="lobby-board">
                <Board3D snapshot on_square />
            </section>
        </main>
    }
}
