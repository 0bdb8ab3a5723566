//! `/tournaments` (the list and "create a Swiss") and `/tournaments/:id`
//! (standings with the Brightwell quotient, the crosstable, every round's
//! games, join and leave, the player's own game). A tournament's page is
//! live: its socket pushes the page after every change (every two seconds
//! it looks again itself while the socket is down), and it takes a player to
//! their game when a round pairs them.

use crate::i18n::Lang;
use crate::protocol::{TableId, TimeControl, TournamentId};
use crate::tournaments::{
    bq_text, create_tournament, join_tournament, leave_tournament, points_text, start_tournament,
    tournament, tournaments, EarlyEnd, EndedEarly, GameLine, Kind, NewTournament, StandingLine,
    Status, TournamentSummary, TournamentView,
};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};

/// A status as shown.
fn status_text(lang: Lang, status: Status) -> String {
    match status {
        Status::Open => t!(lang, "tournament-open"),
        Status::Running => t!(lang, "tournament-running"),
        Status::Finished => t!(lang, "tournament-finished"),
    }
}

/// When a tournament starts (UTC), as `YYYY-MM-DD HH:MM UTC`.
pub fn start_text(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!(
        "{} {:02}:{:02} UTC",
        super::profile::date_text(ms),
        minutes / 60,
        minutes % 60
    )
}

/// A tournament's name: a player's, or the schedule's by key.
pub fn display_name(lang: Lang, s: &TournamentSummary) -> String {
    crate::tournaments::scheduled_name(&s.name, s.kind, s.control)
        .map_or_else(|| s.name.clone(), |name| name.text(lang))
}

/// The line under a tournament's name: control, rounds, rated, players.
fn facts(lang: Lang, s: &TournamentSummary) -> String {
    let rated = if s.rated {
        t!(lang, "tournament-rated")
    } else {
        t!(lang, "tournament-casual")
    };
    let facts = match (s.kind, s.ends_at) {
        (Kind::Arena, Some(end)) => t!(
            lang,
            "tournament-arena-facts",
            control = s.control.label(),
            minutes = (end - s.starts_at) / 60_000,
            rated = rated,
            players = s.players
        ),
        _ => t!(
            lang,
            "tournament-facts",
            control = s.control.label(),
            rounds = s.rounds,
            rated = rated,
            players = s.players
        ),
    };
    if s.bots {
        format!("{facts} · {}", t!(lang, "tournament-bots-welcome"))
    } else {
        facts
    }
}

/// `/tournaments` (the list) or `/tournaments/:id` (one), by the address.
#[component]
pub fn TournamentsOrOne() -> impl IntoView {
    let params = use_params_map();
    move || match params.read().get("id") {
        Some(_) => view! { <TournamentPage /> }.into_any(),
        None => view! { <TournamentsPage /> }.into_any(),
    }
}

