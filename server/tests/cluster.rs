//! Several server instances on one real PostgreSQL (a throwaway cluster the
//! test starts): players on different instances share a game and a
//! spectator sees it; simultaneous moves from two instances, exactly one
//! accepted; quick match pairs players on different instances; an instance
//! killed with SIGKILL mid-game (its players reconnect to the other and
//! finish; its pending AI move is made by the other; the grace of a player
//! who does not come back ends on the other); a live instance's long AI
//! search is not taken over.
//!
//! These tests need PostgreSQL installed (`initdb`, `pg_ctl`); without it
//! they fail saying so. (Over 600 lines: every multi-instance scenario
//! shares the throwaway cluster and the instance helpers.)

mod common;
#[path = "support/pg.rs"]
mod pg;

use app::protocol::{
    LabId, RoundStatus, ServerMessage, Side, TableId, TableMode, TableView, TimeControl,
};
use common::Server;
use pg::PgCluster;
use std::path::Path;
use std::time::{Duration, Instant};
use testclient::{my_side, Client, Socket};

/// Generous: the machine running the tests may be slow and busy.
const PATIENCE: Duration = Duration::from_secs(90);

/// An instance on the cluster.
fn instance(pg: &PgCluster, extra: &[&str]) -> Server {
    // `CLUSTER_TEST_LOG=server=debug` shows the instances' logs.
    let log = std::env::var("CLUSTER_TEST_LOG").unwrap_or_else(|_| "warn".into());
    pg_instance_with_env(pg, extra, &[("OTHELLO_LOG", log.as_str())])
}

fn discs(view: &TableView) -> u32 {
    u32::from(view.black_count) + u32::from(view.white_count)
}

fn to_move(view: &TableView) -> Option<Side> {
    match view.status {
        RoundStatus::Playing { to_move } => Some(to_move),
        RoundStatus::Over { .. } => None,
    }
}

/// Waits on a socket until the view has `n` discs or the round is over.
async fn until_discs(socket: &mut Socket, n: u32) -> TableView {
    socket
        .wait_state(|v| discs(v) >= n || to_move(v).is_none())
        .await
        .expect("the change is pushed")
}

/// Alice (on `a`) creates a private table, Bob (on `b`) takes the free seat.
async fn seated_pair(a: &Server, b: &Server) -> (TableId, Client, Side, Client, Side) {
    let alice = Client::new(&a.url);
    let bob = Client::new(&b.url);
    let table = alice.create_private(None).await.expect("created");
    let seat = bob.take_seat(&table).await.expect("seat taken");
    let bob_side = my_side(&seat).expect("bob holds a side");
    let alice_view = alice.get_table(&table).await.expect("view");
    let alice_side = my_side(&alice_view).expect("alice holds a side");
    assert_ne!(alice_side, bob_side);
    (table, alice, alice_side, bob, bob_side)
}

/// The first legal square for whoever is to move, from their own view.
async fn first_legal(client: &Client, table: &TableId) -> Option<u8> {
    let view = client.get_table(table).await.expect("view");
    view.board.legal.first().copied()
}

#[tokio::test]
async fn players_on_two_instances_and_a_spectator_see_every_move_to_the_end() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let (table, alice, alice_side, bob, _) = seated_pair(&a, &b).await;
    let (mut alice_socket, _) = alice.connect(&table).await.expect("alice on a");
    let (mut bob_socket, _) = bob.connect(&table).await.expect("bob on b");
    let spectator = Client::new(&b.url);
    let (mut watch, first) = spectator.connect(&table).await.expect("spectator");
    assert!(first.you.is_empty(), "a spectator holds no seat");
    // Both holders' presence is seen across instances.
    let both_here = |v: &TableView| {
        v.seats
            .as_ref()
            .is_some_and(|s| s.black.connected && s.white.connected)
    };
    if !both_here(&first) {
        watch.wait_state(both_here).await.expect("both connected");
    }
    let mut view = alice.get_table(&table).await.expect("view");
    let mut moves = 0;
    while let Some(side) = to_move(&view) {
        let mover = if side == alice_side { &alice } else { &bob };
        let square = first_legal(mover, &table).await.expect("a legal move");
        let answer = mover.play_move(&table, square).await.expect("accepted");
        moves += 1;
        let n = discs(&answer);
        assert_eq!(n, 4 + moves, "one disc per placement");
        for socket in [&mut alice_socket, &mut bob_socket, &mut watch] {
            let pushed = until_discs(socket, n).await;
            assert_eq!(discs(&pushed), n);
            assert_eq!(pushed.board.cells, answer.board.cells, "the same board");
        }
        view = answer;
    }
    assert!(moves > 20, "a whole game was played ({moves} moves)");
    let on_b = bob.get_table(&table).await.expect("view on b");
    assert_eq!(on_b.status, view.status);
    assert_eq!(on_b.history, view.history);
}

