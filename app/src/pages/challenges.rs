//! Challenges in the pages: the form on a player's profile ("Challenge"),
//! and the notifier `hydrate()` mounts on every page for a signed-in player —
//! loaded as a chunk of its own after hydration ([`notifier_view`]), so the
//! lobby a newcomer loads carries none of it. The notifier looks every
//! three seconds (every second while they play in a running tournament): a
//! challenge sent to the player shows with Accept and Decline; one they sent
//! shows until it is answered, and an accepted one takes them to the table.
//! A tournament game of theirs, once its table exists, takes them there
//! from any page (once per game and browser; later a notice links to it),
//! and the table then names the opponent.

use crate::challenges::{
    answer_challenge, cancel_challenge, challenge, my_challenges, ChallengeLists, ChallengeStatus,
    ChallengeView, Colour, NewChallenge, TournamentGame,
};
use crate::i18n::Lang;
use crate::protocol::{TableId, TimeControl};
use leptos::prelude::*;

fn colour_text(lang: Lang, colour: Colour) -> String {
    match colour {
        Colour::Black => t!(lang, "challenge-colour-black"),
        Colour::White => t!(lang, "challenge-colour-white"),
        Colour::Random => t!(lang, "challenge-colour-random"),
    }
}

/// "3+2, rated" / "3+2, casual", and a random start or a synchro pair.
fn terms(lang: Lang, c: &ChallengeView) -> String {
    let kind = if c.rated {
        t!(lang, "tournament-rated")
    } else {
        t!(lang, "tournament-casual")
    };
    let mut terms = format!("{}, {}", c.control.label(), kind);
    if c.random_start {
        terms = format!("{terms}, {}", t!(lang, "challenge-random-start-short"));
    }
    if c.synchro {
        terms = format!("{terms}, {}", t!(lang, "challenge-synchro-short"));
    }
    terms
}

/// The colour the challenged player gets, as they read it.
fn their_colour(colour: Colour) -> Colour {
    match colour {
        Colour::Black => Colour::White,
        Colour::White => Colour::Black,
        Colour::Random => Colour::Random,
    }
}

/// "Challenge <name>" on a profile.
#[component]
pub fn ChallengeForm(name: String) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let control = RwSignal::new(0usize);
    let colour = RwSignal::new(String::from("random"));
    let rated = RwSignal::new(false);
    let random_start = RwSignal::new(false);
    let synchro = RwSignal::new(false);
    let (note, set_note) = signal(None::<(bool, String)>);
    let target = StoredValue::new(name.clone());
    let send = Action::new(move |new: &NewChallenge| challenge(new.clone()));
    // Set once the form is live in the browser (tests wait for it).
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    Effect::new(move |_| match send.value().get() {
        Some(Ok(_)) => set_note.set(Some((
            false,
            t!(lang, "challenge-sent", name = target.get_value()),
        ))),
        Some(Err(e)) => set_note.set(Some((true, e.text(lang)))),
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send.dispatch(NewChallenge {
            name: target.get_value(),
            control: TimeControl::PRESETS[control.get_untracked().min(2)],
            colour: Colour::parse(&colour.get_untracked()).unwrap_or(Colour::Random),
            rated: rated.get_untracked(),
            random_start: random_start.get_untracked(),
            synchro: synchro.get_untracked(),
        });
    };
    view! {
        <section class="card" id="challenge">
            <h2>{t!(lang, "challenge-title", name = name.clone())}</h2>
            <form class="tournament-form" on:submit=submit data-live=move || live.get().to_string()>
                <label>{t!(lang, "tournament-control")} " "
                    <select id="challenge-control" on:change=move |ev| control.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {TimeControl::PRESETS.iter().enumerate().map(|(i, c)| view! { <option value=i.to_string()>{c.label()}</option> }).collect_view()}
                    </select>
                </label>
                <label>{t!(lang, "challenge-colour")} " "
                    <select id="challenge-colour" on:change=move |ev| colour.set(event_target_value(&ev))>
                        {[Colour::Random, Colour::Black, Colour::White].into_iter().map(|c| view! { <option value=c.key()>{colour_text(lang, c)}</option> }).collect_view()}
                    </select>
                </label>
                <label><input id="challenge-rated" type="checkbox" bind:checked=rated /> " " {t!(lang, "tournament-rated")}</label>
                <label><input id="challenge-random-start" type="checkbox" bind:checked=random_start /> " " {t!(lang, "challenge-random-start")}</label>
                <label><input id="challenge-synchro" type="checkbox" bind:checked=synchro /> " " {t!(lang, "challenge-synchro")}</label>
                <button type="submit" id="challenge-send">{t!(lang, "challenge-send")}</button>
            </form>
            {move || note.get().map(|(error, text)| if error {
                view! { <p class="error" role="alert" id="challenge-note">{text}</p> }.into_any()
            } else {
                view! { <p role="status" id="challenge-note">{text}</p> }.into_any()
            })}
        </section>
    }
}

