//! Game analysis and lab expiry in process, with an injected clock: a finished
//! hot-seat game analysed on the AI pool (progress, stored result, export),
//! bad requests refused, and idle lab games deleted after 24 h.

use app::protocol::{
    AnalysisView, GameKind, LabId, Session, Severity, TableCommand, TableId, TableMode,
};
use engine::{Game, Position};
use server::analysis::{Analyses, AnalysisSettings};
use server::clock::ManualClock;
use server::hub::{Hub, HubConfig};
use server::lab::exact::ExactLimits;
use server::lab::{explain::offline::Offline, LabConfig, LabHub};
use server::store::Store;
use std::sync::Arc;
use std::time::Duration;

struct World {
    hub: Hub,
    lab: LabHub,
    analyses: Analyses,
    clock: ManualClock,
    _dir: tempfile::TempDir,
}

async fn world() -> World {
    world_with(HubConfig::default()).await
}

async fn world_with(config: HubConfig) -> World {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("db.sqlite"))
        .await
        .expect("store");
    let clock = ManualClock::new(1_000_000);
    let hub = Hub::start(store.clone(), Arc::new(clock.clone()), config, None)
        .await
        .expect("hub");
    let exact = ExactLimits {
        empties: 10,
        max_nodes: 50_000_000,
    };
    let lab = LabHub::start(
        store.clone(),
        Arc::new(clock.clone()),
        Arc::new(Offline),
        LabConfig {
            explain_timeout: Duration::from_secs(30),
            exact,
            discs_depth: 6,
            expiry_ms: 24 * 3600 * 1000,
            ai: Some(hub.ai_pool()),
            explain_concurrency: 2,
            explain_daily_budget: 500,
            shared: None,
        },
    )
    .await
    .expect("lab");
    let analyses = Analyses::new(
        store,
        hub.clone(),
        lab.clone(),
        Arc::new(clock.clone()),
        AnalysisSettings { depth: 2, exact },
    );
    World {
        hub,
        lab,
        analyses,
        clock,
        _dir: dir,
    }
}

/// Plays a whole hot-seat game (first legal move each turn); returns the table.
async fn finished_hot_seat(hub: &Hub, player: &Session) -> TableId {
    let table = hub.create(player, TableMode::HotSeat).await.expect("table");
    let mut position = Position::initial();
    let mut game = Game::new();
    while !position.is_game_over() {
        let square = position.legal_moves().iter().next().expect("a move");
        hub.execute(
            player,
            TableCommand::Place {
                table: table.clone(),
                square: square.index() as u8,
            },
        )
        .await
        .expect("move");
        game.play(square).expect("legal");
        position = *game.position();
    }
    table
}

