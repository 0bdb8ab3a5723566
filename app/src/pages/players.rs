//! Players and their ratings: the players card at an online table (names,
//! ratings with a `?` while provisional, the last rated round's change),
//! the lobby's "your ratings" line, a profile's rating graph, and the
//! leaderboard page `/players`.

use crate::protocol::{RoundStatus, Side, Speed, TableMode, TableView};
use crate::ratings::{
    change_text, leaderboard, my_ratings, search_players, table_players, PoolRating, SeatTag,
};
use leptos::prelude::*;

pub(crate) fn speed_name(lang: crate::i18n::Lang, speed: Speed) -> String {
    match speed {
        Speed::Blitz => t!(lang, "speed-blitz"),
        Speed::Rapid => t!(lang, "speed-rapid"),
    }
}

/// One seat's line: the disc, the name (a link to the profile), the rating
/// and, once a rated round is over, its change.
fn seat_line(lang: crate::i18n::Lang, side: Side, tag: SeatTag, over: bool) -> impl IntoView {
    let disc = match side {
        Side::Black => "disc black",
        Side::White => "disc white",
    };
    let id = match side {
        Side::Black => "player-black",
        Side::White => "player-white",
    };
    let bot = tag
        .bot
        .then(|| view! { " " <span class="bot-tag">{t!(lang, "bots-tag")}</span> });
    let name = match tag.name {
        Some(name) => view! { <a href=format!("/@/{name}")>{name.clone()}</a> {bot} }.into_any(),
        None => view! { <span class="muted">{t!(lang, "players-anonymous")}</span> }.into_any(),
    };
    let rating = tag.rating.map(
        |r| view! { <span class="rating" title=t!(lang, "players-rating-title")>{r.text()}</span> },
    );
    let change = tag.change.filter(|_| over).map(|c| {
        let class = match c {
            c if c > 0 => "rating-change up",
            c if c < 0 => "rating-change down",
            _ => "rating-change",
        };
        view! { <span class=class>{change_text(c)}</span> }
    });
    view! {
        <p class="player" id=id>
            <span class=disc aria-hidden="true"></span>
            " " {name} " " {rating} " " {change}
        </p>
    }
}

/// The players of an online table, fetched again when the seats change or
/// a round ends.
#[component]
pub fn PlayersCard(
    table: crate::protocol::TableId,
    view: RwSignal<TableView>,
    /// Where the card leaves its last answer (the result line reads the
    /// player's new rating there).
    seen: RwSignal<Option<crate::ratings::PlayersView>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let online = move || view.with(|v| matches!(v.mode, TableMode::Online { .. }));
    let over = move || view.with(|v| matches!(v.status, RoundStatus::Over { .. }));
    let key = move || {
        view.with(|v| {
            (
                v.round,
                matches!(v.status, RoundStatus::Over { .. }),
                v.seats.map(|s| (s.black.taken, s.white.taken)),
            )
        })
    };
    let table_id = StoredValue::new(table.clone());
    let players = Resource::new(key, move |_| table_players(table.clone()));
    view! {
        <Show when=online>
            <Suspense fallback=|| ()>
                {move || {
                let table_id = Some(table_id.get_value());
                Suspend::new(async move {
                    let Some(Ok(players)) = super::settled(players).await else {
                        return ().into_any();
                    };
                    let _ = seen.try_set(Some(players.clone()));
                    if players.black.name.is_none() && players.white.name.is_none() {
                        return ().into_any();
                    }
                    let over = over();
                    let provisional = [&players.black, &players.white]
                        .into_iter()
                        .any(|s| s.rating.is_some_and(|r| r.provisional));
                    // Report another named player at this table.
                    let me = crate::accounts::signed_in();
                    let reportable: Vec<String> = [&players.black.name, &players.white.name]
                        .into_iter()
                        .flatten()
                        .filter(|name| me.as_deref() != Some(name.as_str()))
                        .cloned()
                        .collect();
                    let reports = reportable
                        .into_iter()
                        .take(1)
                        .map(|name| view! { <crate::pages::report::ReportPlayer name table=table_id.clone() /> })
                        .collect_view();
                    view! {
                        <div class="card players" id="players">
                            {players.rated.then(|| view! { <p class="muted" id="rated-table">{t!(lang, "players-rated")}</p> })}
                            {players.linked.then(|| view! { <p class="notice" id="unrated-linked" role="note">{t!(lang, "players-unrated-linked")}</p> })}
                            {provisional_note(lang, provisional)}
                            {seat_line(lang, Side::Black, players.black, over)}
                            {seat_line(lang, Side::White, players.white, over)}
                            {reports}
                        </div>
                    }
                    .into_any()
                })}}
            </Suspense>
        </Show>
    }
}

/// What a `?` after a rating means, said where one is shown.
fn provisional_note(lang: crate::i18n::Lang, any: bool) -> Option<impl IntoView> {
    any.then(|| {
        view! {
            <p class="muted provisional-note">
                {t!(lang, "players-provisional", games = crate::ratings::SETTLES_AFTER_GAMES)}
            </p>
        }
    })
}

