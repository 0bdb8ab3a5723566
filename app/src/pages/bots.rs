//! `/bots` (docs/PRODUCT.md, Bots): every bot account, online ones first,
//! each with its ratings, its latest games and a challenge link; then the
//! bots' own leaderboard for each speed (the people's, on `/players`, lists
//! no bot).

use crate::bots::{bots_page, BotLine, BotsView};
use crate::i18n::Lang;
use crate::pages::players::speed_name;
use crate::protocol::Speed;
use leptos::prelude::*;

/// One bot's card.
fn bot_card(lang: Lang, bot: BotLine) -> impl IntoView {
    let ratings = if bot.ratings.is_empty() {
        t!(lang, "players-search-unrated")
    } else {
        bot.ratings
            .iter()
            .map(|pool| format!("{} {}", speed_name(lang, pool.speed), pool.rating.text()))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let status = if bot.online {
        t!(lang, "bots-online")
    } else {
        t!(lang, "bots-offline")
    };
    let games = (!bot.recent.is_empty()).then(|| {
        view! {
            <ul class="game-list">
                {bot.recent.into_iter().map(|game| view! { <crate::pages::game::GameLine game /> }).collect_view()}
            </ul>
        }
    });
    view! {
        <li class="card bot-line" data-name=bot.name.clone() data-online=bot.online.to_string()>
            <h2>
                <a href=format!("/@/{}", bot.name)>{bot.name.clone()}</a>
                " " <span class="bot-tag">{t!(lang, "bots-tag")}</span>
            </h2>
            <p class="bot-status" class:online=bot.online>{status}</p>
            <p class="bot-ratings">{ratings}</p>
            {games}
            <p><a class="challenge-link" href=format!("/@/{}#challenge", bot.name) aria-label=t!(lang, "challenge-title", name = bot.name.clone())>{t!(lang, "challenge-send")}</a></p>
        </li>
    }
}

/// The bots' leaderboard of one pool.
fn board(lang: Lang, view: &BotsView, speed: Speed) -> impl IntoView {
    let lines = view.board(speed);
    let body = if lines.is_empty() {
        view! { <p class="muted">{t!(lang, "bots-board-empty")}</p> }.into_any()
    } else {
        view! {
            <table class="board-table">
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        <th scope="col">{t!(lang, "account-name")}</th>
                        <th scope="col">{t!(lang, "players-rating")}</th>
                        <th scope="col">{t!(lang, "players-games")}</th>
                    </tr>
                </thead>
                <tbody>
                    {lines
                        .into_iter()
                        .enumerate()
                        .map(|(i, (name, rating, games))| view! {
                            <tr>
                                <td>{i + 1}</td>
                                <td><a href=format!("/@/{name}")>{name.clone()}</a></td>
                                <td>{rating.text()}</td>
                                <td>{games}</td>
                            </tr>
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <section class="card" id=format!("bots-board-{}", speed.key())>
            <h2>{t!(lang, "bots-board", speed = speed_name(lang, speed))}</h2>
            {body}
        </section>
    }
}

#[component]
pub fn BotsPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let listing = Resource::new(|| (), |_| bots_page());
    view! {
        <main class="page bots-page">
            <header class="topbar">
                <a href="/">{t!(lang, "back-to-lobby")}</a>
                <crate::accounts::AccountLink />
                <crate::i18n::LangSwitch />
            </header>
            <h1>{t!(lang, "bots-title")}</h1>
            <p class="muted">{t!(lang, "bots-intro")}</p>
            <Suspense fallback=move || view! { <p>{t!(lang, "table-loading")}</p> }>
                {move || Suspend::new(async move {
                    let Some(loaded) = super::settled(listing).await else {
                        return ().into_any();
                    };
                    match loaded {
                        Ok(view) if view.bots.is_empty() => view! { <p id="bots-none">{t!(lang, "bots-none")}</p> }.into_any(),
                        Ok(view) => {
                            let boards = Speed::ALL.map(|speed| board(lang, &view, speed));
                            view! {
                                <ul class="bot-list" id="bots">
                                    {view.bots.into_iter().map(|bot| bot_card(lang, bot)).collect_view()}
                                </ul>
                                {boards.into_iter().collect_view()}
                            }
                            .into_any()
                        }
                        Err(error) => view! { <p class="error" role="alert">{error.text(lang)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
