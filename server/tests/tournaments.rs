//! Swiss tournaments end to end, with the server in process and a manual
//! clock: who may create and join, five players over three rounds (a bye
//! each round), games ended by resignation, on time and by moves, no
//! rematch at a tournament table, withdrawal, and the standings and BQ
//! checked against a computation of this test's own from the archived
//! games; fair play (linked accounts never paired in a rated Swiss or arena,
//! a game linked or marked after its pairing scoring nothing, marked abusers
//! kept out of rated events), each event's BQ rule, and a Swiss that ends
//! early saying why. (Over 600 lines: one scenario per test — a Swiss,
//! withdrawal, the schedule, an arena, the live page, berserk, fair play —
//! each a whole tournament.)

#[path = "support/pg.rs"]
mod pg;
mod support;

use app::protocol::{EndReason, GameId, Side, TableId, TimeControl};
use app::tournaments::{NewTournament, Status, TournamentView};
use serde_json::json;
use server::clock::ManualClock;
use std::collections::HashMap;
use support::Live;
use testclient::{Client, Refusal};

const PASSWORD: &str = "violet kettle marches sideways";

fn refused<T: std::fmt::Debug>(answer: Result<T, Refusal>, status: u16, text: &str) {
    let refusal = answer.expect_err("refused");
    assert_eq!(refusal.status, status, "{refusal}");
    assert!(refusal.message.contains(text), "{refusal}");
}

fn swiss(name: &str, rounds: u32) -> NewTournament {
    NewTournament {
        name: name.into(),
        kind: Default::default(),
        minutes: 0,
        control: TimeControl::PRESETS[0],
        rated: true,
        private: false,
        rounds,
        starts_in_minutes: 1,
        bots: false,
    }
}

async fn create(client: &Client, new: NewTournament) -> Result<String, Refusal> {
    client
        .call("create_tournament", json!({ "new": new }))
        .await
}

async fn view(client: &Client, id: &str) -> TournamentView {
    client
        .call("tournament", json!({ "id": id }))
        .await
        .expect("tournament page")
}

/// The WOC's disc count, written again here as the test's oracle.
fn discs(winner: Option<Side>, reason: EndReason, black: u32, white: u32) -> (u32, u32, u32, u32) {
    let empty = 64 - black - white;
    match (winner, reason) {
        (_, EndReason::Abandoned) => (0, 0, black, white),
        (None, _) => (1, 1, black + empty / 2, white + empty - empty / 2),
        (Some(side), reason) => {
            let (w, l) = if side == Side::Black {
                (black, white)
            } else {
                (white, black)
            };
            let (w, l) = if reason == EndReason::Finished {
                (w + empty, l)
            } else {
                let w = (w + empty).max(33);
                (w, 64 - w)
            };
            if side == Side::Black {
                (2, 0, w, l)
            } else {
                (0, 2, l, w)
            }
        }
    }
}