/// The lobby's links for a signed-in player: their ratings (on their
/// profile) and the leaderboard. Plain links: the lobby loads no code to
/// fetch ratings (its byte budget, `tests/browser/perf.spec.ts`).
#[component]
pub fn RatingLinks(name: String) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <p class="my-ratings" id="my-ratings">
            <a href=format!("/@/{name}")>{t!(lang, "players-your-ratings-link")}</a>
            " · "
            <a href="/players">{t!(lang, "players-leaderboard")}</a>
        </p>
    }
}

/// The signed-in player's ratings as one line (the account page).
#[component]
pub fn MyRatings() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let signed_in = crate::accounts::signed_in().is_some();
    let ratings = Resource::new(|| (), |_| my_ratings());
    signed_in.then(|| {
        view! {
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let Some(Ok(pools)) = super::settled(ratings).await else {
                        return ().into_any();
                    };
                    let text = if pools.is_empty() {
                        t!(lang, "players-no-ratings")
                    } else {
                        pools
                            .iter()
                            .map(|p| format!("{} {}", speed_name(lang, p.speed), p.rating.text()))
                            .collect::<Vec<_>>()
                            .join(" · ")
                    };
                    let provisional = pools.iter().any(|p| p.rating.provisional);
                    view! {
                        <div class="card my-ratings" id="account-ratings">
                            <p>
                                {t!(lang, "players-your-ratings")} " " {text} " · "
                                <a href="/players">{t!(lang, "players-leaderboard")}</a>
                            </p>
                            {provisional_note(lang, provisional)}
                        </div>
                    }
                    .into_any()
                })}
            </Suspense>
        }
    })
}

/// A rating history as an SVG line, newest on the right.
fn graph(lang: crate::i18n::Lang, pool: &PoolRating) -> impl IntoView {
    const W: f64 = 320.0;
    const H: f64 = 120.0;
    const PAD: f64 = 8.0;
    let points = &pool.history;
    let (low, high) = points
        .iter()
        .fold((i32::MAX, i32::MIN), |(lo, hi), (_, r)| {
            (lo.min(*r), hi.max(*r))
        });
    let span = f64::from((high - low).max(50));
    let mid = (f64::from(high) + f64::from(low)) / 2.0;
    let n = points.len().max(2) - 1;
    let path = points
        .iter()
        .enumerate()
        .map(|(i, (_, r))| {
            let x = PAD + (W - 2.0 * PAD) * i as f64 / n as f64;
            let y = H / 2.0 - (f64::from(*r) - mid) / span * (H - 2.0 * PAD);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ");
    let label = t!(
        lang,
        "players-graph-label",
        speed = speed_name(lang, pool.speed),
        low = low.min(high),
        high = high.max(low)
    );
    view! {
        <svg
            class="rating-graph"
            id=format!("graph-{}", pool.speed.key())
            viewBox=format!("0 0 {W} {H}")
            role="img"
            aria-label=label
        >
            <polyline points=path fill="none" stroke="currentColor" stroke-width="2" />
        </svg>
    }
}

/// A profile's ratings: one card per pool played, with its graph.
#[component]
pub fn ProfileRatings(pools: Vec<PoolRating>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    (!pools.is_empty()).then(|| {
        view! {
            <section class="card profile-ratings" id="profile-ratings">
                <h2>{t!(lang, "players-ratings")}</h2>
                {provisional_note(lang, pools.iter().any(|p| p.rating.provisional))}
                {pools
                    .into_iter()
                    .map(|pool| {
                        view! {
                            <div class="pool" id=format!("rating-{}", pool.speed.key())>
                                <p>
                                    <strong>{speed_name(lang, pool.speed)}</strong> " "
                                    <span class="rating">{pool.rating.text()}</span> " "
                                    <span class="muted">{t!(lang, "players-rated-games", count = pool.games)}</span>
                                </p>
                                {(pool.history.len() > 1).then(|| graph(lang, &pool))}
                            </div>
                        }
                    })
                    .collect_view()}
            </section>
        }
    })
}

/// Players by the start of their name (`?q=`, so the form works without
/// JavaScript too), each with their ratings and a link to challenge them.
#[component]
fn PlayerSearch() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let first = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("q"))
        .unwrap_or_default();
    let typed = RwSignal::new(first.clone());
    let asked = RwSignal::new(first);
    let found = Resource::new(
        move || asked.get(),
        |prefix| async move {
            if prefix.is_empty() {
                return Ok(None);
            }
            search_players(prefix).await.map(Some)
        },
    );
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        asked.set(typed.get_untracked().trim().to_string());
    };
    let me = crate::accounts::signed_in();
    view! {
        <section class="card player-search" id="player-search">
            <h2>{t!(lang, "players-search")}</h2>
            <form method="get" action="/players" role="search" on:submit=submit>
                <label for="player-search-input">{t!(lang, "players-search-label")}</label> " "
                <input id="player-search-input" name="q" type="search" minlength="2" maxlength="20"
                    autocomplete="off" prop:value=move || typed.get()
                    on:input=move |ev| typed.set(event_target_value(&ev)) /> " "
                <button id="player-search-go" type="submit">{t!(lang, "players-search-go")}</button>
            </form>
            <div aria-live="polite">
            <Suspense fallback=|| ()>
                {move || {
                    let me = me.clone();
                    Suspend::new(async move {
                        match super::settled(found).await {
                            Some(Ok(Some(players))) if players.is_empty() => {
                                view! { <p class="muted" id="player-search-none">{t!(lang, "players-search-none")}</p> }.into_any()
                            }
                            Some(Ok(Some(players))) => {
                                let rows = players
                                    .into_iter()
                                    .map(|p| {
                                        let ratings = if p.ratings.is_empty() {
                                            t!(lang, "players-search-unrated")
                                        } else {
                                            p.ratings
                                                .iter()
                                                .map(|(speed, r)| format!("{} {}", speed_name(lang, *speed), r.text()))
                                                .collect::<Vec<_>>()
                                                .join(" · ")
                                        };
                                        let challenge = (me.as_deref() != Some(p.name.as_str())).then(|| view! {
                                            <a class="button secondary challenge-link" href=format!("/@/{}#challenge", p.name)
                                                aria-label=t!(lang, "challenge-title", name = p.name.clone())>
                                                {t!(lang, "challenge-send")}
                                            </a>
                                        });
                                        view! {
                                            <li data-name=p.name.clone()>
                                                <a class="found-name" href=format!("/@/{}", p.name)>{p.name.clone()}</a>
                                                " " <span class="rating muted">{ratings}</span>
                                                " " {challenge}
                                            </li>
                                        }
                                    })
                                    .collect_view();
                                view! { <ul class="found-players" id="player-search-results">{rows}</ul> }.into_any()
                            }
                            Some(Err(error)) => view! { <p class="error" role="alert">{error.text(lang)}</p> }.into_any(),
                            _ => ().into_any(),
                        }
                    })
                }}
            </Suspense>
            </div>
        </section>
    }
}

