//! `othello bot` (engine-cli/src/bot.rs) against a real server: a bot
//! account's token, the bridge driving `othello nboard`, and a person who
//! challenges it and plays the game to its end through the site's protocol
//! — once in process, and once with the server killed and started again
//! mid-game (the bridge reconnects and finishes the game).
//!
//! The `othello` binary is built first (`cargo build -p engine-cli --bin
//! othello`: nothing to do when it is current).

mod common;
mod support;

use app::bots::{BotCardView, NewBotToken};
use app::challenges::{ChallengeStatus, Colour, NewChallenge};
use app::protocol::{EndReason, RoundStatus, Side, TableId, TableView, TimeControl};
use serde_json::json;
use server::clock::ManualClock;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use testclient::Client;

const PASSWORD: &str = "violet kettle marches sideways";

/// The `othello` binary of this checkout, built if needed.
fn othello() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .current_dir(&root)
                .args(["build", "-p", "engine-cli", "--bin", "othello"])
                .status()
                .expect("cargo runs");
            assert!(status.success(), "othello builds");
            let target = std::env::var("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|_| root.join("target"));
            let path = target.join("debug").join("othello");
            assert!(path.is_file(), "{}", path.display());
            path
        })
        .clone()
}

/// A running `othello bot`, stopped when dropped.
struct Bridge(Child);

impl Bridge {
    fn start(url: &str, token: &str, dir: &Path) -> Bridge {
        let token_file = dir.join("bot.token");
        std::fs::write(&token_file, format!("{token}\n")).expect("token file");
        Bridge::with(url, &token_file, &["--accept", "blitz,rapid", "--casual"])
    }