#[tokio::test]
async fn a_swiss_of_five_pairs_scores_and_ranks_by_brightwell_quotient() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;

    // Only signed-in players create; names and rounds are checked.
    let anonymous = live.browser().await;
    refused(
        create(&anonymous, swiss("Evening", 3)).await,
        422,
        "signed-in",
    );
    let names = ["anna", "basil", "chloe", "dimitri", "eleni"];
    let mut players: HashMap<&str, Client> = HashMap::new();
    for name in names {
        let client = live.browser().await;
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.insert(name, client);
    }
    let anna = &players["anna"];
    refused(create(anna, swiss("   ", 3)).await, 422, "1 to 40");
    refused(create(anna, swiss("Evening", 0)).await, 422, "1 to 11");
    let mut bad_control = swiss("Evening", 3);
    bad_control.control = TimeControl {
        base_s: 7,
        increment_s: 0,
    };
    refused(create(anna, bad_control).await, 422, "");
    // Malformed JSON is a 400, never a 500.
    let (status, _) = anna
        .call_raw("create_tournament", &json!({ "new": { "name": 3 } }))
        .await
        .expect("answer");
    assert_eq!(status, 400);
    let id = create(anna, swiss("Evening", 3)).await.expect("created");
    refused(
        anonymous
            .call::<()>("join_tournament", json!({ "id": id }))
            .await,
        422,
        "signed-in",
    );
    refused(
        anna.call::<()>("join_tournament", json!({ "id": "nope" }))
            .await,
        404,
        "No such tournament",
    );
    // A malformed id names nothing either (refused before any query).
    for malformed in ["../x", "", "a b", &"x".repeat(65)] {
        refused(
            anna.call::<()>("join_tournament", json!({ "id": malformed }))
                .await,
            404,
            "No such tournament",
        );
    }
    for name in names {
        players[name]
            .call::<()>("join_tournament", json!({ "id": id }))
            .await
            .expect("join");
    }
    // Joining twice changes nothing; leaving before the start removes.
    anna.call::<()>("join_tournament", json!({ "id": id }))
        .await
        .expect("join again");
    let page = view(&anonymous, &id).await;
    assert_eq!(page.summary.players, 5);
    assert_eq!(page.summary.status, Status::Open);
    assert!(!page.joined);
    assert!(view(anna, &id).await.joined);
    let list: Vec<app::tournaments::TournamentSummary> = anonymous
        .call("tournaments", json!({}))
        .await
        .expect("list");
    assert!(list.iter().any(|t| t.id.as_str() == id));

    // Not yet due: nothing happens.
    live.tournaments.tick().await;
    assert_eq!(view(anna, &id).await.summary.round, 0);
    clock.advance(61_000);

    for round in 1..=3u32 {
        live.tournaments.tick().await;
        let page = view(anna, &id).await;
        assert_eq!(page.summary.status, Status::Running);
        assert_eq!(page.summary.round, round);
        let games = &page.rounds[round as usize - 1];
        assert_eq!(games.len(), 3, "two games and a bye");
        assert_eq!(games.iter().filter(|g| g.white.is_none()).count(), 1);
        // The bye's player has no game to be taken to.
        let bye = games.iter().find(|g| g.white.is_none()).expect("a bye");
        let sitting = players[bye.black.as_str()]
            .my_challenges()
            .await
            .expect("the bye's");
        assert!(sitting.in_tournament && sitting.tournament_game.is_none());
        // A late joiner is refused.
        let late = live.browser().await;
        late.sign_up(&format!("late{round}"), PASSWORD)
            .await
            .expect("sign up");
        refused(
            late.call::<()>("join_tournament", json!({ "id": id }))
                .await,
            409,
            "has started",
        );
        let mut ways = [EndReason::Resigned, EndReason::Time].into_iter();
        for game in games.iter().filter(|g| g.white.is_some()) {
            let table = TableId::new(game.table.clone().expect("a table"));
            let black = &players[game.black.as_str()];
            let white = &players[game.white.as_deref().expect("white")];
            // Each player finds their game on the tournament's page.
            assert_eq!(
                view(black, &id).await.my_table.as_ref().map(|t| t.as_str()),
                Some(table.as_str())
            );
            // And on any page: the notifier's answer names the table and
            // the opponent (issue 67).
            let mine = black.my_challenges().await.expect("black's");
            assert!(mine.in_tournament);
            let game_ready = mine.tournament_game.expect("the game is ready");
            assert_eq!(game_ready.table, table);
            assert_eq!(game_ready.round, round);
            assert_eq!(Some(game_ready.opponent.as_str()), game.white.as_deref());
            let seated = black.get_table(&table).await.expect("table");
            assert_eq!(seated.you, vec![Side::Black]);
            match ways.next().expect("two games") {
                EndReason::Resigned => {
                    // Two moves, then white resigns.
                    let view = black.get_table(&table).await.expect("view");
                    black
                        .play_move(&table, view.board.legal[0])
                        .await
                        .expect("black moves");
                    let view = white.get_table(&table).await.expect("view");
                    white
                        .play_move(&table, view.board.legal[0])
                        .await
                        .expect("white moves");
                    white.resign(&table, None).await.expect("resign");
                }
                _ => {
                    // One move each (the clocks start at a side's first
                    // move), then black's clock runs out; a tournament
                    // game is lost, never aborted.
                    let view = black.get_table(&table).await.expect("view");
                    black
                        .play_move(&table, view.board.legal[0])
                        .await
                        .expect("black moves");
                    let view = white.get_table(&table).await.expect("view");
                    white
                        .play_move(&table, view.board.legal[0])
                        .await
                        .expect("white moves");
                    clock.advance(181_000);
                    live.hub.check_presence().await;
                }
            }
            let over = white.get_table(&table).await.expect("view");
            assert!(
                matches!(over.status, app::protocol::RoundStatus::Over { .. }),
                "{:?}",
                over.status
            );
            // No rematch at a tournament table.
            refused(
                white.vote_rematch(&table, None, true).await,
                422,
                "no rematch",
            );
        }
        live.tournaments.tick().await;
        let page = view(anna, &id).await;
        assert!(page.rounds[round as usize - 1]
            .iter()
            .all(|g| g.black_points.is_some()));
        // The same step pairs the next round, once this one is scored.
        let next = if round < 3 { round + 1 } else { round };
        assert_eq!(page.summary.round, next);
    }
    live.tournaments.tick().await;
    let page = view(&anonymous, &id).await;
    assert_eq!(page.summary.status, Status::Finished);

    // Nobody met twice; everybody had at most one bye.
    let mut met = std::collections::HashSet::new();
    let mut byes: HashMap<String, u32> = HashMap::new();
    for games in &page.rounds {
        for g in games {
            match &g.white {
                Some(w) => {
                    let pair = if g.black < *w {
                        (g.black.clone(), w.clone())
                    } else {
                        (w.clone(), g.black.clone())
                    };
                    assert!(met.insert(pair), "a repeat pairing");
                }
                None => *byes.entry(g.black.clone()).or_default() += 1,
            }
        }
    }
    assert!(byes.values().all(|n| *n == 1));

    // The standings, recomputed from the archived games.
    let mut points: HashMap<String, u32> = HashMap::new();
    let mut disc_total: HashMap<String, u32> = HashMap::new();
    let mut opponents: HashMap<String, Vec<Option<String>>> = HashMap::new();
    for games in &page.rounds {
        for g in games {
            let Some(white) = g.white.clone() else {
                *points.entry(g.black.clone()).or_default() += 2;
                *disc_total.entry(g.black.clone()).or_default() += 32;
                opponents.entry(g.black.clone()).or_default().push(None);
                continue;
            };
            let archived = anonymous
                .get_game(&GameId::new(g.game.clone().expect("archived")))
                .await
                .expect("archived game");
            assert_ne!(archived.reason, EndReason::Aborted);
            let (bp, wp, bd, wd) = discs(
                archived.winner,
                archived.reason,
                u32::from(archived.black_discs),
                u32::from(archived.white_discs),
            );
            *points.entry(g.black.clone()).or_default() += bp;
            *points.entry(white.clone()).or_default() += wp;
            *disc_total.entry(g.black.clone()).or_default() += bd;
            *disc_total.entry(white.clone()).or_default() += wd;
            opponents
                .entry(g.black.clone())
                .or_default()
                .push(Some(white.clone()));
            opponents
                .entry(white.clone())
                .or_default()
                .push(Some(g.black.clone()));
        }
    }
    let mut expected: Vec<(String, u32, f64, u32)> = names
        .iter()
        .map(|n| {
            let n = n.to_string();
            let own = points[&n];
            let opp: u32 = opponents[&n]
                .iter()
                .map(|o| o.as_ref().map_or(own, |o| points[o]))
                .sum();
            let bq = f64::from(disc_total[&n]) + 6.0 * f64::from(opp) / 2.0;
            (n.clone(), own, bq, disc_total[&n])
        })
        .collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(b.3.cmp(&a.3)));
    for (line, (name, points, bq, discs)) in page.standings.iter().zip(&expected) {
        assert_eq!(line.points, *points, "{name}");
        assert_eq!(line.bq, *bq, "{name}");
        assert_eq!(line.discs, *discs, "{name}");
    }
    // Names in rank order, where ties are fully broken.
    let shown: Vec<(u32, f64, u32)> = page
        .standings
        .iter()
        .map(|l| (l.points, l.bq, l.discs))
        .collect();
    let wanted: Vec<(u32, f64, u32)> = expected.iter().map(|e| (e.1, e.2, e.3)).collect();
    assert_eq!(shown, wanted);

    // Each player's profile shows their place.
    for (rank, line) in page.standings.iter().enumerate() {
        let profile = anonymous
            .get_profile(&line.name, None)
            .await
            .expect("profile");
        assert_eq!(profile.tournaments.len(), 1, "{}", line.name);
        assert_eq!(profile.tournaments[0].rank, rank as u32 + 1);
        assert_eq!(profile.tournaments[0].points, line.points);
        assert_eq!(profile.tournaments[0].summary.id.as_str(), id);
    }

    // The text export lists every player.
    let (status, text) = anonymous
        .get(&format!("/tournaments/{id}/export.txt"))
        .await
        .expect("export");
    assert_eq!(status, 200);
    for name in names {
        assert!(text.contains(name), "{text}");
    }
    // Unknown, and malformed (refused before any query).
    for path in [
        "/tournaments/nope/export.txt",
        "/tournaments/a%20b/export.txt",
        "/tournaments/..%2Fx/export.txt",
    ] {
        let (status, _) = anonymous.get(path).await.expect("export");
        assert_eq!(status, 404, "{path}");
    }
}

#[tokio::test]
async fn a_player_who_withdraws_is_not_paired_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players = Vec::new();
    for name in ["fotis", "georgia", "haris", "ioanna"] {
        let client = live.browser().await;
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.push(client);
    }
    let mut new = swiss("Withdrawals", 2);
    new.starts_in_minutes = 60;
    let id = create(&players[0], new).await.expect("created");
    // Its creator may start it early, once two players are in.
    refused(players[0].start_tournament(&id).await, 422, "at least two");
    for p in &players {
        p.call::<()>("join_tournament", json!({ "id": id }))
            .await
            .expect("join");
    }
    // Leaving before the start and joining again.
    players[3]
        .call::<()>("leave_tournament", json!({ "id": id }))
        .await
        .expect("leave");
    assert_eq!(view(&players[0], &id).await.summary.players, 3);
    players[3]
        .call::<()>("join_tournament", json!({ "id": id }))
        .await
        .expect("join again");
    refused(
        players[1].start_tournament(&id).await,
        403,
        "Only the player",
    );
    players[0].start_tournament(&id).await.expect("started");
    refused(players[0].start_tournament(&id).await, 409, "has started");
    let page = view(&players[0], &id).await;
    assert_eq!(page.summary.status, Status::Running);
    assert_eq!(page.rounds[0].len(), 2);
    // ioanna withdraws during round 1; then every game ends by resignation.
    players[3]
        .call::<()>("leave_tournament", json!({ "id": id }))
        .await
        .expect("withdraw");
    refused(
        players[3]
            .call::<()>("leave_tournament", json!({ "id": id }))
            .await,
        422,
        "not in",
    );
    for g in &view(&players[0], &id).await.rounds[0] {
        let table = TableId::new(g.table.clone().expect("table"));
        // (A tournament game is resigned only once someone has moved.)
        for p in &players {
            if let Ok(v) = p.get_table(&table).await {
                if v.you == vec![Side::Black] {
                    p.play_move(&table, v.board.legal[0])
                        .await
                        .expect("black moves");
                }
            }
        }
        for p in &players {
            let _ = p.resign(&table, None).await;
        }
    }
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    let page = view(&players[0], &id).await;
    assert_eq!(page.summary.round, 2);
    let round2 = &page.rounds[1];
    assert!(round2
        .iter()
        .all(|g| g.black != "ioanna" && g.white.as_deref() != Some("ioanna")));
    assert_eq!(round2.iter().filter(|g| g.white.is_none()).count(), 1);
    assert!(page
        .standings
        .iter()
        .any(|l| l.name == "ioanna" && l.withdrawn));
}