/// `/players`: the best 50 of each pool.
#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let boards = Resource::new(
        || (),
        |_| async move {
            let mut all = Vec::new();
            for speed in Speed::ALL {
                all.push((speed, leaderboard(speed).await?));
            }
            Ok::<_, crate::api::CommandError>(all)
        },
    );
    view! {
        <main class="page leaderboard-page">
            <header class="topbar">
                <a href="/">{t!(lang, "back-to-lobby")}</a>
                <crate::accounts::AccountLink />
                <crate::i18n::LangSwitch />
            </header>
            <h1>{t!(lang, "players-leaderboard")}</h1>
            <PlayerSearch />
            <p class="muted">{t!(lang, "players-leaderboard-rule")}</p>
            <Suspense fallback=move || view! { <p>{t!(lang, "table-loading")}</p> }>
                {move || Suspend::new(async move {
                    let Some(loaded) = super::settled(boards).await else {
                        return ().into_any();
                    };
                    match loaded {
                        Ok(all) => all
                            .into_iter()
                            .map(|(speed, lines)| {
                                let body = if lines.is_empty() {
                                    view! { <p class="muted">{t!(lang, "players-board-empty")}</p> }.into_any()
                                } else {
                                    view! {
                                        <table class="board-table">
                                            <thead>
                                                <tr>
                                                    <th scope="col">"#"</th>
                                                    <th scope="col">{t!(lang, "account-name")}</th>
                                                    <th scope="col">{t!(lang, "players-rating")}</th>
                                                    <th scope="col">{t!(lang, "players-games")}</th>
                                                    <th scope="col"><span class="sr-only">{t!(lang, "challenge-send")}</span></th>
                                                </tr>
                                            </thead>
                                            <tbody>
                                                {lines
                                                    .into_iter()
                                                    .map(|line| view! {
                                                        <tr>
                                                            <td>{line.rank}</td>
                                                            <td><a href=format!("/@/{}", line.name)>{line.name.clone()}</a></td>
                                                            <td>{line.rating}</td>
                                                            <td>{line.games}</td>
                                                            <td><a class="challenge-link" href=format!("/@/{}#challenge", line.name) aria-label=t!(lang, "challenge-title", name = line.name.clone())>{t!(lang, "challenge-send")}</a></td>
                                                        </tr>
                                                    })
                                                    .collect_view()}
                                            </tbody>
                                        </table>
                                    }
                                    .into_any()
                                };
                                view! {
                                    <section class="card" id=format!("board-{}", speed.key())>
                                        <h2>{speed_name(lang, speed)}</h2>
                                        {body}
                                    </section>
                                }
                            })
                            .collect_view()
                            .into_any(),
                        Err(error) => view! { <p class="error" role="alert">{error.text(lang)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