/// How long before a page first asked an accepted challenge may have been
/// accepted and still take the challenger to its table (the page they sent
/// it from may have just been left for another).
const ACCEPTED_LEAD_MS: i64 = 15_000;

/// The outgoing challenges to show: the open ones, and those answered or
/// expired since this page saw them open (an accepted one leads away).
fn shown_outgoing(lists: &ChallengeLists, seen: StoredValue<Vec<String>>) -> Vec<ChallengeView> {
    lists
        .outgoing
        .iter()
        .filter(|c| match c.status {
            ChallengeStatus::Open => true,
            ChallengeStatus::Accepted => false,
            _ => seen.with_value(|s| s.contains(&c.id)),
        })
        .cloned()
        .collect()
}

/// Mounts [`ChallengeNotifier`] at the end of the body: a chunk of its own
/// (`Err` when it could not be fetched: the page goes on without it).
#[cfg(feature = "hydrate")]
#[leptos::wasm_split::wasm_split(challenge_notifier, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn mount_notifier(lang: Lang) -> Result<(), crate::board::NotLoaded> {
    leptos::mount::mount_to_body(move || {
        provide_context(lang);
        view! { <ChallengeNotifier /> }
    });
    Ok(())
}

/// Goes to a page (a full load: the notifier lives outside the router).
fn go_to(path: &str) {
    #[cfg(feature = "hydrate")]
    let _ = window().location().set_href(path);
    #[cfg(not(feature = "hydrate"))]
    let _ = path;
}

/// The page's path ("" on the server).
fn current_path() -> String {
    #[cfg(feature = "hydrate")]
    return window().location().pathname().unwrap_or_default();
    #[cfg(not(feature = "hydrate"))]
    String::new()
}

/// The local storage key naming the last tournament table this browser was
/// taken to (each game takes a player there once).
const TAKEN_KEY: &str = "othello-tournament-taken";
/// The local storage key naming the last accepted challenge whose table this
/// browser was taken to (or was on): each takes a player there once, so a
/// page opened after a quick game does not lead back to its finished table.
const CHALLENGE_TAKEN_KEY: &str = "othello-challenge-taken";

/// Marks `value` as taken to under `key`; false when it already was
/// (another tab, or the player left it since).
fn take_once(key: &str, value: &str) -> bool {
    #[cfg(feature = "hydrate")]
    {
        let Ok(Some(storage)) = window().local_storage() else {
            return true;
        };
        if storage.get_item(key).ok().flatten().as_deref() == Some(value) {
            return false;
        }
        let _ = storage.set_item(key, value);
        true
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (key, value);
        false
    }
}

/// How long the notice naming the opponent stays on their table (s).
#[cfg(feature = "hydrate")]
const HERE_NOTICE_S: u64 = 10;

/// What the notifier says about the player's tournament game.
#[derive(Clone, Debug, PartialEq)]
enum Paired {
    /// On its table: the opponent named.
    Here(TournamentGame),
    /// Elsewhere, taken there once already: a link to it.
    Elsewhere(TournamentGame),
}