#[tokio::test]
async fn the_schedule_keeps_its_next_tournament_open_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_796_428_800_000); // 2026-12-05 00:00 UTC
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let schedule = server::tournaments::schedule::Scheduled::parse_all("daily@19:00/5+0/5")
        .expect("schedule")
        .0;
    // Two directors (two instances) tick at once: one tournament.
    let a = server::tournaments::Tournaments::new(
        live.store.clone(),
        live.hub.clone(),
        schedule.clone(),
    );
    let b = server::tournaments::Tournaments::new(live.store.clone(), live.hub.clone(), schedule);
    tokio::join!(a.tick(), b.tick());
    a.tick().await;
    let visitor = live.browser().await;
    let list = visitor.tournaments().await.expect("list");
    let daily: Vec<_> = list.iter().filter(|t| t.name == "@daily").collect();
    assert_eq!(daily.len(), 1, "{list:?}");
    assert_eq!(daily[0].starts_at, 1_796_428_800_000 + 19 * 3_600_000);
    assert_eq!(daily[0].rounds, 5);
    assert_eq!(daily[0].creator, None);
    // A player cannot take the schedule's names.
    let player = live.browser().await;
    player.sign_up("kostas", PASSWORD).await.expect("sign up");
    refused(create(&player, swiss("@daily", 3)).await, 422, "1 to 40");
    // Past its start with nobody in, it ends, and tomorrow's opens.
    clock.advance(19 * 3_600_000 + 1_000);
    a.tick().await;
    a.tick().await;
    let list = visitor.tournaments().await.expect("list");
    let daily: Vec<_> = list.iter().filter(|t| t.name == "@daily").collect();
    assert_eq!(daily.len(), 1, "{list:?}");
    assert_eq!(daily[0].starts_at, 1_796_428_800_000 + 43 * 3_600_000);
}

#[tokio::test]
async fn an_arena_pairs_free_players_at_once_doubles_streaks_and_ends_on_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players = Vec::new();
    for name in ["rhea", "sotiris", "tasos"] {
        let client = live.browser().await;
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.push(client);
    }
    let mut new = swiss("Quick arena", 1);
    new.kind = app::tournaments::Kind::Arena;
    new.minutes = 2;
    refused(create(&players[0], new.clone()).await, 422, "5 to 180");
    new.minutes = 10;
    new.starts_in_minutes = 0;
    let id = create(&players[0], new).await.expect("arena");
    // Two join; the arena begins and pairs them at once.
    for p in &players[..2] {
        p.join_tournament(&id).await.expect("join");
    }
    live.tournaments.tick().await;
    let page = view(&players[0], &id).await;
    assert_eq!(page.summary.status, Status::Running);
    assert_eq!(page.summary.kind, app::tournaments::Kind::Arena);
    let games: Vec<_> = page.rounds.iter().flatten().collect();
    assert_eq!(games.len(), 1);
    // A third joins while it runs and waits for someone free.
    players[2]
        .join_tournament(&id)
        .await
        .expect("join a running arena");
    live.tournaments.tick().await;
    assert_eq!(view(&players[2], &id).await.my_table, None);
    // The game ends (white resigns): the winner and the waiting player are
    // paired at once, the loser waits.
    let finish = |page: &TournamentView| {
        page.rounds
            .iter()
            .flatten()
            .filter(|g| g.black_points.is_none())
            .map(|g| {
                (
                    TableId::new(g.table.clone().expect("table")),
                    g.black.clone(),
                    g.white.clone().expect("white"),
                )
            })
            .collect::<Vec<_>>()
    };
    let by_name = |name: &str| {
        let i = ["rhea", "sotiris", "tasos"]
            .iter()
            .position(|n| *n == name)
            .expect("player");
        &players[i]
    };
    let mut wins: HashMap<String, u32> = HashMap::new();
    for _ in 0..4 {
        let page = view(&players[0], &id).await;
        let open = finish(&page);
        assert_eq!(open.len(), 1, "{:?}", page.rounds);
        let (table, black, white) = &open[0];
        let black_client = by_name(black);
        let white_client = by_name(white);
        // Each finds their game on the page, whichever batch paired it.
        for client in [black_client, white_client] {
            assert_eq!(
                view(client, &id)
                    .await
                    .my_table
                    .as_ref()
                    .map(|t| t.as_str()),
                Some(table.as_str())
            );
        }
        let v = black_client.get_table(table).await.expect("view");
        black_client
            .play_move(table, v.board.legal[0])
            .await
            .expect("black");
        let v = white_client.get_table(table).await.expect("view");
        white_client
            .play_move(table, v.board.legal[0])
            .await
            .expect("white");
        white_client.resign(table, None).await.expect("resign");
        *wins.entry(black.clone()).or_default() += 1;
        live.tournaments.tick().await;
    }
    let page = view(&players[0], &id).await;
    for line in &page.standings {
        // Without a streak each win is 2; a third win in a row 4.
        let won = wins.get(&line.name).copied().unwrap_or(0);
        assert!(line.points >= 2 * won, "{line:?}");
        assert_eq!(line.discs, won, "wins: {line:?}");
    }
    let total_games: u32 = page.standings.iter().map(|l| l.games).sum();
    assert_eq!(total_games, 8, "four games, two players each");
    // A player who pauses is not paired.
    let playing = finish(&page);
    assert_eq!(playing.len(), 1);
    let idle = ["rhea", "sotiris", "tasos"]
        .into_iter()
        .find(|n| *n != playing[0].1 && *n != playing[0].2)
        .expect("the one waiting");
    by_name(idle).leave_tournament(&id).await.expect("pause");
    // Time is up: nobody new is paired; the last game still counts, then
    // the arena is over.
    clock.advance(10 * 60_000);
    let (table, _, white) = &playing[0];
    // (Ten minutes later the clock has run out: the game ended on time.)
    let _ = by_name(white).resign(table, None).await;
    live.hub.check_presence().await;
    live.tournaments.tick().await;
    let page = view(&players[0], &id).await;
    assert!(finish(&page).is_empty());
    assert_eq!(page.summary.status, Status::Finished);
    refused(players[2].join_tournament(&id).await, 409, "over");
    let total_games: u32 = page.standings.iter().map(|l| l.games).sum();
    assert_eq!(total_games, 10);
}