/// A side's time left plus the moment of the snapshot: the same for two
/// snapshots of one clock state, whenever each was taken (while it runs,
/// its time left falls as the server's clock rises).
fn clock_of(view: &TableView, side: Side) -> i64 {
    let clocks = view.clocks.as_ref().expect("a timed table shows clocks");
    let left = match side {
        Side::Black => clocks.black_ms,
        Side::White => clocks.white_ms,
    };
    if clocks.running == Some(side) {
        left + clocks.server_ms
    } else {
        left
    }
}

#[tokio::test]
async fn a_timed_games_moves_heard_on_the_other_instance_show_the_same_clocks() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let alice = Client::new(&a.url);
    let bob = Client::new(&b.url);
    let control = TimeControl {
        base_s: 600,
        increment_s: 5,
    };
    let table = alice.create_private(Some(control)).await.expect("created");
    bob.take_seat(&table).await.expect("seat taken");
    let alice_side = my_side(&alice.get_table(&table).await.expect("view")).expect("a side");
    let (mut alice_socket, _) = alice.connect(&table).await.expect("alice on a");
    let (mut bob_socket, _) = bob.connect(&table).await.expect("bob on b");
    for moves in 1..=12u32 {
        let view = alice.get_table(&table).await.expect("view");
        let side = to_move(&view).expect("someone to move");
        let mover = if side == alice_side { &alice } else { &bob };
        tokio::time::sleep(Duration::from_millis(30)).await;
        let square = first_legal(mover, &table).await.expect("a legal move");
        let answer = mover.play_move(&table, square).await.expect("accepted");
        let n = 4 + moves;
        assert_eq!(discs(&answer), n);
        // Each instance pushes the move to its own player: one wrote it,
        // the other applied the rows it heard on the bus.
        for socket in [&mut alice_socket, &mut bob_socket] {
            let pushed = until_discs(socket, n).await;
            assert_eq!(pushed.board.cells, answer.board.cells, "the same board");
            let clocks = pushed.clocks.as_ref().expect("clocks");
            if moves == 1 {
                // The other side has not moved yet: its clock waits for its
                // first move, a first-move timer runs instead.
                assert_eq!(clocks.running, None, "no clock before a first move");
                assert_eq!(
                    clocks.first_move.as_ref().map(|f| f.side),
                    Some(side.opponent()),
                    "the other side's first-move timer runs"
                );
            } else {
                assert_eq!(
                    clocks.running,
                    Some(side.opponent()),
                    "the other side's clock runs"
                );
            }
            for s in [Side::Black, Side::White] {
                assert_eq!(
                    clock_of(&pushed, s),
                    clock_of(&answer, s),
                    "move {moves}: {s:?}'s clock is the same on both instances"
                );
            }
        }
        // The mover was charged the time used and given the increment.
        let left = match side {
            Side::Black => answer.clocks.as_ref().expect("clocks").black_ms,
            Side::White => answer.clocks.as_ref().expect("clocks").white_ms,
        };
        assert!(
            left <= 600_000 + 5_000 * i64::from(moves.div_ceil(2)),
            "{left}"
        );
    }
    let path = format!("/table/{table}/export.txt");
    let on_a = alice.get(&path).await.expect("export on a");
    let on_b = bob.get(&path).await.expect("export on b");
    assert_eq!(on_a.0, 200);
    assert_eq!(on_a, on_b, "both instances export the same game and times");
}

#[tokio::test]
async fn simultaneous_moves_from_two_instances_exactly_one_is_accepted() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let (table, alice, alice_side, bob, _) = seated_pair(&a, &b).await;
    let mut accepted = 0;
    for _ in 0..10 {
        let view = alice.get_table(&table).await.expect("view");
        let Some(side) = to_move(&view) else { break };
        let mover = if side == alice_side { &alice } else { &bob };
        let legal = mover.get_table(&table).await.expect("view").board.legal;
        let first = legal[0];
        let second = *legal.get(1).unwrap_or(&first);
        // The same player, the same instant, one request on each instance.
        let on_a = mover.at(&a.url);
        let on_b = mover.at(&b.url);
        let (ra, rb) = tokio::join!(
            on_a.play_move(&table, first),
            on_b.play_move(&table, second)
        );
        let oks = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
        assert_eq!(oks, 1, "exactly one accepted: {ra:?} / {rb:?}");
        let refusal = ra
            .as_ref()
            .err()
            .or(rb.as_ref().err())
            .expect("one refused");
        assert_eq!(refusal.status, 422, "the usual refusal: {refusal:?}");
        accepted += 1;
        let after = bob.get_table(&table).await.expect("view");
        assert_eq!(discs(&after), discs(&view) + 1, "one disc more, not two");
    }
    assert_eq!(accepted, 10);
}

