//! `/@/<name>`: a player's public page — when they joined, their wins,
//! losses and draws against others, and their games, newest first.

use crate::archive::{get_profile, GameFilter};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

/// Games on one page of a profile (the server's page size).
const PAGE: usize = 50;

/// The filter form: plain GET, so it works before the page is interactive.
fn filter_form(lang: crate::i18n::Lang, filter: &GameFilter) -> impl IntoView {
    let option = |value: &'static str, label: String, chosen: &Option<String>| {
        let selected = chosen.as_deref().unwrap_or("all") == value;
        view! { <option value=value selected=selected>{label}</option> }
    };
    view! {
        <form class="row filters" id="profile-filter" method="get">
            <label>
                {t!(lang, "profile-filter-mode")} " "
                <select name="mode" id="filter-mode">
                    {option("all", t!(lang, "profile-filter-all"), &filter.mode)}
                    {option("online", t!(lang, "game-mode-online"), &filter.mode)}
                    {option("vs_ai", t!(lang, "profile-filter-vs-ai"), &filter.mode)}
                    {option("hot_seat", t!(lang, "profile-filter-hot-seat"), &filter.mode)}
                </select>
            </label>
            <label>
                {t!(lang, "profile-filter-result")} " "
                <select name="result" id="filter-result">
                    {option("all", t!(lang, "profile-filter-all"), &filter.result)}
                    {option("won", t!(lang, "profile-filter-won"), &filter.result)}
                    {option("lost", t!(lang, "profile-filter-lost"), &filter.result)}
                    {option("drawn", t!(lang, "profile-filter-drawn"), &filter.result)}
                </select>
            </label>
            <button type="submit" class="secondary" id="filter-apply">{t!(lang, "profile-filter-apply")}</button>
        </form>
    }
}

/// A date (UTC) as (year, month, day), from ms since the epoch.
pub fn civil_date(ms: i64) -> (i64, u8, u8) {
    // Howard Hinnant's days-to-civil algorithm.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u8;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// A date (UTC) as `YYYY-MM-DD`, from ms since the epoch (the same text on
/// the server and in the browser, so hydration matches).
pub fn date_text(ms: i64) -> String {
    let (year, month, day) = civil_date(ms);
    format!("{year:04}-{month:02}-{day:02}")
}

#[component]
pub fn ProfilePage() -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let params = use_params_map();
    let name = move || params.read().get("name").unwrap_or_default();
    let query = use_query_map();
    let key = move || {
        query.with(|q| {
            (
                name(),
                q.get("before").and_then(|b| b.parse::<i64>().ok()),
                GameFilter::from_query(q.get("mode"), q.get("result")),
            )
        })
    };
    let loaded = Resource::new(key, |(name, before, filter)| {
        get_profile(name, before, Some(filter))
    });
    view! {
        <Suspense fallback=move || view! { <main class="page"><p>{t!(lang, "table-loading")}</p></main> }>
            {move || Suspend::new(async move {
                let Some(loaded) = super::settled(loaded).await else { return ().into_any() };
                match loaded {
                    Ok(profile) => {
                        let (_, before, filter) = key();
                        // The next page: games older than the last one shown.
                        let older = (profile.games.len() == PAGE).then(|| {
                            let last = profile.games.last().map_or(0, |g| g.ended_at);
                            let mut href = format!("/@/{}?before={last}", profile.name);
                            if let Some(mode) = &filter.mode {
                                href.push_str(&format!("&mode={mode}"));
                            }
                            if let Some(result) = &filter.result {
                                href.push_str(&format!("&result={result}"));
                            }
                            view! { <p><a id="profile-older" href=href>{t!(lang, "profile-older")}</a></p> }
                        });
                        let newest = before.is_some().then(|| {
                            view! { <p><a id="profile-newest" href=format!("/@/{}", profile.name)>{t!(lang, "profile-newest")}</a></p> }
                        });
                        let form = filter_form(lang, &filter);
                        let games = if profile.games.is_empty() {
                            view! { <p id="profile-no-games">{t!(lang, "profile-no-games")}</p> }.into_any()
                        } else {
                            view! {
                                <ul class="game-list" id="profile-games">
                                    {profile
                                        .games
                                        .into_iter()
                                        .map(|game| view! { <crate::pages::game::GameLine game /> })
                                        .collect_view()}
                                </ul>
                            }
                            .into_any()
                        };
                        view! {
                            <main class="page profile-page">
                                <header class="topbar">
                                    <a href="/">{t!(lang, "back-to-lobby")}</a>
                                    <crate::accounts::AccountLink />
                                    <crate::i18n::LangSwitch />
                                </header>
                                <h1 id="profile-name">{profile.name.clone()}</h1>
                                {profile.bot.then(|| view! {
                                    <p id="profile-bot"><span class="bot-tag">{t!(lang, "bots-tag")}</span> " " {t!(lang, "bots-profile")}</p>
                                })}
                                <p id="profile-since">
                                    {t!(lang, "profile-since", date = date_text(profile.member_since))}
                                </p>
                                <div class="card profile-results">
                                    <p id="profile-results">
                                        {t!(
                                            lang,
                                            "profile-results",
                                            wins = profile.wins,
                                            losses = profile.losses,
                                            draws = profile.draws
                                        )}
                                    </p>
                                </div>
                                <crate::pages::players::ProfileRatings pools=profile.ratings />
                                <crate::pages::tournaments::ProfileTournaments results=profile.tournaments />
                                <p class="exports" id="profile-exports">
                                    <a id="export-ggf" href=format!("/@/{}/games.ggf", profile.name) download>{t!(lang, "profile-export-ggf")}</a>
                                    " · "
                                    <a id="export-wtb" href=format!("/@/{}/games.wtb", profile.name) download>{t!(lang, "profile-export-wtb")}</a>
                                    " · "
                                    <a id="export-jou" href=format!("/@/{}/players.jou", profile.name) download>{t!(lang, "profile-export-jou")}</a>
                                </p>
                                {(crate::accounts::signed_in().is_some() && crate::accounts::signed_in().as_deref() != Some(profile.name.as_str())).then(|| {
                                    view! { <crate::pages::challenges::ChallengeForm name=profile.name.clone() /> }
                                })}
                                {(crate::accounts::signed_in().as_deref() != Some(profile.name.as_str())).then(|| {
                                    view! { <crate::pages::report::ReportPlayer name=profile.name.clone() /> }
                                })}
                                <section class="card">
                                    <h2>{t!(lang, "profile-games")}</h2>
                                    {form}
                                    {games}
                                    {older}
                                    {newest}
                                </section>
                            </main>
                        }
                        .into_any()
                    }
                    // Its 404 status is set by the server (`routes.rs`).
                    Err(error) => view! {
                        <crate::pages::LoadFailed
                            title=t!(lang, "profile-not-found")
                            error=error
                            back_href="/"
                            back_label=t!(lang, "back-to-lobby")
                        />
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[cfg(test)]
mod tests {
    use super::date_text;

    #[test]
    fn dates_are_written_as_the_calendar_has_them() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(951_782_400_000), "2000-02-29");
        assert_eq!(date_text(1_796_256_000_000), "2026-12-03");
        assert_eq!(date_text(-86_400_000), "1969-12-31");
    }
}