#[tokio::test]
async fn a_tournament_socket_pushes_the_page_live_and_joins_race_safely() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players = Vec::new();
    for name in ["ursula", "vasia", "xenia"] {
        let client = live.browser().await;
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.push(client);
    }
    let mut new = swiss("Live arena", 1);
    new.kind = app::tournaments::Kind::Arena;
    new.minutes = 10;
    new.starts_in_minutes = 0;
    let id = create(&players[0], new).await.expect("arena");
    // An unknown tournament is refused before the upgrade; so is a
    // foreign page.
    for path in ["/ws/tournament/nope", "/ws/tournament/a%20b"] {
        let unknown = players[0].socket(path).await;
        assert_eq!(unknown.err().map(|r| r.status), Some(404), "{path}");
    }
    let (mut socket, page) = players[0].tournament_socket(&id).await.expect("socket");
    assert!(!page.joined && page.signed_in && page.mine);
    let (mut watcher, anonymous) = live
        .browser()
        .await
        .tournament_socket(&id)
        .await
        .expect("a spectator's socket");
    assert!(!anonymous.signed_in && !anonymous.mine);
    // 200 joins at once from three players: every answer a success, three
    // players in, each once.
    let joins = (0..200).map(|i| players[i % 3].join_tournament(&id));
    let answers = futures_util::future::join_all(joins).await;
    for answer in &answers {
        assert!(answer.is_ok(), "{answer:?}");
    }
    // The socket pushes the change by itself (no call from this player).
    let page = socket.next_tournament().await.expect("pushed");
    assert!(page.joined, "{page:?}");
    let mut page = page;
    while page.summary.players != 3 {
        page = socket.next_tournament().await.expect("pushed");
    }
    // The arena begins and pairs two: each socket shows its own game.
    live.tournaments.tick().await;
    let mine = loop {
        let page = socket.next_tournament().await.expect("pushed");
        if page.summary.status == Status::Running && !page.rounds.is_empty() {
            break page;
        }
    };
    let table = mine.rounds[0][0].table.clone().expect("a table");
    let seated = [
        &mine.rounds[0][0].black,
        mine.rounds[0][0].white.as_ref().expect("white"),
    ];
    assert_eq!(
        mine.my_table.is_some(),
        seated.contains(&&"ursula".to_string()),
        "{mine:?}"
    );
    let spectator = loop {
        let page = watcher.next_tournament().await.expect("pushed");
        if !page.rounds.is_empty() {
            break page;
        }
    };
    assert_eq!(spectator.my_table, None);
    assert_eq!(spectator.standings, mine.standings);
    assert_eq!(
        spectator.rounds[0][0].table.as_ref().map(|t| t.as_str()),
        Some(table.as_str())
    );
    // The page over the server function is the same one.
    let called = view(&players[0], &id).await;
    assert_eq!(called, mine);
}

#[tokio::test]
async fn berserk_halves_a_clock_once_before_the_first_move_and_a_win_scores_a_point_more() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&path, clock.clone()).await;
    let mut players = Vec::new();
    for name in ["yannis", "zoe", "watcher"] {
        let client = live.browser().await;
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.push(client);
    }
    // At a Swiss's table there is no berserk.
    let mut swiss_new = swiss("No berserk here", 1);
    swiss_new.starts_in_minutes = 0;
    let swiss_id = create(&players[2], swiss_new).await.expect("swiss");
    let mut new = swiss("Berserk arena", 1);
    new.kind = app::tournaments::Kind::Arena;
    new.minutes = 10;
    new.starts_in_minutes = 0;
    let id = create(&players[2], new).await.expect("arena");
    for p in &players[..2] {
        p.join_tournament(&id).await.expect("join");
        p.join_tournament(&swiss_id).await.expect("join the Swiss");
    }
    live.tournaments.tick().await;
    let page = view(&players[0], &id).await;
    let table = TableId::new(page.my_table.clone().expect("paired"));
    let swiss_table = view(&players[0], &swiss_id)
        .await
        .my_table
        .expect("paired in the Swiss");
    refused(players[0].berserk(swiss_table.as_str()).await, 422, "arena");
    let found = players[0]
        .table_tournament(table.as_str())
        .await
        .expect("asked")
        .expect("an arena's table");
    assert_eq!(found.id.as_str(), id);
    assert_eq!(found.kind, app::tournaments::Kind::Arena);
    let black_first = players[0].get_table(&table).await.expect("view");
    let (black, white) = if black_first.you == [Side::Black] {
        (&players[0], &players[1])
    } else {
        (&players[1], &players[0])
    };
    refused(players[2].berserk(table.as_str()).await, 422, "");
    // Black goes berserk: half of 3 minutes, and no increment from now on.
    let v = black.berserk(table.as_str()).await.expect("berserk");
    assert_eq!(v.berserk, vec![Side::Black]);
    let clocks = v.clocks.expect("clocks");
    assert_eq!(clocks.black_ms, 90_000);
    assert_eq!(clocks.white_ms, 180_000);
    refused(black.berserk(table.as_str()).await, 422, "once");
    // Seven moves each; White may not go berserk after its first.
    for turn in 0..7 {
        let v = black.get_table(&table).await.expect("view");
        black
            .play_move(&table, v.board.legal[0])
            .await
            .expect("black");
        if turn == 0 {
            let v = white.get_table(&table).await.expect("view");
            assert!(v.berserk == vec![Side::Black]);
        }
        let v = white.get_table(&table).await.expect("view");
        white
            .play_move(&table, v.board.legal[0])
            .await
            .expect("white");
        if turn == 0 {
            refused(white.berserk(table.as_str()).await, 422, "first move");
        }
    }
    let v = black.get_table(&table).await.expect("view");
    let clocks = v.clocks.expect("clocks");
    assert_eq!(clocks.black_ms, 90_000, "no increment after berserk");
    // (A side's first move adds no increment: its clock starts there.)
    assert_eq!(clocks.white_ms, 180_000 + 6 * 2_000);
    // The clocks as a restarted server rebuilds them from the stored rows.
    let restarted = server::hub::Hub::start(
        server::store::Store::open(&path).await.expect("store"),
        std::sync::Arc::new(ManualClock::new(1_000_000)),
        server::hub::HubConfig::default(),
        None,
    )
    .await
    .expect("a second hub on the same file");
    let seen = restarted
        .view(&app::protocol::Session::new(String::new()), &table)
        .await
        .expect("restored");
    let again = seen.clocks.expect("clocks");
    assert_eq!((again.black_ms, again.white_ms), (90_000, 192_000));
    assert_eq!(seen.berserk, vec![Side::Black]);
    drop(restarted);
    // White resigns: Black's win scores 2 + 1.
    white.resign(&table, None).await.expect("resign");
    live.tournaments.tick().await;
    let page = view(&players[2], &id).await;
    let name_of = |client: &Client| {
        if std::ptr::eq(client, &players[0]) {
            "yannis"
        } else {
            "zoe"
        }
    };
    let line = |name: &str| {
        page.standings
            .iter()
            .find(|l| l.name == name)
            .cloned()
            .expect("in the standings")
    };
    assert_eq!(line(name_of(black)).points, 3, "{:?}", page.standings);
    assert_eq!(line(name_of(white)).points, 0);
}