/// A signed-in player's challenges, looked at every three seconds.
#[component]
pub fn ChallengeNotifier() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let lists = RwSignal::new(ChallengeLists::default());
    let (error, set_error) = signal(None::<String>);
    // The outgoing challenges seen open on this page (an answer to one of
    // them is shown), and when this page first asked (the server's clock):
    // a challenge accepted since shortly before takes the player to its
    // table, once.
    let seen_open = StoredValue::new(Vec::<String>::new());
    let since = StoredValue::new(None::<i64>);
    let paired = RwSignal::new(None::<Paired>);
    // A notice closed by the player stays closed for that table.
    let closed = StoredValue::new(None::<TableId>);
    let announced = StoredValue::new(None::<TableId>);
    let waited = StoredValue::new(None::<TableId>);
    let fast = StoredValue::new(false);
    let ticks = StoredValue::new(0u32);
    let refresh = move || {
        leptos::task::spawn_local(async move {
            let Ok(now) = my_challenges().await else {
                return;
            };
            fast.set_value(now.in_tournament);
            if let Some(game) = now.tournament_game.clone() {
                let path = current_path();
                let here = path == format!("/table/{}", game.table);
                // The tournament's own page moves its player itself: the
                // notifier waits a look before it takes them.
                let on_page = path == format!("/tournaments/{}", game.tournament);
                let wait = on_page && waited.with_value(|w| w.as_ref() != Some(&game.table));
                if wait {
                    waited.set_value(Some(game.table.clone()));
                    return;
                }
                if !here && take_once(TAKEN_KEY, game.table.as_str()) {
                    // The sound first, from the page the player has clicked
                    // on (a page just opened may not make one), then away.
                    let table = format!("/table/{}", game.table);
                    if super::pairing_sound::play() {
                        #[cfg(feature = "hydrate")]
                        set_timeout(move || go_to(&table), std::time::Duration::from_millis(350));
                        #[cfg(not(feature = "hydrate"))]
                        go_to(&table);
                    } else {
                        go_to(&table);
                    }
                    return;
                }
                let shown = closed.with_value(|c| c.as_ref() != Some(&game.table));
                if here && closed.with_value(|c| c.as_ref() != Some(&game.table)) {
                    // On the table the notice names the opponent for a few
                    // seconds, then leaves the board's buttons clear.
                    let table = game.table.clone();
                    #[cfg(feature = "hydrate")]
                    if announced.with_value(|a| a.as_ref() != Some(&table)) {
                        announced.set_value(Some(table.clone()));
                        set_timeout(
                            move || {
                                closed.set_value(Some(table));
                                let _ = paired.try_set(None);
                            },
                            std::time::Duration::from_secs(HERE_NOTICE_S),
                        );
                    }
                    #[cfg(not(feature = "hydrate"))]
                    let _ = (table, announced);
                }
                let notice = if here {
                    Paired::Here(game)
                } else {
                    Paired::Elsewhere(game)
                };
                let _ = paired.try_set(shown.then_some(notice));
            } else {
                let _ = paired.try_set(None);
            }
            let first = *since.get_value().get_or_insert(now.now);
            since.set_value(Some(first));
            let accepted = now.outgoing.iter().find(|c| {
                c.status == ChallengeStatus::Accepted
                    && c.answered_at
                        .is_some_and(|at| at >= first - ACCEPTED_LEAD_MS)
            });
            // Once per challenge (not from that table's own page: the page
            // it opened would load itself again; being there counts).
            if let Some((id, path)) =
                accepted.and_then(|c| c.table.as_ref().map(|t| (&c.id, format!("/table/{t}"))))
            {
                if take_once(CHALLENGE_TAKEN_KEY, id) && path != current_path() {
                    go_to(&path);
                    return;
                }
            }
            seen_open.update_value(|seen| {
                seen.extend(
                    now.outgoing
                        .iter()
                        .filter(|c| c.status == ChallengeStatus::Open)
                        .map(|c| c.id.clone()),
                )
            });
            let _ = lists.try_set(now);
        });
    };
    #[cfg(feature = "hydrate")]
    {
        refresh();
        let tick = move || {
            ticks.update_value(|n| *n += 1);
            if fast.get_value() || ticks.get_value().is_multiple_of(3) {
                refresh();
            }
        };
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_secs(1)) {
            on_cleanup(move || handle.clear());
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (refresh, fast, ticks);
    let close = move |_| {
        closed.set_value(paired.with_untracked(|p| match p {
            Some(Paired::Here(g) | Paired::Elsewhere(g)) => Some(g.table.clone()),
            None => None,
        }));
        paired.set(None);
    };
    let answer = move |id: String, accept: bool| {
        leptos::task::spawn_local(async move {
            match answer_challenge(id.clone(), accept).await {
                Ok(Some(table)) => go_to(&format!("/table/{table}")),
                Ok(None) => lists.update(|l| l.incoming.retain(|c| c.id != id)),
                Err(e) => set_error.set(Some(e.text(lang))),
            }
        });
    };
    let withdraw = move |id: String| {
        leptos::task::spawn_local(async move {
            match cancel_challenge(id.clone()).await {
                Ok(()) => lists.update(|l| l.outgoing.retain(|c| c.id != id)),
                Err(e) => set_error.set(Some(e.text(lang))),
            }
        });
    };
    // The pairing sound's switch, as this browser keeps it.
    let (sound, set_sound) = signal(super::pairing_sound::enabled());
    view! {
        <aside class="challenges" id="challenges" aria-live="polite" aria-label=t!(lang, "challenge-list")>
            {move || paired.get().map(|p| {
                let (game, here) = match p {
                    Paired::Here(g) => (g, true),
                    Paired::Elsewhere(g) => (g, false),
                };
                let text = game.notice.text(lang);
                view! {
                    <div class="card challenge paired" id="tournament-paired" role="status">
                        <p>{text}</p>
                        {(!here).then(|| view! { <a class="button" id="tournament-paired-go" href=format!("/table/{}", game.table) rel="external">{t!(lang, "tournament-paired-go")}</a> " " })}
                        <button class="secondary" id="tournament-paired-close" on:click=close>{t!(lang, "tournament-paired-close")}</button>
                        <label class="check pairing-sound">
                            <input type="checkbox" id="tournament-sound" prop:checked=sound
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    super::pairing_sound::set_enabled(on);
                                    set_sound.set(on);
                                } />
                            {t!(lang, "tournament-sound")}
                        </label>
                    </div>
                }
            })}
            <For each=move || lists.get().incoming key=|c| c.id.clone() let:c>
                {
                    let (yes, no) = (c.id.clone(), c.id.clone());
                    view! {
                        <div class="card challenge incoming">
                            <p>{t!(lang, "challenge-incoming", name = c.other.clone(), terms = terms(lang, &c), colour = colour_text(lang, their_colour(c.colour)))}</p>
                            <button class="challenge-accept" on:click=move |_| answer(yes.clone(), true)>{t!(lang, "challenge-accept")}</button>
                            " "
                            <button class="secondary challenge-decline" on:click=move |_| answer(no.clone(), false)>{t!(lang, "challenge-decline")}</button>
                        </div>
                    }
                }
            </For>
            <For each=move || shown_outgoing(&lists.get(), seen_open) key=|c| (c.id.clone(), c.status as u8) let:c>
                {
                    let id = c.id.clone();
                    let text = match c.status {
                        ChallengeStatus::Open => t!(lang, "challenge-waiting", name = c.other.clone(), terms = terms(lang, &c)),
                        ChallengeStatus::Declined => t!(lang, "challenge-declined", name = c.other.clone()),
                        _ => t!(lang, "challenge-expired", name = c.other.clone()),
                    };
                    let open = c.status == ChallengeStatus::Open;
                    view! {
                        <div class="card challenge outgoing">
                            <p>{text}</p>
                            {open.then(|| view! { <button class="secondary challenge-withdraw" on:click=move |_| withdraw(id.clone())>{t!(lang, "challenge-withdraw")}</button> })}
                        </div>
                    }
                }
            </For>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </aside>
    }
}