    /// The bridge on a token file, with more of `othello bot`'s options.
    fn with(url: &str, token_file: &Path, options: &[&str]) -> Bridge {
        let engine = format!("{} nboard", othello().display());
        let child = Command::new(othello())
            .args(["bot", "--server", url, "--token"])
            .arg(token_file)
            .args(["--engine", &engine])
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("othello bot starts");
        Bridge(child)
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A bot account (signed up through `browser`) and its token.
async fn bot_token(browser: &Client) -> String {
    browser.sign_up("robot", PASSWORD).await.expect("sign up");
    let card: BotCardView = browser.call("become_bot", json!({})).await.expect("bot");
    assert!(card.bot);
    let made: NewBotToken = browser
        .call("create_bot_token", json!({"label": "bridge"}))
        .await
        .expect("token");
    made.token
}

/// Paula challenges the bot (she plays black) and waits for its answer:
/// the table.
async fn challenge_accepted(person: &Client, rated: bool) -> Option<TableId> {
    challenge_answered(person, "robot", rated).await
}

/// Paula challenges the bot `name` (she plays black): the table once it
/// accepted.
async fn challenge_answered(person: &Client, name: &str, rated: bool) -> Option<TableId> {
    let id = person
        .challenge(&NewChallenge {
            name: name.into(),
            control: TimeControl::PRESETS[0],
            colour: Colour::Black,
            rated,
            random_start: false,
            synchro: false,
        })
        .await
        .expect("sent");
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        let lists = person.my_challenges().await.expect("lists");
        let mine = lists.outgoing.iter().find(|c| c.id == id).expect("listed");
        match mine.status {
            ChallengeStatus::Accepted => return mine.table.clone(),
            ChallengeStatus::Open => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => return None,
        }
    }
    panic!("the bot did not answer the challenge within 30 s");
}

/// Paula plays her first legal move whenever it is her turn, until the
/// round is over or she has made `moves` moves; the last view.
async fn play(person: &Client, table: &TableId, moves: usize, limit: Duration) -> TableView {
    let until = Instant::now() + limit;
    let mut made = 0;
    loop {
        assert!(Instant::now() < until, "the game did not end in {limit:?}");
        let Ok(view) = person.get_table(table).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        match view.status {
            RoundStatus::Over { .. } => return view,
            _ if made >= moves => return view,
            RoundStatus::Playing {
                to_move: Side::Black,
            } if !view.board.legal.is_empty() => {
                if person.play_move(table, view.board.legal[0]).await.is_ok() {
                    made += 1;
                }
            }
            RoundStatus::Playing { .. } => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_accepts_a_challenge_and_plays_the_game_to_its_end() {
    let othello = othello();
    assert!(othello.is_file());
    let dir = tempfile::tempdir().expect("tempdir");
    let live =
        support::Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let token = bot_token(&live.browser().await).await;
    let _bridge = Bridge::start(&live.url, &token, dir.path());
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");

    // A rated challenge is declined (the bridge takes casual games only).
    assert_eq!(challenge_accepted(&person, true).await, None);
    let table = challenge_accepted(&person, false)
        .await
        .expect("a casual challenge is accepted");
    let over = play(&person, &table, usize::MAX, Duration::from_secs(240)).await;
    let RoundStatus::Over { reason, .. } = over.status else {
        unreachable!("play returns at the end");
    };
    assert_eq!(reason, EndReason::Finished, "played to the last disc");
    let white_moves = over
        .history
        .iter()
        .filter(|m| m.side == Side::White && m.square.is_some())
        .count();
    assert!(white_moves >= 10, "the bot played: {:?}", over.history);
    assert_eq!(
        usize::from(over.black_count) + usize::from(over.white_count),
        over.board.cells.iter().filter(|&&c| c != 0).count()
    );
}

/// Paula's table socket (her page open): she is present. A loaded machine
/// may miss the first try's answer; the last refusal is shown.
async fn present(person: &Client, table: &TableId) -> testclient::Socket {
    let mut last = None;
    for _ in 0..3 {
        match person.connect(table).await {
            Ok((socket, _)) => return socket,
            Err(refusal) => last = Some(refusal),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("no table socket: {last:?}");
}

/// A server process, killed when dropped (a failing test leaves none).
struct Running(Child);

impl Running {
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The server binary on a fixed address (so that it comes back where the
/// bridge looks for it).
fn server_at(address: &str, database: &Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello-server"))
        .args(["--listen", address, "--database"])
        .arg(database)
        .args(["--explainer", "offline"])
        .env("OTHELLO_LOG", "warn")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("server starts");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    loop {
        line.clear();
        let read = reader.read_line(&mut line).expect("read stdout");
        assert!(read > 0, "server exited before listening");
        if line.starts_with("listening on ") {
            break;
        }
    }
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    Running(child)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_reconnects_after_the_server_restarts_and_finishes_the_game() {
    let othello = othello();
    assert!(othello.is_file());
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("db.sqlite");
    let address = common::free_address();
    let url = format!("http://{address}");
    let mut server = server_at(&address, &database);
    let owner = common::visitor(&url).await;
    let token = bot_token(&owner).await;
    let _bridge = Bridge::start(&url, &token, dir.path());
    let person = common::visitor(&url).await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let table = challenge_accepted(&person, false).await.expect("accepted");
    // Her table's page is open (she is present), and they play a while.
    let socket = present(&person, &table).await;
    let before = play(&person, &table, 6, Duration::from_secs(60)).await;
    assert!(matches!(before.status, RoundStatus::Playing { .. }));
    let played = before.history.len();
    assert!(played >= 11, "{:?}", before.history);

    // The server dies and comes back on the same database and address.
    server.kill();
    drop(socket);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let _server = server_at(&address, &database);
    let _socket = present(&person, &table).await;
    let over = play(&person, &table, usize::MAX, Duration::from_secs(240)).await;
    let RoundStatus::Over { reason, .. } = over.status else {
        unreachable!("play returns at the end");
    };
    assert_eq!(reason, EndReason::Finished, "{:?}", over.history);
    assert!(over.history.len() > played + 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_bot_is_set_up_once_and_plays_a_person_rated_through_the_api() {
    let othello = othello();
    assert!(othello.is_file());
    let dir = tempfile::tempdir().expect("tempdir");
    let live =
        support::Live::start(&dir.path().join("db.sqlite"), ManualClock::new(1_000_000)).await;
    let tokens = dir.path().join("house");
    let action = server::admin::Action::HouseBots {
        dir: tokens.clone(),
    };
    let run = |live: &support::Live| {
        let (store, action) = (live.store.clone(), action.clone());
        async move {
            let mut out = Vec::new();
            server::admin::execute(&store, &action, 2_000_000, &mut out)
                .await
                .expect("house bots set up");
            String::from_utf8(out).expect("utf-8")
        }
    };
    // The first run makes the four accounts and their tokens; the next one
    // finds every token live and changes nothing.
    let first = run(&live).await;
    let lines: Vec<Vec<&str>> = first.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(
        lines.len(),
        server::bots::house::HOUSE_BOTS.len(),
        "{first}"
    );
    for (line, (name, depth)) in lines.iter().zip(server::bots::house::HOUSE_BOTS) {
        assert_eq!(line[0], name);
        assert_eq!(line[1], depth.to_string());
        assert_eq!(line[3], "Created", "{first}");
        let file = Path::new(line[2]);
        assert!(file.starts_with(&tokens));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(file)
                .expect("token file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{}", file.display());
        }
    }
    let again = run(&live).await;
    assert!(again.lines().all(|l| l.ends_with(" Kept")), "{again}");
    assert_eq!(first.replace("Created", "Kept"), again);
    // Nobody signs in as a house bot, whatever the password.
    let guess = live.browser().await;
    assert!(guess
        .sign_in("Pebble-bot", PASSWORD)
        .await
        .is_err_and(|refusal| refusal.status < 500));

    // The weakest one's bridge, as deploy/house-bots.sh starts it.
    let (name, depth) = server::bots::house::HOUSE_BOTS[0];
    let _bridge = Bridge::with(
        &live.url,
        &tokens.join(format!("{name}.token")),
        &["--max-depth", &depth.to_string()],
    );
    let person = live.browser().await;
    person.sign_up("paula", PASSWORD).await.expect("sign up");
    let table = challenge_answered(&person, name, true)
        .await
        .expect("a rated challenge is accepted");
    let over = play(&person, &table, usize::MAX, Duration::from_secs(240)).await;
    assert!(matches!(over.status, RoundStatus::Over { .. }));
    // Rated: paula's rating moved, and the bot's, shown on /bots.
    let mine: Vec<app::ratings::PoolRating> =
        person.call("my_ratings", json!({})).await.expect("ratings");
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0].games, 1);
    assert_ne!(mine[0].rating.rating, 1500, "{mine:?}");
    let listing: app::bots::BotsView = person.call("bots_page", json!({})).await.expect("bots");
    let pebble = listing
        .bots
        .iter()
        .find(|b| b.name == name)
        .expect("listed");
    assert!(pebble.online, "{pebble:?}");
    assert_eq!(pebble.ratings.len(), 1, "{pebble:?}");
    assert_eq!(pebble.recent.len(), 1);
    assert_eq!(listing.bots.len(), server::bots::house::HOUSE_BOTS.len());
}