/// `/tournaments`.
#[component]
pub fn TournamentsPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let list = Resource::new(|| (), |_| tournaments());
    view! {
        <main class="page tournaments-page">
            <header class="topbar">
                <a href="/">{t!(lang, "back-to-lobby")}</a>
                <crate::accounts::AccountLink />
                <crate::i18n::LangSwitch />
            </header>
            <h1>{t!(lang, "tournaments-title")}</h1>
            <p class="muted">{t!(lang, "tournaments-rule")}</p>
            <Suspense fallback=move || view! { <p>{t!(lang, "table-loading")}</p> }>
                {move || Suspend::new(async move {
                    let Some(loaded) = super::settled(list).await else {
                        return ().into_any();
                    };
                    match loaded {
                        Ok(all) if all.is_empty() => view! { <p class="muted" id="no-tournaments">{t!(lang, "tournaments-none")}</p> }.into_any(),
                        Ok(all) => view! {
                            <ul class="tournament-list" id="tournament-list">
                                {all.into_iter().map(|s| view! {
                                    <li>
                                        <a href=format!("/tournaments/{}", s.id)>{display_name(lang, &s)}</a>
                                        " · " {status_text(lang, s.status)} " · " {facts(lang, &s)}
                                        " · " <span class="muted"><words::When ms=s.starts_at countdown=false /></span>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(error) => view! { <p class="error" role="alert">{error.text(lang)}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <CreateForm />
        </main>
    }
}

/// "Create a tournament" (a Swiss or an arena), for signed-in players.
#[component]
fn CreateForm() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let navigate = use_navigate();
    let (error, set_error) = signal(None::<String>);
    let name = RwSignal::new(String::new());
    let control = RwSignal::new(0usize);
    let rounds = RwSignal::new(String::from("3"));
    let arena = RwSignal::new(false);
    let minutes = RwSignal::new(String::from("30"));
    let starts = RwSignal::new(String::from("5"));
    let rated = RwSignal::new(true);
    let private = RwSignal::new(false);
    let bots = RwSignal::new(false);
    let create = Action::new(move |new: &NewTournament| create_tournament(new.clone()));
    Effect::new(move |_| match create.value().get() {
        Some(Ok(id)) => navigate(&format!("/tournaments/{id}"), Default::default()),
        Some(Err(e)) => set_error.set(Some(e.text(lang))),
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (Ok(rounds), Ok(starts), Ok(minutes)) = (
            rounds.get_untracked().trim().parse::<u32>(),
            starts.get_untracked().trim().parse::<u32>(),
            minutes.get_untracked().trim().parse::<u32>(),
        ) else {
            set_error.set(Some(t!(lang, "tournament-numbers")));
            return;
        };
        create.dispatch(NewTournament {
            name: name.get_untracked(),
            kind: if arena.get_untracked() {
                Kind::Arena
            } else {
                Kind::Swiss
            },
            minutes,
            control: TimeControl::PRESETS[control.get_untracked().min(2)],
            rated: rated.get_untracked(),
            private: private.get_untracked(),
            rounds,
            starts_in_minutes: starts,
            bots: arena.get_untracked() && bots.get_untracked(),
        });
    };
    let signed_in = crate::accounts::signed_in().is_some();
    view! {
        <section class="card" id="create-tournament">
            <h2>{t!(lang, "tournament-create")}</h2>
            <p class="muted">{t!(lang, "tournament-arena-rule")}</p>
            {(!signed_in).then(|| view! { <p class="muted">{t!(lang, "tournament-sign-in")} " " <a href="/account">{t!(lang, "account-sign-in")}</a></p> })}
            <form on:submit=submit class="tournament-form">
                <label>{t!(lang, "tournament-name")} " " <input id="tournament-name" bind:value=name maxlength="40" required /></label>
                <label>{t!(lang, "tournament-control")} " "
                    <select id="tournament-control" on:change=move |ev| control.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {TimeControl::PRESETS.iter().enumerate().map(|(i, c)| view! { <option value=i.to_string()>{c.label()}</option> }).collect_view()}
                    </select>
                </label>
                <label>{t!(lang, "tournament-kind")} " "
                    <select id="tournament-kind" on:change=move |ev| arena.set(event_target_value(&ev) == "arena")>
                        <option value="swiss">{t!(lang, "tournament-kind-swiss")}</option>
                        <option value="arena">{t!(lang, "tournament-kind-arena")}</option>
                    </select>
                </label>
                <Show when=move || !arena.get()>
                    <label>{t!(lang, "tournament-rounds")} " " <input id="tournament-rounds" type="number" min="1" max="11" bind:value=rounds /></label>
                </Show>
                <Show when=move || arena.get()>
                    <label>{t!(lang, "tournament-minutes")} " " <input id="tournament-minutes" type="number" min="5" max="180" bind:value=minutes /></label>
                    <label><input id="tournament-bots" type="checkbox" bind:checked=bots /> " " {t!(lang, "tournament-bots")}</label>
                </Show>
                <label>{t!(lang, "tournament-starts-in")} " " <input id="tournament-starts" type="number" min="0" bind:value=starts /></label>
                <label><input id="tournament-rated" type="checkbox" bind:checked=rated /> " " {t!(lang, "tournament-rated")}</label>
                <label><input id="tournament-private" type="checkbox" bind:checked=private /> " " {t!(lang, "tournament-private")}</label>
                <button type="submit" id="tournament-submit">{t!(lang, "tournament-create-button")}</button>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert" id="tournament-error">{e}</p> })}
        </section>
    }
}

/// `/tournaments/:id`.
#[component]
pub fn TournamentPage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let id = move || TournamentId::new(params.read().get("id").unwrap_or_default());
    let (tick, set_tick) = signal(0u32);
    let page = Resource::new(move || (id(), tick.get()), |(id, _)| tournament(id));
    let (error, set_error) = signal(None::<String>);
    // The page as the tournament's socket last pushed it (live standings);
    // while the socket is down, the page looks again every two seconds.
    let live = RwSignal::new(None::<TournamentView>);
    let connected = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    {
        Effect::new(move |_| socket::open(id(), live, connected));
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let over = page.with_untracked(
                    |p| matches!(p, Some(Ok(v)) if v.summary.status == Status::Finished),
                );
                if !over && !connected.get_untracked() {
                    set_tick.update(|t| *t += 1);
                }
            },
            std::time::Duration::from_secs(2),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    // A page fetched after the socket's (after a button) is the newer one.
    Effect::new(move |_| {
        if let Some(Ok(view)) = page.get() {
            if live.get_untracked().is_some() {
                live.set(Some(view));
            }
        }
    });
    let current = move || live.get().or_else(|| page.get().and_then(Result::ok));
    // A round that pairs the player takes them to their game, once.
    let navigate = use_navigate();
    let seen = StoredValue::new(None::<Option<TableId>>);
    Effect::new(move |_| {
        let Some(view) = current() else {
            return;
        };
        let before = seen.get_value();
        seen.set_value(Some(view.my_table.clone()));
        if let (Some(before), Some(table)) = (before, view.my_table) {
            if before.as_ref() != Some(&table) {
                super::pairing_sound::play();
                navigate(&format!("/table/{table}"), Default::default());
            }
        }
    });
    let act = Action::new(move |(what, id): &(Act, TournamentId)| {
        let (what, id) = (*what, id.clone());
        async move {
            match what {
                Act::Join => join_tournament(id).await,
                Act::Leave => leave_tournament(id).await,
                Act::Start => start_tournament(id).await,
            }
        }
    });
    Effect::new(move |_| match act.value().get() {
        Some(Ok(())) => {
            set_error.set(None);
            set_tick.update(|t| *t += 1);
        }
        Some(Err(e)) => set_error.set(Some(e.text(lang))),
        None => {}
    });
    view! {
        <main class="page tournament-page" data-live=move || connected.get().to_string()>
            <header class="topbar">
                <a href="/tournaments">{t!(lang, "tournaments-title")}</a>
                <crate::accounts::AccountLink />
                <crate::i18n::LangSwitch />
            </header>
            {move || match live.get() {
                Some(view) => view! { <Tournament view act /> }.into_any(),
                None => view! {
                    <Transition fallback=move || view! { <p>{t!(lang, "table-loading")}</p> }>
                        {move || Suspend::new(async move {
                            let Some(loaded) = super::settled(page).await else {
                                return ().into_any();
                            };
                            match loaded {
                                Ok(view) => view! { <Tournament view act /> }.into_any(),
                                Err(error) => view! { <p class="error" role="alert">{error.text(lang)}</p> }.into_any(),
                            }
                        })}
                    </Transition>
                }.into_any(),
            }}
            {move || error.get().map(|e| view! { <p class="error" role="alert" id="tournament-action-error">{e}</p> })}
        </main>
    }
}

/// The browser end of a tournament's socket.
#[cfg(feature = "hydrate")]
mod socket;

/// What a player's button asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Join,
    Leave,
    Start,
}

/// A loaded tournament.
#[component]
fn Tournament(
    view: TournamentView,
    act: Action<(Act, TournamentId), Result<(), crate::api::CommandError>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let s = view.summary.clone();
    let id = s.id.clone();
    let open = s.status == Status::Open;
    let over = s.status == Status::Finished;
    let arena = s.kind == Kind::Arena;
    let joinable = open || (arena && s.status == Status::Running);
    let leave_text = match (open, arena) {
        (true, _) => t!(lang, "tournament-leave"),
        (false, true) => t!(lang, "tournament-pause"),
        (false, false) => t!(lang, "tournament-withdraw"),
    };
    let button = match (view.signed_in, view.joined, over) {
        (true, false, false) if joinable => {
            Some(view! { <button id="tournament-join" on:click=move |_| { act.dispatch((Act::Join, id.clone())); }>{t!(lang, "tournament-join")}</button> }.into_any())
        }
        (true, true, false) => Some(view! { <button id="tournament-leave" class="secondary" on:click=move |_| { act.dispatch((Act::Leave, id.clone())); }>{leave_text}</button> }.into_any()),
        _ => None,
    };
    let start_id = s.id.clone();
    let start = (view.mine && open).then(|| {
        view! { <button id="tournament-start" on:click=move |_| { act.dispatch((Act::Start, start_id.clone())); }>{t!(lang, "tournament-start-now")}</button> }
    });
    // A time in the line is the reader's (a countdown to it), after the
    // sentence's words around it.
    let timed = |marked: String, ms: i64| {
        let (before, after) = marked.split_once('\u{1}').unwrap_or((marked.as_str(), ""));
        let (before, after) = (before.to_string(), after.to_string());
        view! { {before} <words::When ms countdown=true /> {after} }.into_any()
    };
    let round_line = match s.status {
        Status::Open => timed(t!(lang, "tournament-starts", at = "\u{1}"), s.starts_at),
        Status::Running => match s.ends_at {
            Some(end) if arena => timed(t!(lang, "tournament-arena-ends", at = "\u{1}"), end),
            _ => t!(lang, "tournament-round", round = s.round, rounds = s.rounds).into_any(),
        },
        Status::Finished => match view.ended_early {
            Some(EndedEarly {
                reason: EarlyEnd::Exhausted,
                after_round,
            }) => t!(lang, "tournament-ended-exhausted", round = after_round),
            Some(EndedEarly {
                reason: EarlyEnd::TooFew,
                after_round,
            }) => t!(lang, "tournament-ended-too-few", round = after_round),
            None => t!(lang, "tournament-final"),
        }
        .into_any(),
    };
    view! {
        <h1 id="tournament-name">{display_name(lang, &s)}</h1>
        <p class="muted">{facts(lang, &s)}</p>
        <p id="tournament-status" role="status">{round_line}</p>
        {view.my_table.clone().map(|table| view! { <p class="notice"><a id="my-game" href=format!("/table/{table}")>{t!(lang, "tournament-your-game")}</a></p> })}
        <p class="row">{button} {start}</p>
        {over.then(|| view! { <Podium lines=view.standings.clone() arena /> })}
        <Standings lines=view.standings.clone() multiplier=view.multiplier arena mine=view.my_line.clone() players=s.players bq_legacy=view.bq_legacy />
        {if arena {
            let all: Vec<GameLine> = view.rounds.iter().rev().flatten().cloned().collect();
            view! { <Round number=0 games=all /> }.into_any()
        } else {
            view.rounds.iter().enumerate().rev().map(|(i, games)| view! { <Round number=i + 1 games=games.clone() /> }).collect_view().into_any()
        }}
        <p><a id="tournament-export" href=format!("/tournaments/{}/export.txt", s.id) rel="external">{t!(lang, "tournament-export")}</a></p>
    }
}

/// The first three of a finished tournament, on steps: second, first, third.
#[component]
fn Podium(lines: Vec<StandingLine>, arena: bool) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let places: Vec<StandingLine> = lines.into_iter().filter(|l| l.games > 0).take(3).collect();
    (!places.is_empty()).then(|| {
        view! {
            <section class="card" id="podium">
                <h2>{t!(lang, "tournament-podium")}</h2>
                <ol class="podium">
                    {places.into_iter().map(|l| {
                        let points = if arena { l.points.to_string() } else { points_text(l.points) };
                        view! {
                            <li class=format!("step place-{}", l.rank)>
                                <span class="place" aria-hidden="true">{l.rank}</span>
                                <a href=format!("/@/{}", l.name)>{l.name.clone()}</a>
                                <span class="muted">{t!(lang, "tournament-podium-points", points = points)}</span>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </section>
        }
    })
}

/// A profile's tournaments: place, points, and a link to each.
#[component]
pub fn ProfileTournaments(results: Vec<crate::tournaments::TournamentResult>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    (!results.is_empty()).then(|| {
        view! {
            <section class="card" id="profile-tournaments">
                <h2>{t!(lang, "tournaments-title")}</h2>
                <ul>
                    {results.into_iter().map(|r| view! {
                        <li>
                            <a href=format!("/tournaments/{}", r.summary.id)>{display_name(lang, &r.summary)}</a>
                            " · " {t!(lang, "tournament-place", rank = r.rank, players = r.summary.players, points = if r.summary.kind == Kind::Arena { r.points.to_string() } else { points_text(r.points) })}
                        </li>
                    }).collect_view()}
                </ul>
            </section>
        }
    })
}

/// The page in words: the crosstable's legend, the BQ, local times.
mod words;

/// The standings and crosstable.
#[component]
fn Standings(
    lines: Vec<StandingLine>,
    multiplier: u32,
    arena: bool,
    mine: Option<StandingLine>,
    players: u32,
    /// Games against a withdrawn opponent keep their discs (an event
    /// finished before the WOC rule).
    bq_legacy: bool,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    if arena {
        return view! { <ArenaStandings lines mine players /> }.into_any();
    }
    let rounds = lines.iter().map(|l| l.results.len()).max().unwrap_or(0);
    view! {
        <section class="card" id="standings">
            <h2>{t!(lang, "tournament-standings")}</h2>
            <words::Legend multiplier mine rule=t!(lang, "tournament-bq-rule", multiplier = multiplier) />
            <p class="muted" id="bq-withdrawn">{if bq_legacy { t!(lang, "tournament-bq-legacy") } else { t!(lang, "tournament-bq-withdrawn") }}</p>
            <div class="table-scroll">
                <table class="board-table crosstable">
                    <thead><tr>
                        <th scope="col">"#"</th>
                        <th scope="col">{t!(lang, "account-name")}</th>
                        <th scope="col">{t!(lang, "tournament-points")}</th>
                        <th scope="col"><abbr title=t!(lang, "tournament-bq-title")>"BQ"</abbr></th>
                        <th scope="col">{t!(lang, "tournament-discs")}</th>
                        {(1..=rounds).map(|r| view! { <th scope="col">{t!(lang, "tournament-round-short", round = r)}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {lines.into_iter().map(|l| view! {
                            <tr class:withdrawn=l.withdrawn>
                                <td>{l.rank}</td>
                                <td><a href=format!("/@/{}", l.name)>{l.name.clone()}</a></td>
                                <td class="points">{points_text(l.points)}</td>
                                <td class="bq" title=words::bq_numbers(lang, false, &l, multiplier)>{bq_text(l.bq)}</td>
                                <td class="discs">{l.discs}</td>
                                {l.results.iter().map(|c| view! { <td class="cross" title=words::cell_title(lang, c)>{words::cell_text(lang, c)}</td> }).collect_view()}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}

/// An arena's standings: points (×2 on a streak), wins, games. A large
/// arena's page lists its leaders, then the reader's own line.
#[component]
fn ArenaStandings(
    lines: Vec<StandingLine>,
    mine: Option<StandingLine>,
    players: u32,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let shown = lines.len();
    let last = lines.last().map_or(0, |l| l.rank);
    let own = mine.filter(|m| m.rank > last);
    let lines: Vec<(StandingLine, bool)> = lines
        .into_iter()
        .map(|l| (l, false))
        .chain(own.map(|l| (l, true)))
        .collect();
    view! {
        <section class="card" id="standings">
            <h2>{t!(lang, "tournament-standings")}</h2>
            {(shown < players as usize).then(|| view! { <p class="muted" id="standings-leaders">{t!(lang, "tournament-leaders", shown = shown as u32, players = players)}</p> })}
            <table class="board-table">
                <thead><tr>
                    <th scope="col">"#"</th>
                    <th scope="col">{t!(lang, "account-name")}</th>
                    <th scope="col">{t!(lang, "tournament-points")}</th>
                    <th scope="col">{t!(lang, "tournament-wins")}</th>
                    <th scope="col">{t!(lang, "tournament-games")}</th>
                </tr></thead>
                <tbody>
                    {lines.into_iter().map(|(l, own)| view! {
                        <tr class:withdrawn=l.withdrawn class:own-line=own>
                            <td>{l.rank}</td>
                            <td><a href=format!("/@/{}", l.name)>{l.name.clone()}</a></td>
                            <td class="points">{l.points}{l.on_fire.then(|| view! { " " <span class="on-fire" title=t!(lang, "tournament-on-fire") aria-label=t!(lang, "tournament-on-fire")>"×2"</span> })}</td>
                            <td class="wins">{l.discs}</td>
                            <td class="games">{l.games}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

/// One round's games.
#[component]
fn Round(number: usize, games: Vec<GameLine>) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    view! {
        <section class="card round" id=format!("round-{number}")>
            <h2>{if number == 0 { t!(lang, "tournament-games") } else { t!(lang, "tournament-round-title", round = number as u32) }}</h2>
            <ul>
                {games.into_iter().map(|g| {
                    let result = match (g.black_discs, g.white_discs, &g.white) {
                        (_, _, None) => t!(lang, "tournament-bye"),
                        (Some(b), Some(w), _) => format!("{b}–{w}"),
                        _ => t!(lang, "tournament-playing"),
                    };
                    let link = match (&g.game, &g.table) {
                        (Some(game), _) => Some(view! { <a href=format!("/game/{game}")>{t!(lang, "tournament-replay")}</a> }.into_any()),
                        (None, Some(table)) if g.white.is_some() => Some(view! { <a href=format!("/table/{table}")>{t!(lang, "tournament-watch")}</a> }.into_any()),
                        _ => None,
                    };
                    view! {
                        <li class="game-line">
                            <span class="disc black" aria-hidden="true"></span> {g.black.clone()}
                            {g.white.clone().map(|w| view! { " – " <span class="disc white" aria-hidden="true"></span> {w} })}
                            " · " <span class="result">{result}</span> " " {link}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