async fn wait_ready(analyses: &Analyses, kind: GameKind, id: &str) -> app::protocol::GameAnalysis {
    for _ in 0..600 {
        match analyses.get(kind, id).await.expect("get") {
            AnalysisView::Ready { analysis } => return analysis,
            AnalysisView::Running { done, total } => assert!(done <= total),
            other => panic!("unexpected state {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the analysis did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_hot_seat_game_is_analysed_once_and_stored() {
    let w = world().await;
    let player = w.hub.new_session().await.expect("session");
    let table = w
        .hub
        .create(&player, TableMode::HotSeat)
        .await
        .expect("table");
    // Not finished: refused (4xx path), and the state says so.
    let early = w
        .analyses
        .start(GameKind::Table, table.as_str())
        .await
        .expect_err("refused");
    assert!(early.message.contains("not finished"), "{}", early.message);
    assert_eq!(
        w.analyses
            .get(GameKind::Table, table.as_str())
            .await
            .expect("get"),
        AnalysisView::None { available: false }
    );

    let table = finished_hot_seat(&w.hub, &player).await;
    assert_eq!(
        w.analyses
            .get(GameKind::Table, table.as_str())
            .await
            .expect("get"),
        AnalysisView::None { available: true }
    );
    let started = w
        .analyses
        .start(GameKind::Table, table.as_str())
        .await
        .expect("start");
    let total = match started {
        AnalysisView::Running { done: 0, total } => total,
        other => panic!("expected a running analysis, got {other:?}"),
    };
    // Starting again while it runs does not start a second one.
    assert!(matches!(
        w.analyses
            .start(GameKind::Table, table.as_str())
            .await
            .expect("again"),
        AnalysisView::Running { .. } | AnalysisView::Ready { .. }
    ));
    let analysis = wait_ready(&w.analyses, GameKind::Table, table.as_str()).await;
    assert_eq!(analysis.moves.len() as u32, total);
    assert!(total >= 55, "a whole game: {total} placements");
    // The last 10 empties are exact, the rest depth-2 searches.
    let exact: Vec<_> = analysis.moves.iter().filter(|m| m.exact).collect();
    assert!(!exact.is_empty() && exact.len() <= 10, "{}", exact.len());
    assert!(analysis.moves.iter().all(|m| m.loss >= 0));
    // Always playing the first legal move loses something somewhere.
    assert!(!analysis.worst.is_empty());
    let worst = analysis
        .moves
        .iter()
        .find(|m| m.ply == analysis.worst[0])
        .expect("worst move");
    assert_ne!(worst.severity, Severity::Best);
    assert_eq!(analysis.depth, 2);
    // It names the position its moves replay from (the practice of one's
    // mistakes sets up the positions before them), and they do replay.
    assert_eq!(analysis.start, Position::initial().to_cells().to_vec());
    let mut position = Position::initial();
    for m in &analysis.moves {
        if position.must_pass() {
            position = position.pass().expect("a pass");
        }
        let square: engine::Square = m.square.parse().expect("a square");
        position = position.play(square).expect("a legal move").position;
    }

    // Stored: the same result comes back at once, from the database.
    let again = w
        .analyses
        .start(GameKind::Table, table.as_str())
        .await
        .expect("stored");
    assert_eq!(
        again,
        AnalysisView::Ready {
            analysis: analysis.clone()
        }
    );
    let section = w
        .analyses
        .export_section(GameKind::Table, table.as_str(), app::i18n::Lang::En)
        .await
        .expect("export section");
    assert!(
        section.contains(&format!("{}. Black {} — loss", 1, analysis.moves[0].square)),
        "{section}"
    );
    assert!(section.contains("Worst moves:"), "{section}");
    // In Greek for a Greek page, like the rest of the export.
    let greek = w
        .analyses
        .export_section(GameKind::Table, table.as_str(), app::i18n::Lang::El)
        .await
        .expect("export section");
    assert!(
        greek.contains(&format!(
            "{}. Μαύρα {} — απώλεια",
            1, analysis.moves[0].square
        )),
        "{greek}"
    );
    assert!(greek.contains("Χειρότερες κινήσεις:"), "{greek}");
    let row = w
        .hub
        .store()
        .analysis(&format!("table:{table}:1"))
        .await
        .expect("read");
    assert!(row.is_some(), "stored under the table and round");
}

#[tokio::test]
async fn bad_analysis_requests_are_refused_clearly() {
    let w = world().await;
    for (kind, id, expected) in [
        (GameKind::Table, "", "Not a game id"),
        (GameKind::Table, "../etc", "Not a game id"),
        (GameKind::Table, "feedfacecafebeef", "No such table"),
        (GameKind::Lab, "feedfacecafebeef", "No such lab game"),
        (GameKind::Game, "feedfacecafebeef", "No such game"),
    ] {
        let error = w.analyses.start(kind, id).await.expect_err("refused");
        assert!(
            error.message.contains(expected),
            "{kind:?} {id}: {}",
            error.message
        );
        let error = w.analyses.get(kind, id).await.expect_err("refused");
        assert!(
            error.message.contains(expected),
            "{kind:?} {id}: {}",
            error.message
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_lab_game_is_analysed_and_its_endgame_is_exact() {
    let w = world().await;
    let id = w.lab.create(1, 1).await.expect("lab");
    loop {
        let view = w.lab.next_turn(&id).await.expect("turn");
        // Wait for the (offline) explanation before the next turn.
        let mut view = view;
        while view.explaining() {
            view = w.lab.wait(&id, view.version).await.expect("wait");
        }
        if view.is_over() {
            break;
        }
    }
    // The last placements carry exact values (10 empties in this world).
    let view = w.lab.view(&id).await.expect("view");
    let tail: Vec<_> = view.moves.iter().rev().take(5).collect();
    for m in &tail {
        let exact = m.exact.expect("endgame facts");
        assert!(exact.exact, "ply {}", m.ply);
        assert!(exact.played.is_some());
    }
    w.analyses
        .start(GameKind::Lab, id.as_str())
        .await
        .expect("start");
    let analysis = wait_ready(&w.analyses, GameKind::Lab, id.as_str()).await;
    assert_eq!(analysis.moves.len(), view.moves.len());
    // The analysis and the lab's own exact values agree on the last move.
    let last = analysis.moves.last().expect("moves");
    let lab_last = view.moves.last().and_then(|m| m.exact).expect("exact");
    assert_eq!(Some(last.played_value), lab_last.played);
}

#[tokio::test]
async fn lab_games_idle_for_24_hours_are_deleted_on_the_injected_clock() {
    let w = world().await;
    let idle = w.lab.create(1, 1).await.expect("lab");
    let active = w.lab.create(1, 1).await.expect("lab");
    w.clock.advance(23 * 3600 * 1000);
    let mut view = w.lab.next_turn(&active).await.expect("turn");
    while view.explaining() {
        view = w.lab.wait(&active, view.version).await.expect("wait");
    }
    assert_eq!(
        w.lab.expire_idle().await.expect("sweep"),
        0,
        "nothing is 24 h idle yet"
    );
    w.clock.advance(3600 * 1000 + 1);
    assert_eq!(w.lab.expire_idle().await.expect("sweep"), 1);
    let gone = w.lab.view(&idle).await.expect_err("deleted");
    assert!(
        gone.message.contains("No such lab game"),
        "{}",
        gone.message
    );
    w.lab
        .view(&active)
        .await
        .expect("the active lab game stays");
    let store = w.hub.store();
    let stored = |id: LabId| async move { store.lab_game(id.as_str()).await.expect("read") };
    assert!(
        stored(idle.clone()).await.is_none(),
        "deleted from the database too"
    );
    assert!(stored(active.clone()).await.is_some());
}

#[test]
fn every_named_opening_is_a_legal_start_in_all_eight_symmetries() {
    let list = app::openings::all();
    assert!(list.len() > 60);
    for opening in list {
        for symmetry in 0..8 {
            let moves: Vec<engine::Square> = opening
                .moves
                .iter()
                .map(|&m| {
                    engine::Square::new(usize::from(app::openings::transform(symmetry, m)))
                        .expect("square")
                })
                .collect();
            // The four symmetries that keep the start position are legal games;
            // the other four swap the centre's colours and are not.
            let legal = Game::replay(&moves).is_ok();
            assert_eq!(
                legal,
                [0, 1, 2, 3].contains(&symmetry),
                "{} under {symmetry}",
                opening.name
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_is_analysed_like_its_table() {
    let w = world().await;
    let player = w.hub.new_session().await.expect("session");
    let table = finished_hot_seat(&w.hub, &player).await;
    let games = w
        .hub
        .store()
        .archived_games_of(&server::identity::Identity::of(&player), i64::MAX, 10)
        .await
        .expect("archive");
    assert_eq!(games.len(), 1);
    let id = games[0].id.clone();
    assert_eq!(
        w.analyses.get(GameKind::Game, &id).await.expect("get"),
        AnalysisView::None { available: true }
    );
    w.analyses.start(GameKind::Game, &id).await.expect("start");
    let archived = wait_ready(&w.analyses, GameKind::Game, &id).await;
    assert_eq!(archived.moves.len(), games[0].moves.len() / 2);
    w.analyses
        .start(GameKind::Table, table.as_str())
        .await
        .expect("start");
    let live = wait_ready(&w.analyses, GameKind::Table, table.as_str()).await;
    assert_eq!(
        archived.worst, live.worst,
        "the same game, the same verdict"
    );
    // An unknown game is a 404.
    let missing = w
        .analyses
        .get(GameKind::Game, "abcdef")
        .await
        .expect_err("refused");
    assert_eq!(missing.status_code().as_u16(), 404, "{}", missing.message);
}

/// A poll at the moment a run ends never answers "none" (the page stops
/// polling on it): several pollers ask without pause from the start to the
/// stored result, on a few games.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_poll_as_the_run_ends_never_answers_none() {
    let w = world().await;
    for _ in 0..3 {
        let player = w.hub.new_session().await.expect("session");
        let table = finished_hot_seat(&w.hub, &player).await;
        let started = w
            .analyses
            .start(GameKind::Table, table.as_str())
            .await
            .expect("start");
        assert!(
            matches!(started, AnalysisView::Running { .. }),
            "{started:?}"
        );
        let pollers: Vec<_> = (0..4)
            .map(|_| {
                let (analyses, table) = (w.analyses.clone(), table.clone());
                tokio::spawn(async move {
                    loop {
                        match analyses
                            .get(GameKind::Table, table.as_str())
                            .await
                            .expect("get")
                        {
                            AnalysisView::Ready { .. } => return,
                            AnalysisView::Running { .. } => tokio::task::yield_now().await,
                            other => panic!("a poll answered {other:?} as the run ended"),
                        }
                    }
                })
            })
            .collect();
        for poller in pollers {
            poller.await.expect("poller");
        }
    }
}

/// With several heavy workers a game's placements are analysed several at
/// once, and the analysis is the same as one worker's, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_heavy_workers_analyse_a_game_as_one_does() {
    let mut analyses = Vec::new();
    for heavy in [1, 3] {
        let w = world_with(HubConfig {
            ai_heavy_threads: heavy,
            ..HubConfig::default()
        })
        .await;
        let player = w.hub.new_session().await.expect("session");
        let table = finished_hot_seat(&w.hub, &player).await;
        w.analyses
            .start(GameKind::Table, table.as_str())
            .await
            .expect("start");
        analyses.push(wait_ready(&w.analyses, GameKind::Table, table.as_str()).await);
    }
    assert!(analyses[0].moves.len() >= 55);
    assert_eq!(analyses[0], analyses[1]);
}

/// The analysis board's deeper search: every legal move valued, the
/// opening book's moves marked at the start, exact values near the end that
/// agree with the solver, and bad positions refused by key (422).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_is_valued_by_the_servers_deeper_search() {
    let w = world().await;
    let player = w.hub.new_session().await.expect("session");
    let caller = server::limits::Caller::from(&player);
    // The start: four moves, all from the book (one under the symmetries).
    let start = Position::initial();
    let values = w
        .analyses
        .position_values_for(&caller, &start.to_obf())
        .await
        .expect("values");
    assert_eq!(values.moves.len(), 4, "{values:?}");
    assert!(
        values.moves.iter().all(|m| m.book && !m.exact),
        "{values:?}"
    );
    assert_eq!(values.depth, 2, "the analysis's depth");
    // Nine empty squares (within the world's exact range of 10): exact, and
    // the best value is the solver's.
    let endgame =
        Position::from_obf("XXXXXXXXXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOXXXXXXXX--OOOOOO----XXXXX- X")
            .expect("obf");
    let values = w
        .analyses
        .position_values_for(&caller, &endgame.to_obf())
        .await
        .expect("values");
    assert_eq!(values.moves.len(), endgame.legal_moves().count() as usize);
    assert!(values.moves.iter().all(|m| m.exact && !m.book));
    assert_eq!(values.depth, endgame.empty_count());
    assert_eq!(values.moves[0].value as i32, engine::solve(&endgame).score);
    assert!(
        values.moves.windows(2).all(|w| w[0].value >= w[1].value),
        "best first"
    );
    // Refused, by key, changing nothing.
    for (bad, key) in [
        ("", "srv-obf-paste"),
        ("not a position", "srv-obf-invalid"),
        (
            "---------------------------O-------XO--------------------------- X",
            "srv-centre-one",
        ),
    ] {
        let refusal = w
            .analyses
            .position_values_for(&caller, bad)
            .await
            .expect_err("refused");
        assert_eq!(refusal.status_code().as_u16(), 422, "{bad:?}");
        assert_eq!(refusal.msg.key, key, "{bad:?}");
    }
}

/// Issue 66: the analysis board's searches are the caller's address's, and
/// a request that ends takes its search with it. 40 requests from one
/// address, each dropped once its search waits for the one heavy worker,
/// never start; another address's request, made after them, is the next
/// one run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_position_searches_never_start_and_another_address_goes_next() {
    let w = world_with(HubConfig {
        ai_heavy_threads: 1,
        ..HubConfig::default()
    })
    .await;
    let pool = w.hub.ai_pool();
    // Waits for a state the next step needs (30 s at most).
    let until = |what: &'static str, done: fn(server::ai::LaneStats) -> bool| {
        let pool = pool.clone();
        async move {
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            while !done(pool.heavy_stats()) {
                assert!(std::time::Instant::now() < deadline, "{what}");
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
    };
    // The one heavy worker is busy until the test lets it go.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let blocker = pool
        .run_as("ip:203.0.113.50", move || blocked.recv())
        .expect("room");
    until("the blocker runs", |s| s.running == 1).await;
    let caller = |session: String, address: &str| server::limits::Caller {
        session: Session::new(session),
        address: Some(address.parse().expect("ip")),
        browser: None,
        device: None,
    };
    let hard = Position::initial().to_obf();
    for i in 0..40 {
        // A fresh cookie each time, as a flood rotates them.
        let flooder = caller(format!("{i:064x}"), "198.51.100.7");
        let request = {
            let (analyses, hard) = (w.analyses.clone(), hard.clone());
            tokio::spawn(async move { analyses.position_values_for(&flooder, &hard).await })
        };
        until("the search waits", |s| s.waiting == 1).await;
        request.abort();
        assert!(request.await.expect_err("aborted").is_cancelled());
        // Gone with its request: out of the queue at once.
        assert_eq!(pool.heavy_stats().waiting, 0, "request {i}");
    }
    let player = caller("ab".repeat(32), "192.0.2.44");
    let endgame =
        Position::from_obf("XXXXXXXXXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOXXXXXXXX--OOOOOO----XXXXX- X")
            .expect("obf");
    let answer = {
        let analyses = w.analyses.clone();
        tokio::spawn(async move {
            analyses
                .position_values_for(&player, &endgame.to_obf())
                .await
        })
    };
    until("the other address's search waits", |s| s.waiting == 1).await;
    release.send(()).expect("release");
    blocker.await.expect("blocker").expect("released");
    let values = tokio::time::timeout(Duration::from_secs(30), answer)
        .await
        .expect("answered in time")
        .expect("task")
        .expect("answered, not refused");
    assert!(values.moves.iter().all(|m| m.exact), "{values:?}");
    let stats = pool.heavy_stats();
    assert_eq!(
        stats.started, 2,
        "the blocker and the other address's: {stats:?}"
    );
    assert_eq!(stats.dropped, 40, "{stats:?}");
}