/// Signs `name` up in a browser of its own (an address of its own).
/// A rated Swiss of `rounds` created by `creator` (starting in an hour),
/// joined by every one of `players` and started at once by its creator.
async fn started_swiss<'c>(
    creator: &Client,
    players: impl IntoIterator<Item = &'c Client>,
    name: &str,
    rounds: u32,
) -> String {
    let mut new = swiss(name, rounds);
    new.starts_in_minutes = 60;
    let id = create(creator, new).await.expect("created");
    for p in players {
        p.join_tournament(&id).await.expect("join");
    }
    creator.start_tournament(&id).await.expect("started");
    id
}

async fn player(live: &Live, name: &str) -> Client {
    let client = live.browser().await;
    client.sign_up(name, PASSWORD).await.expect("sign up");
    client
}

/// Two accounts signed up in two browsers at one address: fair play links
/// them.
async fn linked_pair(live: &Live, first: &str, second: &str) -> (Client, Client) {
    let one = live.browser_at("203.0.113.5").await;
    one.sign_up(first, PASSWORD).await.expect("sign up");
    let two = one.sibling();
    two.get("/").await.expect("lobby");
    two.sign_up(second, PASSWORD).await.expect("sign up");
    (one, two)
}

async fn account(live: &Live, name: &str) -> app::protocol::AccountId {
    live.store
        .account_by_key(name)
        .await
        .expect("store")
        .expect("an account")
        .id
}

/// Whether a game is between `a` and `b`.
fn between(g: &app::tournaments::GameLine, a: &str, b: &str) -> bool {
    let white = g.white.as_deref();
    (g.black == a && white == Some(b)) || (g.black == b && white == Some(a))
}

/// Ends every game of the page still being played: black moves (a
/// tournament game is resigned only once someone has moved), its white
/// resigns.
async fn white_resigns(page: &TournamentView, players: &HashMap<String, Client>) {
    for g in page.rounds.iter().flatten() {
        if g.black_points.is_some() {
            continue;
        }
        let (Some(table), Some(white)) = (&g.table, &g.white) else {
            continue;
        };
        let table_id = TableId::new(table.clone());
        let black = &players[g.black.as_str()];
        if let Ok(v) = black.get_table(&table_id).await {
            if v.history.is_empty() && !v.board.legal.is_empty() {
                let _ = black.play_move(&table_id, v.board.legal[0]).await;
            }
        }
        players[white.as_str()]
            .resign(&TableId::new(table.clone()), None)
            .await
            .expect("resign");
    }
}

#[tokio::test]
async fn linked_accounts_never_meet_in_a_rated_swiss_and_sit_out_with_no_one_else_to_meet() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    linked_apart_in_a_swiss(&live).await;
}

/// Linked accounts in a rated Swiss: never paired; with no one else to meet
/// they sit out; a casual event pairs them.
async fn linked_apart_in_a_swiss(live: &Live) {
    // Signed up first: with every player level they would be the first
    // pairing of round 1.
    let (lina, linb) = linked_pair(live, "lina", "linb").await;
    let mut players: HashMap<String, Client> = HashMap::new();
    players.insert("lina".into(), lina.clone());
    players.insert("linb".into(), linb.clone());
    for name in ["nikos", "olga"] {
        players.insert(name.into(), player(live, name).await);
    }
    let nikos = players["nikos"].clone();
    let id = started_swiss(&nikos, players.values(), "Apart", 2).await;
    for round in 1..=2u32 {
        let page = view(&nikos, &id).await;
        assert_eq!(page.summary.round, round);
        let games = &page.rounds[round as usize - 1];
        assert_eq!(games.len(), 2, "{games:?}");
        for g in games {
            assert!(g.white.is_some(), "four players: no bye {games:?}");
            assert!(
                !between(g, "lina", "linb"),
                "linked accounts paired: {games:?}"
            );
        }
        white_resigns(&page, &players).await;
        live.tournaments.tick().await;
    }
    live.tournaments.tick().await;
    assert_eq!(view(&nikos, &id).await.summary.status, Status::Finished);

    // Three accounts of one household and a stranger in a rated Swiss:
    // the stranger meets one of them; the other two may meet nobody else,
    // so they sit the round out — no game, no bye, no points.
    let linc = lina.sibling();
    linc.get("/").await.expect("lobby");
    linc.sign_up("linc", PASSWORD).await.expect("sign up");
    players.insert("linc".into(), linc.clone());
    let mut new = swiss("Household", 1);
    new.starts_in_minutes = 60;
    let household = create(&nikos, new).await.expect("created");
    for name in ["lina", "linb", "linc", "nikos"] {
        players[name]
            .join_tournament(&household)
            .await
            .expect("join");
    }
    nikos.start_tournament(&household).await.expect("started");
    let page = view(&nikos, &household).await;
    assert_eq!(page.rounds.len(), 1, "{:?}", page.rounds);
    let games = &page.rounds[0];
    assert_eq!(games.len(), 1, "one game, no bye: {games:?}");
    let game = &games[0];
    assert!(
        game.black == "nikos" || game.white.as_deref() == Some("nikos"),
        "{game:?}"
    );
    let seated = |name: &str| game.black == name || game.white.as_deref() == Some(name);
    let sitting: Vec<&str> = ["lina", "linb", "linc"]
        .into_iter()
        .filter(|n| !seated(n))
        .collect();
    assert_eq!(sitting.len(), 2);
    white_resigns(&page, &players).await;
    live.tournaments.tick().await;
    let page = view(&nikos, &household).await;
    assert_eq!(page.summary.status, Status::Finished);
    for name in sitting {
        let line = page
            .standings
            .iter()
            .find(|l| l.name == name)
            .expect("a line");
        assert_eq!((line.points, line.games), (0, 0), "{line:?}");
        assert!(line.results.is_empty(), "sat out, not a bye: {line:?}");
    }
    // (Sitting out is not a round with no pairing: the event played its
    // one round and ended plainly.)
    assert_eq!(page.ended_early, None);

    // A casual event is for anyone: a family on one home network plays.
    let mut new = swiss("Family night", 1);
    new.rated = false;
    new.starts_in_minutes = 60;
    let family = create(&lina, new).await.expect("created");
    lina.join_tournament(&family).await.expect("join");
    linb.join_tournament(&family).await.expect("join");
    lina.start_tournament(&family).await.expect("started");
    let page = view(&lina, &family).await;
    assert_eq!(page.rounds[0].len(), 1);
    assert!(between(&page.rounds[0][0], "lina", "linb"));
    white_resigns(&page, &players).await;
    live.tournaments.tick().await;
    let page = view(&lina, &family).await;
    let game = &page.rounds[0][0];
    assert_eq!((game.black_points, game.white_points), (Some(2), Some(0)));
}

#[tokio::test]
async fn linked_accounts_are_never_paired_in_a_rated_arena() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let (lina, linb) = linked_pair(&live, "lina", "linb").await;
    let mut players: HashMap<String, Client> = HashMap::new();
    players.insert("lina".into(), lina.clone());
    players.insert("linb".into(), linb.clone());
    players.insert("petros".into(), player(&live, "petros").await);
    let mut new = swiss("Apart arena", 1);
    new.kind = app::tournaments::Kind::Arena;
    new.minutes = 10;
    new.starts_in_minutes = 0;
    let id = create(&lina, new).await.expect("arena");
    // The two linked join first: alone, they are still not paired.
    lina.join_tournament(&id).await.expect("join");
    linb.join_tournament(&id).await.expect("join");
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    let page = view(&lina, &id).await;
    assert_eq!(page.summary.status, Status::Running);
    assert!(page.rounds.iter().flatten().next().is_none(), "{page:?}");
    players["petros"].join_tournament(&id).await.expect("join");
    // Petros plays each of them in turn; they never meet each other.
    for _ in 0..4 {
        live.tournaments.tick().await;
        let page = view(&lina, &id).await;
        let playing: Vec<_> = page
            .rounds
            .iter()
            .flatten()
            .filter(|g| g.black_points.is_none())
            .collect();
        assert_eq!(playing.len(), 1, "{:?}", page.rounds);
        assert!(!between(playing[0], "lina", "linb"), "{playing:?}");
        white_resigns(&page, &players).await;
    }
    live.tournaments.tick().await;
    let page = view(&lina, &id).await;
    assert!(page
        .rounds
        .iter()
        .flatten()
        .all(|g| !between(g, "lina", "linb")));
    let games: u32 = page.standings.iter().map(|l| l.games).sum();
    assert_eq!(games, 8, "four games: {:?}", page.standings);
}