#[tokio::test]
async fn quick_match_pairs_players_on_different_instances() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let control = TimeControl {
        base_s: 180,
        increment_s: 2,
    };
    let path = format!(
        "/ws/queue?base={}&inc={}",
        control.base_s, control.increment_s
    );
    let alice = Client::new(&a.url);
    let bob = Client::new(&b.url);
    // Cookies first: the queue socket needs a session.
    alice.get("/").await.expect("home on a");
    bob.get("/").await.expect("home on b");
    let mut waiting = alice.socket(&path).await.expect("alice queues on a");
    assert_eq!(
        waiting.next_message().await.expect("queued"),
        ServerMessage::Queued
    );
    let mut second = bob.socket(&path).await.expect("bob queues on b");
    let bob_table = loop {
        match second.next_message().await.expect("bob hears") {
            ServerMessage::Matched { table } => break table,
            ServerMessage::Queued => continue,
            other => panic!("unexpected {other:?}"),
        }
    };
    let alice_table = match waiting.next_message().await.expect("alice hears") {
        ServerMessage::Matched { table } => table,
        other => panic!("unexpected {other:?}"),
    };
    assert_eq!(alice_table, bob_table, "the same table");
    let on_a = alice.get_table(&alice_table).await.expect("alice's view");
    let on_b = bob.get_table(&bob_table).await.expect("bob's view");
    let (sa, sb) = (my_side(&on_a), my_side(&on_b));
    assert!(sa.is_some() && sb.is_some() && sa != sb, "{sa:?} / {sb:?}");
    assert_eq!(
        on_a.mode,
        TableMode::Online {
            private: false,
            time: Some(control),
            rated: false,
            tournament: false,
        }
    );
}

#[tokio::test]
async fn players_of_a_killed_instance_reconnect_to_the_other_and_finish() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let (table, alice, alice_side, bob, _) = seated_pair(&a, &b).await;
    let (_alice_socket, _) = alice.connect(&table).await.expect("alice on a");
    let (mut bob_socket, _) = bob.connect(&table).await.expect("bob on b");
    let seat_of = |v: &TableView, side: Side| {
        v.seats.as_ref().map(|s| match side {
            Side::Black => s.black,
            Side::White => s.white,
        })
    };
    bob_socket
        .wait_state(|v| seat_of(v, alice_side).is_some_and(|s| s.connected))
        .await
        .expect("alice connected");
    for _ in 0..4 {
        let view = alice.get_table(&table).await.expect("view");
        let side = to_move(&view).expect("playing");
        let mover = if side == alice_side { &alice } else { &bob };
        let square = first_legal(mover, &table).await.expect("legal");
        mover.play_move(&table, square).await.expect("accepted");
    }
    a.kill();
    // Alice's socket died with her instance: after its heartbeat times out
    // she counts as gone and her grace runs.
    let gone = bob_socket
        .wait_state(|v| {
            seat_of(v, alice_side).is_some_and(|s| !s.connected && s.grace_left.is_some())
        })
        .await
        .expect("alice's absence is pushed");
    assert!(
        to_move(&gone).is_some(),
        "the round goes on during the grace"
    );
    // She comes back on the other instance and the game goes on to its end.
    let alice = alice.at(&b.url);
    let (_alice_socket, _) = alice.connect(&table).await.expect("alice on b");
    bob_socket
        .wait_state(|v| seat_of(v, alice_side).is_some_and(|s| s.connected))
        .await
        .expect("alice back");
    let mut view = bob.get_table(&table).await.expect("view");
    while let Some(side) = to_move(&view) {
        let mover = if side == alice_side { &alice } else { &bob };
        let square = first_legal(mover, &table).await.expect("legal");
        view = mover.play_move(&table, square).await.expect("accepted");
    }
    assert!(
        matches!(
            view.status,
            RoundStatus::Over {
                reason: app::protocol::EndReason::Finished,
                ..
            }
        ),
        "played to the end: {:?}",
        view.status
    );
}

#[tokio::test]
async fn an_ai_move_pending_on_a_killed_instance_is_made_by_the_other() {
    let pg = PgCluster::start();
    // On `a` the AI's searches never start in time: its move stays pending.
    // The AI's lease lasts one instance timeout from the table's creation: 8 s
    // here, not the other tests' 2 s, so that a machine busy enough to delay
    // the next request by two seconds does not hand the move to `b` before
    // the test has seen it pending on `a` (seen in a fresh clone's first
    // `cargo xtask test`, with every test binary running side by side).
    let slow = ["--instance-timeout-ms", "8000"];
    let a = instance(&pg, &["--test-ai-delay-ms", "600000", slow[0], slow[1]]);
    let b = instance(&pg, &slow);
    let human = Client::new(&a.url);
    let table = human
        .create_table(TableMode::VsAi {
            depth: 2,
            human: Side::White,
        })
        .await
        .expect("created");
    let view = human.get_table(&table).await.expect("view");
    assert_eq!(to_move(&view), Some(Side::Black), "the AI opens");
    assert!(view.ai_thinking, "the AI's move is pending on a");
    a.kill();
    // Watching from b (a socket asks nothing of the AI): b takes the job
    // once a's lease has run out.
    let human = human.at(&b.url);
    let (mut socket, _) = human.connect(&table).await.expect("socket on b");
    let started = Instant::now();
    let moved = loop {
        match socket.wait_state(|v| discs(v) == 5).await {
            Ok(view) => break view,
            Err(error) => assert!(
                started.elapsed() < PATIENCE,
                "the other instance never made the AI's move: {error:?}"
            ),
        }
    };
    assert_eq!(to_move(&moved), Some(Side::White), "the human's turn");
    // And the game goes on from b.
    let square = first_legal(&human, &table).await.expect("legal");
    let after = human.play_move(&table, square).await.expect("accepted");
    assert_eq!(discs(&after), 6);
}

