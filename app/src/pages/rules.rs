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
                <li>"When a player has to pass, a notice says so until that player moves again, and the move list shows the pass."</li>
            </ul>
            <h2>"Playing online"</h2>
            <ul>
                <li>"A private table seats its creator. A friend who opens the link watches until they press Take the free seat; later visitors watch."</li>
                <li>"Quick match seats both players at once."</li>
                <li>"The game starts when both seats are taken. A player who is not on the page then, or who leaves during a game, has a grace period (90 seconds by default) to come back; the countdown shows next to the board."</li>
                <li>"A player who does not come back in time loses that game. If both players are away when a grace period ends, the game is abandoned and nobody wins."</li>
                <li>"Between games nothing counts down. After a rematch starts, an absent player gets a full grace period from that moment."</li>
                <li>"New table starts a fresh private table with its own tally."</li>
            </ul>
            <h2>"Clocks"</h2>
            <ul>
                <li>"Online games are timed: 3+2, 5+0 or 10+5 (minutes each, plus seconds added after each of your moves). Quick match pairs you with someone who chose the same control; a private table may also be untimed."</li>
                <li>"Your clock runs from the moment your opponent's move is saved until yours is. A forced pass costs nothing. The server keeps the time; the clocks on the page count down between its updates."</li>
                <li>"If your clock reaches zero you lose that game on time. Your clock keeps running while you are away: the grace period and your clock both run, and whichever ends first decides."</li>
                <li>"The control carries over to rematches and new tables. Time while the server was down is not charged: the clocks resume with the time left at the last move."</li>
                <li>"Clocks warn when under 30 seconds, and a screen reader hears it at 30 and 10 seconds."</li>
            </ul>
        </aside>
    }
}