#[tokio::test]
async fn a_rated_game_between_players_linked_or_marked_after_the_pairing_scores_nothing() {
    use server::clock::Clock;
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["rena", "spyros", "thalia", "vasos"] {
        players.insert(name.into(), player(&live, name).await);
    }
    let rena = players["rena"].clone();
    let id = started_swiss(&rena, players.values(), "Late news", 1).await;
    let page = view(&rena, &id).await;
    let games = page.rounds[0].clone();
    assert_eq!(games.len(), 2);
    // The first game's players are seen on one network after the pairing;
    // the second game's black is marked as a rating abuser.
    let now = clock.now_ms();
    for name in [&games[0].black, games[0].white.as_ref().expect("white")] {
        live.store
            .note_links(
                account(&live, name).await,
                &["a-shared-network".to_string()],
                now,
            )
            .await
            .expect("link");
    }
    live.store
        .mark_abuser(account(&live, &games[1].black).await, Some(now))
        .await
        .expect("mark");
    // White resigns both: neither side scores.
    white_resigns(&page, &players).await;
    live.tournaments.tick().await;
    let page = view(&rena, &id).await;
    for g in &page.rounds[0] {
        assert_eq!(
            (g.black_points, g.white_points),
            (Some(0), Some(0)),
            "{g:?}"
        );
        // The discs stay on record.
        assert!(g.black_discs.is_some() && g.white_discs.is_some(), "{g:?}");
    }
    assert!(page.standings.iter().all(|l| l.points == 0), "{page:?}");
}

#[tokio::test]
async fn a_marked_abuser_is_kept_out_of_rated_tournaments() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    abusers_kept_out(&live).await;
}

/// A marked abuser: refused from rated events, taken out of those they are
/// in when the operator marks them.
async fn abusers_kept_out(live: &Live) {
    use server::clock::Clock;
    let clock = live.clock.clone();
    let creator = player(live, "xanthi").await;
    let other = player(live, "yiorgos").await;
    let marked = player(live, "zenon").await;
    let later = player(live, "warren").await;
    let mut new = swiss("Open rated", 3);
    new.starts_in_minutes = 60;
    let open_rated = create(&creator, new.clone()).await.expect("created");
    let running_rated = create(&creator, new.clone()).await.expect("created");
    new.rated = false;
    let casual = create(&creator, new).await.expect("created");

    // Marked before joining: refused from a rated event, with a keyed
    // message; a casual one takes them.
    live.store
        .mark_abuser(account(live, "zenon").await, Some(clock.now_ms()))
        .await
        .expect("mark");
    refused(
        marked.join_tournament(&open_rated).await,
        403,
        "rating abuser",
    );
    marked.join_tournament(&casual).await.expect("casual");

    // Joined before the mark: the operator's mark takes them out of every
    // rated event not over — removed from an open one, withdrawn from a
    // running one; the casual one keeps them.
    for id in [&open_rated, &running_rated, &casual] {
        later.join_tournament(id).await.expect("join");
    }
    creator.join_tournament(&running_rated).await.expect("join");
    other.join_tournament(&running_rated).await.expect("join");
    creator
        .start_tournament(&running_rated)
        .await
        .expect("start");
    assert_eq!(
        view(&later, &running_rated).await.summary.status,
        Status::Running
    );
    let mut out = Vec::new();
    server::admin::execute(
        &live.store,
        &server::admin::Action::MarkAbuser {
            name: "Warren".into(),
            undo: false,
        },
        clock.now_ms(),
        &mut out,
    )
    .await
    .expect("marked");
    let said = String::from_utf8(out).expect("text");
    assert!(said.contains("left 2 rated tournament(s)"), "{said}");
    let page = view(&later, &open_rated).await;
    assert!(!page.joined);
    assert_eq!(page.summary.players, 0);
    let page = view(&later, &running_rated).await;
    assert!(!page.joined);
    assert!(
        page.standings
            .iter()
            .any(|l| l.name == "warren" && l.withdrawn),
        "{:?}",
        page.standings
    );
    assert!(view(&later, &casual).await.joined);
    refused(
        later.join_tournament(&open_rated).await,
        403,
        "rating abuser",
    );
}

/// A tournament's games and players as the Swiss rules read them (the
/// test's own copy of the director's reading of the store).
async fn swiss_input(
    live: &Live,
    id: &str,
) -> (
    Vec<server::tournaments::swiss::Entrant>,
    Vec<server::tournaments::swiss::Pairing>,
    HashMap<app::protocol::AccountId, String>,
) {
    use server::tournaments::swiss::{Entrant, Pairing, Score};
    let id = app::protocol::TournamentId::new(id.to_string());
    let rows = live.store.tournament_entrants(&id).await.expect("entrants");
    let names = rows
        .iter()
        .map(|e| (e.account_id, e.name.clone()))
        .collect();
    let entrants = rows
        .iter()
        .map(|e| Entrant {
            id: e.account_id,
            rating: e.rating,
            withdrawn: e.withdrawn != 0,
        })
        .collect();
    let pairings = live
        .store
        .tournament_games(&id)
        .await
        .expect("games")
        .iter()
        .map(|g| Pairing {
            round: g.round as u32,
            black: g.black,
            white: g.white,
            result: g.black_points.map(|bp| Score {
                black_points: bp as u8,
                white_points: g.white_points.unwrap_or(0) as u8,
                black_discs: g.black_discs.unwrap_or(0) as u8,
                white_discs: g.white_discs.unwrap_or(0) as u8,
            }),
            bonus: [false; 2],
        })
        .collect::<Vec<Pairing>>();
    // A bye counts once its round is played.
    let on = |round: u32| {
        pairings
            .iter()
            .any(|p| p.round == round && p.white.is_some() && p.result.is_none())
    };
    let pairings = pairings
        .iter()
        .filter(|p| p.white.is_some() || !on(p.round))
        .cloned()
        .collect();
    (entrants, pairings, names)
}

/// Each player's BQ by `rule`, by name.
async fn bq_by(
    live: &Live,
    id: &str,
    rule: server::tournaments::swiss::BqRule,
) -> HashMap<String, f64> {
    let (entrants, pairings, names) = swiss_input(live, id).await;
    server::tournaments::swiss::standings(&entrants, &pairings, 6.0, rule)
        .into_iter()
        .map(|s| (names[&s.id].clone(), s.bq))
        .collect()
}