#[tokio::test]
async fn an_ai_search_longer_than_its_lease_stays_with_its_instance() {
    let pg = PgCluster::start();
    // On `a` the AI's searches start 12 s late: three of its 4 s
    // leases. `a` is alive all along and renews the lease every tick (1 s),
    // so `b` must not take the job over and search the same move again.
    const DELAY: Duration = Duration::from_secs(12);
    let timeout = ["--instance-timeout-ms", "4000"];
    let a = instance(
        &pg,
        &["--test-ai-delay-ms", "12000", timeout[0], timeout[1]],
    );
    let b = instance(&pg, &timeout);
    let human = Client::new(&a.url);
    let asked = Instant::now();
    let table = human
        .create_table(TableMode::VsAi {
            depth: 2,
            human: Side::White,
        })
        .await
        .expect("created");
    // Watching from b, as a player whose page reconnected there would.
    let (mut socket, _) = human.at(&b.url).connect(&table).await.expect("socket on b");
    let moved = loop {
        match socket.wait_state(|v| discs(v) == 5).await {
            Ok(view) => break view,
            Err(error) => assert!(
                asked.elapsed() < PATIENCE,
                "the AI's move was never made: {error:?}"
            ),
        }
    };
    // a's search could not have answered before its delay: a move seen
    // earlier was b's, made after taking the job over.
    let elapsed = asked.elapsed();
    assert!(
        elapsed >= DELAY,
        "the AI's move came after {elapsed:?}, before a's search started: b took it over"
    );
    assert_eq!(to_move(&moved), Some(Side::White), "the human's turn");
}

#[tokio::test]
async fn the_grace_of_a_killed_instances_player_ends_on_the_other_instance() {
    let pg = PgCluster::start();
    let a = instance(&pg, &["--grace-secs", "3"]);
    let b = instance(&pg, &["--grace-secs", "3"]);
    let (table, alice, alice_side, bob, bob_side) = seated_pair(&a, &b).await;
    let (_alice_socket, _) = alice.connect(&table).await.expect("alice on a");
    let (mut bob_socket, _) = bob.connect(&table).await.expect("bob on b");
    let view = alice.get_table(&table).await.expect("view");
    let side = to_move(&view).expect("playing");
    let mover = if side == alice_side { &alice } else { &bob };
    let square = first_legal(mover, &table).await.expect("legal");
    mover.play_move(&table, square).await.expect("accepted");
    a.kill();
    // Nobody touches the table: b's timer job ends alice's grace (a's
    // heartbeat timeout, then three seconds) and bob wins by forfeit.
    let over = bob_socket
        .wait_state(|v| to_move(v).is_none())
        .await
        .expect("the round ends");
    assert_eq!(
        over.status,
        RoundStatus::Over {
            winner: Some(bob_side),
            reason: app::protocol::EndReason::Timeout,
        }
    );
}

// ---------------------------------------------------------------- the AI lab

