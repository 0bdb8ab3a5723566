//! The white rules sidebar opened by the **?** button.

use leptos::prelude::*;

#[component]
pub fn RulesSidebar(#[prop(into)] open: Signal<bool>, on_close: Callback<()>) -> impl IntoView {
    view! {
        <aside
            id="rules"
            class="rules-sidebar"
            class:open=move || open.get()
            aria-hidden=move || (!open.get()).to_string()
        >
            <button class="close secondary" aria-label="Close the rules" on:click=move |_| on_close.run(())>
                "×"
            </button>
            <h2>"How to play Othello"</h2>
            <ul>
                <li>"Black moves first. Players take turns placing one disc of their colour."</li>
                <li>"A move must outflank: the new disc and another of yours must enclose a straight line (row, column or diagonal) of your opponent's discs with no gap. All such lines flip to your colour."</li>
                <li>"A move that flips nothing is not allowed. Legal squares are marked with a yellow dot; the last move has a red ring."</li>
                <li>"If you have no legal move you pass, and your opponent plays again. This happens automatically."</li>
                <li>"When neither player can move the game ends; the player with more discs wins."</li>
                <li>"Corners can never be flipped; squares next to corners are risky early on."</li>
            </ul>
            <h2>"Controls"</h2>
            <ul>
                <li>"Click a square to play. Drag to orbit the board; scroll or pinch to zoom."</li>
                <li>"Resign ends the game as a loss. After a game, vote for a rematch: colours and AI depth carry over."</li>
            </ul>
        </aside>
    }
}