#[tokio::test]
async fn finished_events_keep_the_bq_rule_they_were_published_with() {
    use server::tournaments::swiss::BqRule;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&path, clock.clone()).await;
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["agnes", "bruno", "celia", "damon"] {
        players.insert(name.into(), player(&live, name).await);
    }
    let agnes = players["agnes"].clone();
    let id = started_swiss(&agnes, players.values(), "Withdrawn opponents", 2).await;
    let page = view(&agnes, &id).await;
    white_resigns(&page, &players).await;
    // A player of round 1 withdraws: their opponent's BQ depends on the rule.
    let quitter = page.rounds[0][0].white.clone().expect("white");
    players[quitter.as_str()]
        .leave_tournament(&id)
        .await
        .expect("withdraw");
    live.tournaments.tick().await;
    // Running: the WOC rule.
    let page = view(&agnes, &id).await;
    assert_eq!(page.summary.status, Status::Running);
    assert!(!page.bq_legacy);
    let woc = bq_by(&live, &id, BqRule::Woc).await;
    let legacy = bq_by(&live, &id, BqRule::Legacy).await;
    assert!(
        woc.iter().any(|(name, bq)| legacy[name] != *bq),
        "the rules differ here: {woc:?} {legacy:?}"
    );
    for line in &page.standings {
        assert_eq!(line.bq, woc[&line.name], "{line:?}");
    }
    white_resigns(&page, &players).await;
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    let page = view(&agnes, &id).await;
    assert_eq!(page.summary.status, Status::Finished);
    let woc = bq_by(&live, &id, BqRule::Woc).await;
    for line in &page.standings {
        assert_eq!(line.bq, woc[&line.name], "{line:?}");
    }
    let (_, text) = agnes
        .get(&format!("/tournaments/{id}/export.txt"))
        .await
        .expect("export");
    assert!(text.contains("BQ rule: WOC"), "{text}");

    // The same event stored with the legacy rule (as every event finished
    // before the WOC rule is): its standings are the ones it was published
    // with, on the page and in the export.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("sqlite");
    sqlx::query("UPDATE tournaments SET bq_rule = 'legacy' WHERE id = ?")
        .bind(&id)
        .execute(&pool)
        .await
        .expect("legacy");
    pool.close().await;
    // (A fresh director: the page built before is this instance's.)
    let director =
        server::tournaments::Tournaments::new(live.store.clone(), live.hub.clone(), Vec::new());
    let tid = app::protocol::TournamentId::new(id.clone());
    let page = director.shared(&tid).await.expect("page").for_player(None);
    assert!(page.bq_legacy);
    let legacy = bq_by(&live, &id, BqRule::Legacy).await;
    for line in &page.standings {
        assert_eq!(line.bq, legacy[&line.name], "{line:?}");
    }
    let text = director.export(&tid).await.expect("export");
    assert!(text.contains("BQ rule: legacy"), "{text}");
    assert!(text.contains(&app::tournaments::bq_text(page.standings[0].bq)));
}

#[tokio::test]
async fn the_migration_gives_finished_events_the_legacy_rule_and_the_others_the_woc_rule() {
    use server::tournaments::swiss::BqRule;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    // A database as it was before the rule was stored (migration 0027).
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options)
        .await
        .expect("sqlite");
    let mut before = server::store::rows::sqlite_migrator();
    before.migrations = std::borrow::Cow::Owned(
        before
            .migrations
            .iter()
            .filter(|m| m.version < 27)
            .cloned()
            .collect(),
    );
    before.run(&pool).await.expect("migrated to 0026");
    for (id, status) in [("old", "finished"), ("now", "running"), ("soon", "open")] {
        sqlx::query(
            "INSERT INTO tournaments (id, kind, name, base_ms, increment_ms, rated, private, \
             rounds, multiplier, starts_at, status, round, created_at) \
             VALUES (?, 'swiss', ?, 180000, 2000, 1, 0, 3, 6, 0, ?, 1, 0)",
        )
        .bind(id)
        .bind(id)
        .bind(status)
        .execute(&pool)
        .await
        .expect("a tournament");
    }
    pool.close().await;
    let store = server::store::Store::open(&path).await.expect("migrated");
    for (id, rule) in [
        ("old", BqRule::Legacy),
        ("now", BqRule::Woc),
        ("soon", BqRule::Woc),
    ] {
        let row = store
            .tournament(&app::protocol::TournamentId::new(id.to_string()))
            .await
            .expect("read")
            .expect("a tournament");
        assert_eq!(row.bq_rule, rule, "{id}");
        assert_eq!(row.ended_early, None, "{id}");
    }
}

#[tokio::test]
async fn a_swiss_out_of_new_pairings_ends_early_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    ending_early(&live).await;
}

/// A Swiss of two players ends after round 1 and says why.
async fn ending_early(live: &Live) {
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["eva", "fanis"] {
        players.insert(name.into(), player(live, name).await);
    }
    let eva = players["eva"].clone();
    let id = started_swiss(&eva, players.values(), "Two of us", 3).await;
    let page = view(&eva, &id).await;
    assert_eq!(page.ended_early, None);
    white_resigns(&page, &players).await;
    // Round 1 scored; round 2 would repeat it: the event ends, and says so.
    live.tournaments.tick().await;
    let page = view(&eva, &id).await;
    assert_eq!(page.summary.status, Status::Finished);
    assert_eq!(page.summary.round, 1);
    assert_eq!(
        page.ended_early,
        Some(app::tournaments::EndedEarly {
            reason: app::tournaments::EarlyEnd::Exhausted,
            after_round: 1,
        })
    );
    let (_, text) = eva
        .get(&format!("/tournaments/{id}/export.txt"))
        .await
        .expect("export");
    assert!(
        text.contains("Ended after round 1: every further pairing would repeat a game"),
        "{text}"
    );
    // A Swiss that plays every round ends plainly.
    let mut new = swiss("Just one", 1);
    new.starts_in_minutes = 60;
    let full = create(&eva, new).await.expect("created");
    for p in players.values() {
        p.join_tournament(&full).await.expect("join");
    }
    eva.start_tournament(&full).await.expect("started");
    white_resigns(&view(&eva, &full).await, &players).await;
    live.tournaments.tick().await;
    let page = view(&eva, &full).await;
    assert_eq!(page.summary.status, Status::Finished);
    assert_eq!(page.ended_early, None);
}

/// The same rules on PostgreSQL (several instances sharing one database):
/// its queries of links, marks, the BQ rule and an early end.
#[tokio::test]
async fn fair_play_and_early_ends_hold_on_postgres() {
    let cluster = pg::PgCluster::start();
    let live = Live::start_postgres(&cluster.url(), ManualClock::new(1_000_000)).await;
    linked_apart_in_a_swiss(&live).await;
    ending_early(&live).await;
    // Last: it leaves rated events open and running.
    abusers_kept_out(&live).await;
}

/// A tournament game's table, its black and its white, from the page.
fn only_game<'a>(
    page: &TournamentView,
    players: &'a HashMap<String, Client>,
) -> (TableId, &'a Client, &'a Client, String, String) {
    let g = page
        .rounds
        .iter()
        .flatten()
        .find(|g| g.white.is_some() && g.black_points.is_none())
        .expect("a game being played");
    let white = g.white.clone().expect("white");
    (
        TableId::new(g.table.clone().expect("table")),
        &players[g.black.as_str()],
        &players[white.as_str()],
        g.black.clone(),
        white,
    )
}

fn over(view: &app::protocol::TableView) -> Option<(Option<Side>, EndReason)> {
    match view.status {
        app::protocol::RoundStatus::Over { winner, reason } => Some((winner, reason)),
        _ => None,
    }
}