/// Waits (polling `client`) until the lab game's latest explanation is no
/// longer being written.
async fn until_explained(client: &Client, lab: &LabId) -> app::lab::LabView {
    let started = Instant::now();
    loop {
        let view = client.lab_get(lab).await.expect("lab view");
        if !view.explaining() {
            return view;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "the explanation was never written"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What two instances must agree on about a lab game.
fn lab_facts(view: &app::lab::LabView) -> (u64, Vec<(u32, String)>, u8, u8) {
    (
        view.version,
        view.moves
            .iter()
            .map(|m| (m.ply, m.square.clone()))
            .collect(),
        view.black_count,
        view.white_count,
    )
}

#[tokio::test]
async fn a_lab_game_is_the_same_on_every_instance_and_a_watcher_elsewhere_is_woken() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let owner = Client::new(&a.url);
    let lab = owner.lab_create(1, 2).await.expect("created on a");
    // A watcher on b sees the game, and the owner is the owner on b too.
    let watcher = Client::new(&b.url);
    let seen = watcher.lab_get(&lab).await.expect("seen on b");
    assert!(!seen.yours, "the watcher does not own it");
    let owner_on_b = owner.at(&b.url);
    assert!(owner_on_b.lab_get(&lab).await.expect("view").yours);
    assert!(
        watcher.lab_next_turn(&lab).await.is_err(),
        "a watcher cannot step the game on any instance"
    );
    // The watcher's long poll on b wakes when the owner steps on a.
    let since = seen.version;
    let waiting = {
        let watcher = watcher.clone();
        let lab = lab.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let view = watcher.lab_wait(&lab, since).await.expect("woken");
            (view, started.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stepped = owner.lab_next_turn(&lab).await.expect("stepped on a");
    assert_eq!(stepped.moves.len(), 1);
    let (woken, waited) = waiting.await.expect("the waiter ran");
    assert!(woken.version > since, "the wait ended on a change");
    assert_eq!(
        woken.moves.len(),
        1,
        "the change is the placement made on a"
    );
    assert!(
        waited < Duration::from_secs(15),
        "woken by the change, not by the 20 s limit ({waited:?})"
    );
    // The owner steps alternately on b and a; both instances always agree.
    for turn in 0..6 {
        let here = if turn % 2 == 0 { &owner_on_b } else { &owner };
        until_explained(here, &lab).await;
        let view = here.lab_next_turn(&lab).await.expect("stepped");
        assert_eq!(view.moves.len(), turn + 2);
        let on_a = until_explained(&owner, &lab).await;
        let on_b = until_explained(&watcher, &lab).await;
        assert_eq!(lab_facts(&on_a), lab_facts(&on_b), "a and b agree");
        assert_eq!(on_a.moves.len(), turn + 2);
        assert!(on_a.moves.iter().all(|m| !m.explanation.is_pending()));
    }
    let listed = watcher.lab_list().await.expect("list on b");
    let summary = listed.iter().find(|s| s.id == lab).expect("listed on b");
    assert_eq!(summary.plies, 7);
}

#[tokio::test]
async fn simultaneous_lab_steps_on_two_instances_place_exactly_one_disc() {
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let owner = Client::new(&a.url);
    let lab = owner.lab_create(1, 1).await.expect("created");
    let owner_on_b = owner.at(&b.url);
    for round in 0..4 {
        let before = until_explained(&owner, &lab).await;
        let (x, y) = tokio::join!(owner.lab_next_turn(&lab), owner_on_b.lab_next_turn(&lab));
        let accepted = [x.is_ok(), y.is_ok()].iter().filter(|ok| **ok).count();
        assert!(accepted >= 1, "round {round}: one of the two steps is made");
        for refused in [&x, &y].into_iter().filter_map(|r| r.as_ref().err()) {
            assert!(
                (400..500).contains(&refused.status),
                "round {round}: the other is refused with a 4xx, not {refused:?}"
            );
        }
        let after = until_explained(&owner_on_b, &lab).await;
        assert_eq!(
            after.moves.len(),
            before.moves.len() + accepted,
            "round {round}: each accepted step placed one disc"
        );
        assert_eq!(
            lab_facts(&after),
            lab_facts(&until_explained(&owner, &lab).await)
        );
    }
}

#[tokio::test]
async fn an_explanation_left_by_a_killed_instance_is_written_by_the_other() {
    let pg = PgCluster::start();
    // a's explainer is a model API that accepts and never answers: its
    // explanation stays pending until a dies.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    let base = format!("http://{}", silent.local_addr().expect("address"));
    let a = pg_instance_with_env(
        &pg,
        &[
            "--explainer",
            "responses",
            "--responses-base-url",
            &base,
            "--explain-timeout-secs",
            "3",
        ],
        &[("OPENAI_API_KEY", "sk-test-never-answered")],
    );
    let b = instance(&pg, &[]);
    let owner = Client::new(&a.url);
    let lab = owner.lab_create(1, 1).await.expect("created");
    let view = owner.lab_next_turn(&lab).await.expect("stepped on a");
    assert!(view.explaining(), "the explanation is being written on a");
    a.kill();
    drop(silent);
    let owner = owner.at(&b.url);
    let view = until_explained(&owner, &lab).await;
    let last = view.last_move().expect("the placement");
    match &last.explanation {
        app::lab::ExplanationView::Ready { provider, .. } => {
            assert!(!provider.is_empty(), "written by b's explainer")
        }
        other => panic!("b wrote the explanation, not {other:?}"),
    }
    // And the game goes on from b.
    let next = owner.lab_next_turn(&lab).await.expect("stepped on b");
    assert_eq!(next.moves.len(), 2);
}

/// An instance on the cluster with extra environment variables.
fn pg_instance_with_env(pg: &PgCluster, extra: &[&str], env: &[(&str, &str)]) -> Server {
    let mut args = vec!["--presence-check-ms", "100"];
    if !extra.contains(&"--instance-timeout-ms") {
        args.extend(["--instance-timeout-ms", "2000"]);
    }
    args.extend_from_slice(extra);
    Server::start_with_env(Path::new(&pg.url()), &args, env)
}

#[tokio::test]
async fn a_failed_lab_explanation_is_retried_and_a_copy_made_on_another_instance() {
    let pg = PgCluster::start();
    // a's explainer fails at once (its model API refuses connections); b's
    // is the built-in writer.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    let base = format!("http://{}", closed.local_addr().expect("address"));
    drop(closed);
    let a = pg_instance_with_env(
        &pg,
        &["--explainer", "responses", "--responses-base-url", &base],
        &[("OPENAI_API_KEY", "sk-test-refused")],
    );
    let b = instance(&pg, &[]);
    let owner = Client::new(&a.url);
    let lab = owner.lab_create(2, 1).await.expect("created");
    owner.lab_next_turn(&lab).await.expect("stepped on a");
    let failed = until_explained(&owner, &lab).await;
    assert!(failed.explanation_failed(), "a's explainer failed");
    // Frozen on every instance until retried.
    let owner_on_b = owner.at(&b.url);
    assert!(owner_on_b.lab_next_turn(&lab).await.is_err());
    let retried = owner_on_b
        .lab_retry_explanation(&lab)
        .await
        .expect("retried on b");
    assert_eq!(retried.moves.len(), 1, "a retry places no disc");
    let written = until_explained(&owner, &lab).await;
    assert!(
        !written.explanation_failed(),
        "b wrote it and a shows it: {:?}",
        written.last_move().map(|m| &m.explanation)
    );
    // A watcher on b copies the game; the copy is theirs, on a as well.
    let watcher = Client::new(&b.url);
    let copy = watcher.lab_copy(&lab).await.expect("copied on b");
    let on_a = watcher
        .at(&a.url)
        .lab_get(&copy)
        .await
        .expect("copy seen on a");
    assert!(on_a.yours, "the copy belongs to the watcher on a too");
    assert_eq!(
        on_a.moves.iter().map(|m| &m.square).collect::<Vec<_>>(),
        written.moves.iter().map(|m| &m.square).collect::<Vec<_>>()
    );
    let stepped = watcher
        .lab_next_turn(&copy)
        .await
        .expect("the copy steps on b");
    assert_eq!(stepped.moves.len(), 2);
}

/// The page's account name for a client (empty: anonymous).
async fn signed_in(client: &Client) -> String {
    client.signed_in_as().await.expect("page")
}

#[tokio::test]
async fn an_account_made_on_one_instance_plays_its_seat_on_the_other_and_signs_out_everywhere() {
    const PASSWORD: &str = "violet kettle marches sideways";
    let pg = PgCluster::start();
    let a = instance(&pg, &[]);
    let b = instance(&pg, &[]);
    let (table, alice, alice_side, bob, _) = seated_pair(&a, &b).await;
    // Alice signs up on a: her seat moves to the account, in the shared store.
    alice
        .sign_up("alice_pg", PASSWORD)
        .await
        .expect("sign up on a");
    assert_eq!(signed_in(&alice).await, "alice_pg");
    // The same name is taken on b too, ignoring case.
    let other = Client::new(&b.url);
    let taken = other
        .sign_up("ALICE_PG", PASSWORD)
        .await
        .expect_err("taken");
    assert_eq!(taken.status, 422, "{taken:?}");

    // Another browser signs in on b and holds Alice's seat there.
    let elsewhere = Client::new(&b.url);
    elsewhere
        .sign_in("alice_pg", PASSWORD)
        .await
        .expect("sign in on b");
    assert_eq!(signed_in(&elsewhere).await, "alice_pg");
    let view = elsewhere.get_table(&table).await.expect("view on b");
    assert_eq!(
        view.you,
        vec![alice_side],
        "the seat is the account's everywhere"
    );
    // Both sides move (a round in which a side never moved is aborted and
    // counts for nobody); Alice's moves from b.
    for _ in 0..2 {
        let view = bob.get_table(&table).await.expect("view");
        let mover = if to_move(&view) == Some(alice_side) {
            &elsewhere
        } else {
            &bob
        };
        let square = first_legal(mover, &table).await.expect("legal");
        mover.play_move(&table, square).await.expect("plays");
    }

    // A round finished on a is in the shared archive, read on b.
    alice.resign(&table, None).await.expect("resign on a");
    let games = elsewhere.my_games(None).await.expect("games on b");
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0].you, vec![alice_side]);
    assert_eq!(games[0].winner, Some(alice_side.opponent()));
    let game = bob.get_game(&games[0].id).await.expect("the game on b");
    assert_eq!(game.reason, app::protocol::EndReason::Resigned);

    // Signing out everywhere on a ends the browser on b too (within the 5 s
    // each instance trusts its memory).
    alice.sign_out_everywhere().await.expect("everywhere");
    assert_eq!(signed_in(&alice).await, "");
    let deadline = Instant::now() + Duration::from_secs(15);
    while !signed_in(&elsewhere).await.is_empty() {
        assert!(Instant::now() < deadline, "still signed in on b");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(elsewhere
        .get_table(&table)
        .await
        .expect("view")
        .you
        .is_empty());
}

#[tokio::test]
async fn a_rated_game_on_two_instances_is_rated_once_and_seen_on_both() {
    const PASSWORD: &str = "violet kettle marches sideways";
    let pg = PgCluster::start();
    // Behind a "proxy" that names each player's address: two accounts from
    // one address never rate each other (fair play).
    let a = instance(&pg, &["--client-ip-header", "X-Real-IP"]);
    let b = instance(&pg, &["--client-ip-header", "X-Real-IP"]);
    let on_a = Client::new(&a.url).from_address("198.51.100.1");
    on_a.sign_up("rated_a", PASSWORD)
        .await
        .expect("sign up on a");
    let on_b = Client::new(&b.url).from_address("198.51.100.2");
    on_b.sign_up("rated_b", PASSWORD)
        .await
        .expect("sign up on b");
    let rated = TableMode::Online {
        private: true,
        time: Some(app::protocol::TimeControl::PRESETS[2]),
        rated: true,
        tournament: false,
    };
    let table = on_a.create_table(rated).await.expect("rated table on a");
    let seated = on_b.take_seat(&table).await.expect("seat on b");
    let b_side = seated.you[0];
    // One move each, each on their own instance.
    for _ in 0..2 {
        let view = on_a.get_table(&table).await.expect("view");
        let mover = if to_move(&view) == Some(b_side) {
            &on_b
        } else {
            &on_a
        };
        let square = first_legal(mover, &table).await.expect("legal");
        mover.play_move(&table, square).await.expect("move");
    }
    // Both resign at once, on different instances: one round ends, once.
    let (x, y) = tokio::join!(on_a.resign(&table, None), on_b.resign(&table, None));
    assert!(x.is_ok() || y.is_ok(), "{x:?} {y:?}");
    for client in [&on_a, &on_b] {
        let mine = client.my_ratings().await.expect("ratings");
        assert_eq!(mine.len(), 1, "{mine:?}");
        assert_eq!(mine[0].speed, app::protocol::Speed::Rapid);
        assert_eq!(mine[0].games, 1, "rated once");
        assert_eq!(mine[0].history.len(), 1);
    }
    let players = on_b.table_players(&table).await.expect("players on b");
    let (black, white) = (
        players.black.change.expect("change"),
        players.white.change.expect("change"),
    );
    assert_eq!(black, -white);
    assert!(black.abs() > 100, "{black}");
}

#[tokio::test]
async fn rated_players_on_two_instances_meet_the_closest_rating_then_anyone_as_the_window_widens() {
    const PASSWORD: &str = "violet kettle marches sideways";
    let pg = PgCluster::start();
    // Each player from an address of their own (fair play links accounts
    // seen from one address: they are never paired rated).
    let a = instance(&pg, &["--client-ip-header", "X-Real-IP"]);
    let b = instance(&pg, &["--client-ip-header", "X-Real-IP"]);
    let db = sqlx::PgPool::connect(&pg.url()).await.expect("database");
    let player = |url: String, name: &'static str, rating: Option<f64>| {
        let db = db.clone();
        async move {
            let client = Client::new(&url).from_address(&format!(
                "198.51.100.{}",
                name.len() * 7 + name.as_bytes()[0] as usize % 7
            ));
            client.sign_up(name, PASSWORD).await.expect("sign up");
            if let Some(rating) = rating {
                sqlx::query(
                    "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, rated_at)
                     SELECT id, 'blitz', $1, 80.0, 0.06, 20, $2 FROM accounts WHERE name = $3",
                )
                .bind(rating)
                .bind(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("time").as_millis() as i64)
                .bind(name)
                .execute(&db)
                .await
                .expect("rating");
            }
            client
                .socket("/ws/queue?base=180&inc=2&rated=1")
                .await
                .expect("queue socket")
        }
    };
    async fn next(socket: &mut Socket) -> ServerMessage {
        tokio::time::timeout(Duration::from_secs(30), socket.next_message())
            .await
            .expect("a message in time")
            .expect("a message")
    }
    // 1750 waits on a; 1500 on b is 250 away: both wait.
    let mut high = player(a.url.clone(), "high_pg", Some(1750.0)).await;
    assert_eq!(next(&mut high).await, ServerMessage::Queued);
    let mut low = player(b.url.clone(), "low_pg", Some(1500.0)).await;
    assert_eq!(next(&mut low).await, ServerMessage::Queued);
    // 1520 arriving on a meets 1500 (on b), not 1750.
    let mut near = player(a.url.clone(), "near_pg", Some(1520.0)).await;
    let ServerMessage::Matched { table } = next(&mut near).await else {
        panic!("paired at once")
    };
    assert_eq!(
        next(&mut low).await,
        ServerMessage::Matched {
            table: table.clone()
        }
    );
    // 1500 arriving on b is 250 from 1750: they wait until the window
    // (100 wider every 5 s) reaches 250, then either instance pairs them.
    let started = Instant::now();
    let mut late = player(b.url.clone(), "late_pg", Some(1500.0)).await;
    assert_eq!(next(&mut late).await, ServerMessage::Queued);
    let ServerMessage::Matched { table } = next(&mut late).await else {
        panic!("paired as the window widened")
    };
    assert_eq!(
        next(&mut high).await,
        ServerMessage::Matched {
            table: table.clone()
        }
    );
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "not at once: {:?}",
        started.elapsed()
    );
    let view = Client::new(&a.url).get_table(&table).await.expect("table");
    assert!(matches!(view.mode, TableMode::Online { rated: true, .. }));
}

/// A Swiss on two instances: round 1 is paired by `a` (its creator starts
/// it there), then `a` is killed; its players carry on on `b`, whose
/// director scores the games and pairs rounds 2 and 3. No round is lost or
/// paired twice, nobody meets twice, every game is scored once.
#[tokio::test]
async fn a_swiss_goes_on_on_the_other_instance_when_the_one_that_paired_it_is_killed() {
    const PASSWORD: &str = "violet kettle marches sideways";
    let pg = PgCluster::start();
    let args = [
        "--client-ip-header",
        "X-Real-IP",
        "--tournament-schedule",
        "none",
    ];
    let a = instance(&pg, &args);
    let b = instance(&pg, &args);
    let mut players = Vec::new();
    for (i, name) in ["swa", "swb", "swc", "swd"].into_iter().enumerate() {
        let url = if i % 2 == 0 { &a.url } else { &b.url };
        let client = Client::new(url).from_address(&format!("198.51.100.{}", 60 + i));
        client.sign_up(name, PASSWORD).await.expect("sign up");
        players.push((name, client));
    }
    let id = players[0]
        .1
        .create_tournament(&app::tournaments::NewTournament {
            name: "Two instances".into(),
            kind: Default::default(),
            minutes: 0,
            control: TimeControl::PRESETS[0],
            rated: true,
            private: false,
            rounds: 3,
            starts_in_minutes: 60,
            bots: false,
        })
        .await
        .expect("created on a");
    for (_, client) in &players {
        client.join_tournament(id.as_str()).await.expect("join");
    }
    players[0]
        .1
        .start_tournament(id.as_str())
        .await
        .expect("started on a");
    let first = players[0].1.tournament(id.as_str()).await.expect("page");
    assert_eq!(first.summary.round, 1);
    assert_eq!(first.rounds[0].len(), 2);
    a.kill();
    let players: Vec<(&str, Client)> = players
        .into_iter()
        .map(|(name, client)| (name, client.at(&b.url)))
        .collect();
    let by_name = |name: &str| &players.iter().find(|(n, _)| *n == name).expect("player").1;
    let watcher = &players[1].1;
    for round in 1..=3u32 {
        let deadline = Instant::now() + PATIENCE;
        let page = loop {
            let page = watcher.tournament(id.as_str()).await.expect("page on b");
            // A pairing shows its table once the table exists (the pairing
            // is written first, then seated): wait for both.
            let seated = |page: &app::tournaments::TournamentView| {
                page.rounds
                    .get(round as usize - 1)
                    .is_some_and(|games| games.iter().all(|g| g.table.is_some()))
            };
            if page.summary.round == round && page.rounds.len() == round as usize && seated(&page) {
                break page;
            }
            assert!(
                Instant::now() < deadline,
                "round {round} never paired: {page:?}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        for game in &page.rounds[round as usize - 1] {
            let table = TableId::new(game.table.clone().expect("a table"));
            let white = game.white.as_deref().expect("four players: no bye");
            let (black, white) = (by_name(&game.black), by_name(white));
            for mover in [black, white] {
                let square = first_legal(mover, &table).await.expect("legal");
                mover.play_move(&table, square).await.expect("move on b");
            }
            white.resign(&table, None).await.expect("resign on b");
        }
    }
    let deadline = Instant::now() + PATIENCE;
    let last = loop {
        let page = watcher.tournament(id.as_str()).await.expect("page");
        if page.summary.status == app::tournaments::Status::Finished {
            break page;
        }
        assert!(Instant::now() < deadline, "never finished: {page:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let mut met = std::collections::HashSet::new();
    for games in &last.rounds {
        assert_eq!(games.len(), 2);
        for game in games {
            assert!(game.black_points.is_some(), "scored: {game:?}");
            let white = game.white.clone().expect("white");
            let pair = if game.black < white {
                (game.black.clone(), white)
            } else {
                (white, game.black.clone())
            };
            assert!(met.insert(pair), "a repeat pairing");
        }
    }
    // Every resignation was white's: black won each game.
    let total: u32 = last.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 2 * 6, "six games, one win each");
}