#[tokio::test]
async fn a_swiss_side_that_never_moves_forfeits_after_20_s_and_is_withdrawn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["olga", "petros", "rania"] {
        players.insert(name.into(), player(&live, name).await);
    }
    let olga = players["olga"].clone();
    let id = started_swiss(&olga, players.values(), "No shows", 2).await;
    live.tournaments.tick().await;
    let page = view(&olga, &id).await;
    assert_eq!(page.summary.round, 1);
    // The bye is not in the standings while its round is played.
    let bye = page.rounds[0]
        .iter()
        .find(|g| g.white.is_none())
        .expect("a bye")
        .black
        .clone();
    let line = |page: &TournamentView, name: &str| {
        page.standings
            .iter()
            .find(|l| l.name == name)
            .cloned()
            .expect("in the standings")
    };
    assert_eq!(line(&page, &bye).points, 0, "{:?}", page.standings);
    let (table, black, white, black_name, white_name) = only_game(&page, &players);
    // Nobody may resign before the first move: the first-move timer
    // handles a player who does not come.
    refused(
        white.resign(&table, None).await,
        422,
        "before its first move",
    );
    refused(
        black.resign(&table, None).await,
        422,
        "before its first move",
    );
    // No rematch and no new table at a tournament's table.
    refused(black.vote_rematch(&table, None, true).await, 422, "");
    refused(black.new_table(&table).await, 422, "no rematch");
    // White comes to the board; black never does.
    let (_white_socket, _) = white.connect(&table).await.expect("socket");
    // Read twice 6 s apart before black's first move: no clock moved.
    clock.advance(6_000);
    let early = white.get_table(&table).await.expect("view");
    clock.advance(6_000);
    let later = white.get_table(&table).await.expect("view");
    for v in [&early, &later] {
        let c = v.clocks.expect("clocks");
        assert_eq!((c.black_ms, c.white_ms), (180_000, 180_000));
        assert_eq!(c.running, None);
    }
    let first = |v: &app::protocol::TableView| v.clocks.and_then(|c| c.first_move);
    assert_eq!(
        first(&early),
        Some(app::protocol::FirstMove {
            side: Side::Black,
            ms: 14_000
        })
    );
    assert_eq!(first(&later).map(|f| f.ms), Some(8_000));
    clock.advance(7_999);
    live.hub.check_presence().await;
    assert_eq!(over(&white.get_table(&table).await.expect("view")), None);
    clock.advance(1);
    live.hub.check_presence().await;
    let done = white.get_table(&table).await.expect("view");
    assert_eq!(over(&done), Some((Some(Side::White), EndReason::Forfeit)));
    // Scored as a resignation (the winner at least 33 discs), the absent
    // player withdrawn, and the round's bye now counted; round 2 pairs
    // the two left.
    live.tournaments.tick().await;
    let page = view(&olga, &id).await;
    let g = &page.rounds[0]
        .iter()
        .find(|g| g.white.is_some())
        .expect("the game");
    assert_eq!((g.black_points, g.white_points), (Some(0), Some(2)));
    assert!(line(&page, &black_name).withdrawn);
    assert!(!line(&page, &white_name).withdrawn);
    assert_eq!(line(&page, &bye).points, 2);
    assert_eq!(page.summary.round, 2);
    assert!(page.rounds[1]
        .iter()
        .all(|g| g.black != black_name && g.white.as_deref() != Some(black_name.as_str())));
    // The archive, its pages' data and the exports say why.
    let game = GameId::new(g.game.clone().expect("archived"));
    let archived = olga.get_game(&game).await.expect("archived game");
    assert_eq!(archived.reason, EndReason::Forfeit);
    assert_eq!(archived.winner, Some(Side::White));
    let (status, text) = olga
        .get(&format!("/game/{game}/export.txt"))
        .await
        .expect("text");
    assert_eq!(status, 200);
    assert!(
        text.contains("Black did not make a first move in time; White wins by forfeit"),
        "{text}"
    );
    let (status, ggf) = olga
        .get(&format!("/game/{game}/export.ggf"))
        .await
        .expect("ggf");
    assert_eq!(status, 200);
    assert!(ggf.contains("RE[-64.000:r]"), "{ggf}");
    let (status, wtb) = olga
        .get_bytes(&format!("/@/{white_name}/games.wtb"))
        .await
        .expect("wthor");
    assert_eq!(status, 200);
    // The forfeit's record: black's discs as the WOC scores them (2).
    assert_eq!(wtb.len(), 16 + 68, "one game");
    assert_eq!(wtb[16 + 6], 2);
}

#[tokio::test]
async fn both_absent_at_the_first_move_both_lose_by_forfeit_and_both_leave_the_swiss() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["stavros", "theano"] {
        players.insert(name.into(), player(&live, name).await);
    }
    let first = players["stavros"].clone();
    let id = started_swiss(&first, players.values(), "Nobody came", 2).await;
    live.tournaments.tick().await;
    let page = view(&first, &id).await;
    let (table, black, _, _, _) = only_game(&page, &players);
    clock.advance(20_000);
    live.hub.check_presence().await;
    let done = black.get_table(&table).await.expect("view");
    assert_eq!(over(&done), Some((None, EndReason::Forfeit)));
    assert_eq!(done.tally, app::protocol::Tally::default());
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    let page = view(&first, &id).await;
    let g = &page.rounds[0][0];
    assert_eq!((g.black_points, g.white_points), (Some(0), Some(0)));
    assert!(page.standings.iter().all(|l| l.withdrawn && l.points == 0));
    assert_eq!(page.summary.status, Status::Finished);
    let archived = first
        .get_game(&GameId::new(g.game.clone().expect("archived")))
        .await
        .expect("archived game");
    assert_eq!(
        (archived.winner, archived.reason),
        (None, EndReason::Forfeit)
    );
}

#[tokio::test]
async fn an_arena_player_who_misses_the_first_move_is_paused_until_joining_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = ManualClock::new(1_000_000);
    let live = Live::start(&dir.path().join("db.sqlite"), clock.clone()).await;
    let mut players: HashMap<String, Client> = HashMap::new();
    for name in ["vasso", "yannis"] {
        players.insert(name.into(), player(&live, name).await);
    }
    let first = players["vasso"].clone();
    let mut new = swiss("Paused arena", 1);
    new.kind = app::tournaments::Kind::Arena;
    new.minutes = 30;
    new.starts_in_minutes = 0;
    let id = create(&first, new).await.expect("arena");
    for p in players.values() {
        p.join_tournament(&id).await.expect("join");
    }
    live.tournaments.tick().await;
    let page = view(&first, &id).await;
    let (table, black, white, black_name, _) = only_game(&page, &players);
    let (_white_socket, _) = white.connect(&table).await.expect("socket");
    clock.advance(20_000);
    live.hub.check_presence().await;
    let done = white.get_table(&table).await.expect("view");
    assert_eq!(over(&done), Some((Some(Side::White), EndReason::Forfeit)));
    live.tournaments.tick().await;
    live.tournaments.tick().await;
    // Paused: not paired again.
    let page = view(&first, &id).await;
    assert_eq!(page.rounds.iter().flatten().count(), 1);
    assert!(page
        .standings
        .iter()
        .any(|l| l.name == black_name && l.withdrawn));
    // Back by joining again: paired at the next tick.
    black.join_tournament(&id).await.expect("join again");
    live.tournaments.tick().await;
    let page = view(&first, &id).await;
    assert!(page.standings.iter().all(|l| !l.withdrawn));
    assert_eq!(page.rounds.iter().flatten().count(), 2);
}
