//! The wire protocol: what the server sends the browser about a board, and the
//! typed messages in each direction. Raw input is parsed into these types once.
//!
//! (Over 600 lines: the whole wire protocol and its tests, one definition both ends read.)
//!

pub use crate::ids::{AccountId, GameId, LabId, TableId, TournamentId};
use serde::{Deserialize, Serialize};

/// Number of squares on the board.
pub const SQUARES: usize = 64;

/// The board as the 3D island draws it: the interchange form of
/// docs/PRODUCT.md (The board, the rules and the play AI) plus the cues the
/// player sees (legal moves, the last move, the discs it flipped).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSnapshot {
    /// 64 cells, index = 8 × row + column; 0 empty, +1 black, −1 white.
    pub cells: Vec<i8>,
    /// Squares the side to move may play (empty when it is not the viewer's turn).
    pub legal: Vec<u8>,
    /// The square of the last placed disc.
    pub last_move: Option<u8>,
    /// Discs flipped by the last placement (animated by the island).
    pub flipped: Vec<u8>,
    /// A counter that grows with every change, so the island can tell a new
    /// position from a redraw of the same one.
    pub version: u64,
    /// The round's result once it is over: `Some(1)` black won, `Some(-1)` white
    /// won, `Some(0)` a draw; `None` while the round is being played.
    #[serde(default)]
    pub outcome: Option<i8>,
}

impl BoardSnapshot {
    /// The empty board.
    pub fn empty() -> Self {
        Self {
            cells: vec![0; SQUARES],
            legal: Vec::new(),
            last_move: None,
            flipped: Vec::new(),
            version: 0,
            outcome: None,
        }
    }

    /// Discs of each colour: (black, white).
    pub fn counts(&self) -> (usize, usize) {
        let black = self.cells.iter().filter(|&&c| c == 1).count();
        let white = self.cells.iter().filter(|&&c| c == -1).count();
        (black, white)
    }
}

// The rules are the engine's (`engine`, the one rules crate): squares,
// positions, legal moves and flips; the browser links only these (the
// search and the trained weights stay in the engine's worker).

/// Square name (`a1` … `h8`) for an index 0..64 (empty for any other).
pub fn square_name(index: u8) -> String {
    engine::Square::new(usize::from(index)).map_or_else(String::new, |s| s.to_string())
}

/// The index (0..64) of a square name (`d3`), if it is one: exactly as the
/// protocol writes it (lower case, nothing around it).
pub fn square_index(name: &str) -> Option<u8> {
    if name.len() != 2
        || name
            .bytes()
            .any(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit()))
    {
        return None;
    }
    let square = name.parse::<engine::Square>().ok()?;
    u8::try_from(square.index()).ok()
}

/// The usual starting position's cells (d4, e5 white; d5, e4 black).
pub fn start_cells() -> Vec<i8> {
    engine::Position::initial().to_cells().to_vec()
}

/// `cells` with `me` (+1 black, −1 white) to move, if they form a board.
fn position_of(cells: &[i8], me: i8) -> Option<engine::Position> {
    let side = if me > 0 {
        engine::Color::Black
    } else {
        engine::Color::White
    };
    engine::Position::from_cells(cells, side).ok()
}

/// The discs (cell indices) that `me` (+1 black, −1 white) would flip by
/// placing on the empty `square` of `cells`: empty when the move is not legal.
pub fn flips(cells: &[i8], square: u8, me: i8) -> Vec<usize> {
    match (
        position_of(cells, me),
        engine::Square::new(usize::from(square)),
    ) {
        (Some(position), Some(square)) => position
            .flips(square)
            .into_iter()
            .map(|s| s.index())
            .collect(),
        _ => Vec::new(),
    }
}

/// The squares `me` (+1 black, −1 white) may play on `cells`, in order.
pub fn legal_squares(cells: &[i8], me: i8) -> Vec<u8> {
    position_of(cells, me).map_or_else(Vec::new, |position| {
        position
            .legal_moves()
            .into_iter()
            .filter_map(|s| u8::try_from(s.index()).ok())
            .collect()
    })
}

/// The position after each entry of a move list, from `start` (the usual
/// start when empty): the cells and the square placed (`None` for a pass).
/// An entry that does not fit the position (it cannot happen with a list the
/// server sent) leaves the position as it was.
pub fn replay(start: &[i8], history: &[HistoryEntry]) -> Vec<(Vec<i8>, Option<u8>)> {
    let mut cells = if start.len() == SQUARES {
        start.to_vec()
    } else {
        start_cells()
    };
    let mut out = Vec::with_capacity(history.len());
    for entry in history {
        let square = entry.square.as_deref().and_then(square_index);
        if let Some(square) = square {
            let me = entry.side.cell();
            if cells[usize::from(square)] == 0 {
                for i in flips(&cells, square, me) {
                    cells[i] = me;
                }
                cells[usize::from(square)] = me;
            }
        }
        out.push((cells.clone(), square));
    }
    out
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Black,
    White,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// `black` or `white`: as serialised, and the pages' CSS classes and ids.
    pub fn key(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// The side named by [`Side::key`].
    pub fn parse(text: &str) -> Option<Side> {
        [Side::Black, Side::White]
            .into_iter()
            .find(|s| s.key() == text)
    }

    /// "Black" or "White".
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "Black",
            Side::White => "White",
        }
    }

    /// The cell value of this side's discs (+1 black, −1 white).
    pub fn cell(self) -> i8 {
        match self {
            Side::Black => 1,
            Side::White => -1,
        }
    }
}

/// How a table is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableMode {
    /// One player against the AI, which searches `depth` plies (1–6), or
    /// [`STRONGEST`]: the strong search on the trained evaluation.
    VsAi { depth: u8, human: Side },
    /// Two players taking turns in one browser.
    HotSeat,
    /// Two players in two browsers (quick match or a private link), with a
    /// time control (`None`: untimed, private tables only).
    Online {
        private: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time: Option<TimeControl>,
        /// A rated table: timed, between two signed-in players; its rounds
        /// change both players' Glicko-2 ratings for the control's speed.
        #[serde(default, skip_serializing_if = "is_false")]
        rated: bool,
        /// A tournament's game: paired by the tournament, no rematch, never
        /// aborted (a side that never moves loses on time).
        #[serde(default, skip_serializing_if = "is_false")]
        tournament: bool,
    },
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The rating pools: a time control is *blitz* when a round is expected to
/// last under 8 minutes a side (base + 40 increments, as lichess counts),
/// otherwise *rapid*.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    Blitz,
    Rapid,
}

impl Speed {
    pub const ALL: [Speed; 2] = [Speed::Blitz, Speed::Rapid];

    /// The name stored and shown in addresses (`blitz`, `rapid`).
    pub fn key(self) -> &'static str {
        match self {
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
        }
    }

    pub fn parse(text: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.key() == text)
    }
}

/// A stored pool's name read back (the store's rows decode through it).
impl TryFrom<String> for Speed {
    type Error = String;

    fn try_from(text: String) -> Result<Speed, String> {
        Speed::parse(&text).ok_or_else(|| format!("no such rating pool: {text}"))
    }
}

/// A time control: minutes (in seconds) for the whole round plus an increment
/// after each move, e.g. 3+2 = 180 s + 2 s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// Each side's time at the start of a round, in seconds.
    pub base_s: u32,
    /// Seconds added to a side's clock after each of its moves.
    pub increment_s: u32,
}

impl TimeControl {
    /// The presets offered in the lobby: 3+2, 5+0, 10+5.
    pub const PRESETS: [TimeControl; 3] = [
        TimeControl {
            base_s: 180,
            increment_s: 2,
        },
        TimeControl {
            base_s: 300,
            increment_s: 0,
        },
        TimeControl {
            base_s: 600,
            increment_s: 5,
        },
    ];

    /// The short name, `3+2` (whole minutes) or `6s+0` (test controls).
    pub fn label(&self) -> String {
        if self.base_s.is_multiple_of(60) {
            format!("{}+{}", self.base_s / 60, self.increment_s)
        } else {
            format!("{}s+{}", self.base_s, self.increment_s)
        }
    }

    /// Parses a label as written by [`TimeControl::label`].
    pub fn parse(text: &str) -> Option<TimeControl> {
        let (base, inc) = text.trim().split_once('+')?;
        let base_s = match base.strip_suffix('s') {
            Some(secs) => secs.parse::<u32>().ok()?,
            None => base.parse::<u32>().ok()?.checked_mul(60)?,
        };
        let increment_s = inc.parse::<u32>().ok()?;
        (base_s > 0 && base_s <= 3 * 3600 && increment_s <= 600).then_some(TimeControl {
            base_s,
            increment_s,
        })
    }

    /// The rating pool of this control.
    pub fn speed(&self) -> Speed {
        if u64::from(self.base_s) + 40 * u64::from(self.increment_s) < 480 {
            Speed::Blitz
        } else {
            Speed::Rapid
        }
    }

    /// Whether this control is one of the lobby's presets.
    pub fn is_preset(&self) -> bool {
        Self::PRESETS.contains(self)
    }
}

/// The "Strongest" level beside depths 1–6: the strong search on the
/// trained pattern evaluation with a time budget per move and exact
/// endgames (stored as this depth in a vs-AI table's mode).
pub const STRONGEST: u8 = 7;

/// The levels the lobby offers: depths 1–6 and [`STRONGEST`].
pub const AI_LEVELS: [u8; 7] = [1, 2, 3, 4, 5, 6, STRONGEST];

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Neither side could move.
    Finished,
    /// A player resigned.
    Resigned,
    /// A player left and did not come back within the grace period.
    Timeout,
    /// Both players left; nobody wins.
    Abandoned,
    /// The side to move ran out of time on its clock.
    Time,
    /// A side never placed a disc: the game counts for nobody (no win, loss
    /// or draw, never rated). Said of archived games; a live round keeps
    /// how it ended.
    Aborted,
    /// A tournament game in which a side did not make its first move in
    /// time: that side loses (the winner gets at least 33 discs, as for a
    /// resignation); with no winner, neither side came and both lose. Never
    /// rated.
    Forfeit,
}

impl EndReason {
    pub const ALL: [EndReason; 7] = [
        EndReason::Finished,
        EndReason::Resigned,
        EndReason::Timeout,
        EndReason::Abandoned,
        EndReason::Time,
        EndReason::Aborted,
        EndReason::Forfeit,
    ];

    /// The name stored in `rounds.reason` and `archived_games.reason` (the
    /// strings the schema's CHECK lists).
    pub fn key(self) -> &'static str {
        match self {
            EndReason::Finished => "finished",
            EndReason::Resigned => "resigned",
            EndReason::Timeout => "timeout",
            EndReason::Abandoned => "abandoned",
            EndReason::Time => "time",
            EndReason::Aborted => "aborted",
            EndReason::Forfeit => "forfeit",
        }
    }

    pub fn parse(text: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.key() == text)
    }
}

/// The state of the current round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum RoundStatus {
    /// `to_move` is to play.
    Playing { to_move: Side },
    /// Over; `winner` is `None` for a draw.
    Over {
        winner: Option<Side>,
        reason: EndReason,
    },
}

/// Wins and draws across the rounds of one table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub black_wins: u32,
    pub white_wins: u32,
    pub draws: u32,
}

/// Rematch votes of the current (finished) round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Votes {
    pub black: bool,
    pub white: bool,
}

/// One entry of the move list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub side: Side,
    /// The square name (`d3`), or `None` for a pass.
    pub square: Option<String>,
    /// Discs flipped by the move.
    pub flipped: u8,
}

/// Everything a browser shows about a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableView {
    pub id: TableId,
    pub mode: TableMode,
    /// 1 for the first game at this table, then one more per rematch.
    pub round: u32,
    pub board: BoardSnapshot,
    pub status: RoundStatus,
    pub black_count: u8,
    pub white_count: u8,
    pub history: Vec<HistoryEntry>,
    pub tally: Tally,
    pub votes: Votes,
    /// The AI is searching its reply.
    pub ai_thinking: bool,
    /// The latest notice, e.g. an automatic pass or the result.
    pub notice: Option<crate::i18n::Msg>,
    /// The sides the viewer may play (both at a hot-seat table).
    pub you: Vec<Side>,
    /// Seats and presence at an online table.
    #[serde(default)]
    pub seats: Option<Seats>,
    /// The AI's latest search (vs AI tables).
    #[serde(default)]
    pub ai_search: Option<AiSearch>,
    /// Both clocks of a timed online table.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    /// The round's starting position (cells as in [`BoardSnapshot`]), so the
    /// page can show the position after any entry of `history` ([`replay`]).
    /// Empty means the usual start.
    #[serde(default)]
    pub start: Vec<i8>,
    /// The sides that went berserk this round (an arena's game: half the
    /// clock, no increment, an extra point for a win).
    #[serde(default)]
    pub berserk: Vec<Side>,
}

/// The clocks of a timed online table at the moment the server built the
/// view. The browser counts down `running`'s time from the moment the
/// snapshot arrived; the server alone decides when a flag falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub control: TimeControl,
    /// Black's time left at `server_ms`, in milliseconds.
    pub black_ms: i64,
    /// White's time left at `server_ms`, in milliseconds.
    pub white_ms: i64,
    /// The side whose clock runs (None: stopped, e.g. waiting for an
    /// opponent or between rounds).
    pub running: Option<Side>,
    /// The server's clock when this snapshot was made (ms since the epoch).
    pub server_ms: i64,
    /// The side to move has not made its first move yet: its clock does
    /// not run, its first-move timer does (None otherwise).
    #[serde(default)]
    pub first_move: Option<FirstMove>,
}

/// A side's first-move timer: the time it has left at the snapshot to make
/// its first move (its clock starts there; docs/PRODUCT.md, Online rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstMove {
    pub side: Side,
    pub ms: i64,
}

impl Clocks {
    /// A side's time left at the snapshot.
    pub fn get(&self, side: Side) -> i64 {
        match side {
            Side::Black => self.black_ms,
            Side::White => self.white_ms,
        }
    }
}

/// What the AI's latest search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiSearch {
    pub depth: u8,
    pub nodes: u64,
    pub value: i32,
    /// The move came from the server's opening book (no search).
    #[serde(default)]
    pub book: bool,
}

/// One seat of an online table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Someone holds this seat.
    pub taken: bool,
    /// The holder has a live connection.
    pub connected: bool,
    /// Seconds left before a disconnected holder loses the game.
    pub grace_left: Option<u32>,
}

/// Both seats of an online table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub black: SeatView,
    pub white: SeatView,
}

impl Seats {
    pub fn get(&self, side: Side) -> SeatView {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }
}

impl TableView {
    /// Whether the viewer may place a disc now.
    pub fn viewer_to_move(&self) -> bool {
        match self.status {
            RoundStatus::Playing { to_move } => self.you.contains(&to_move) && !self.ai_thinking,
            RoundStatus::Over { .. } => false,
        }
    }

    /// Whether the AI should be thinking but is not: the server refused its
    /// search because the AI queue was full. Opening the table again
    /// (`get_table`) asks again.
    pub fn ai_refused(&self) -> bool {
        ai_refused(self.mode, self.status, self.ai_thinking)
    }
}

/// See [`TableView::ai_refused`]: a vs-AI round in play, the AI to move, and
/// no search running.
pub fn ai_refused(mode: TableMode, status: RoundStatus, ai_thinking: bool) -> bool {
    match (mode, status) {
        (TableMode::VsAi { human, .. }, RoundStatus::Playing { to_move }) => {
            to_move != human && !ai_thinking
        }
        _ => false,
    }
}

/// A command from a player. Parsed from server-function arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum TableCommand {
    Place {
        table: TableId,
        square: u8,
    },
    Resign {
        table: TableId,
        side: Option<Side>,
    },
    Vote {
        table: TableId,
        side: Option<Side>,
        vote: bool,
    },
    /// Berserk at an arena's table (the server checks the arena).
    Berserk {
        table: TableId,
    },
}

/// What the server pushes over a table's WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The table's state (sent on connect and after every change).
    State { table: Box<TableView> },
    /// A message from the client was refused: the message by key, and in
    /// English for logs and tests.
    Error {
        message: String,
        #[serde(default)]
        msg: crate::i18n::Msg,
    },
    /// Answer to a ping.
    Pong,
    /// Quick match: waiting for an opponent.
    Queued,
    /// Quick match: paired; go to this table.
    Matched { table: TableId },
    /// Quick match: nobody came within `waited_s` seconds; the nearest-rated
    /// bot online may be challenged instead (the player decides).
    BotOffer {
        bot: String,
        rating: i32,
        waited_s: u32,
    },
}

impl ServerMessage {
    /// A refusal by key (with its English text beside it).
    pub fn error(msg: crate::i18n::Msg) -> Self {
        ServerMessage::Error {
            message: msg.english(),
            msg,
        }
    }
}

/// The quick-match queue's messages, as the lobby reads them: the queue's
/// variants of [`ServerMessage`], read from the same wire form
/// (`{"type": …}`) by [`QueueMessage::parse`]. The lobby parses only these, so
/// reading a table's full state (and its code) stays out of the lobby's wasm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueueMessage {
    /// A message from the client was refused (by key).
    Error { msg: crate::i18n::Msg },
    /// Answer to a ping.
    Pong,
    /// Waiting for an opponent.
    Queued,
    /// Paired; go to this table.
    Matched { table: TableId },
    /// Nobody came within `waited_s` seconds: `bot` (rated `rating` in the
    /// control's pool) is online and may be challenged instead.
    BotOffer {
        bot: String,
        rating: i32,
        waited_s: u32,
    },
}

impl QueueMessage {
    /// Reads a queue message; `None` for anything else (a table's state, a
    /// malformed text). A plain struct rather than serde's tagged-enum
    /// support, which buffers the input and weighs ~10 KB of wasm.
    pub fn parse(text: &str) -> Option<QueueMessage> {
        #[derive(Deserialize)]
        struct Wire {
            #[serde(rename = "type")]
            kind: String,
            #[serde(default)]
            table: Option<TableId>,
            #[serde(default)]
            msg: Option<crate::i18n::Msg>,
            #[serde(default)]
            bot: Option<String>,
            #[serde(default)]
            rating: i32,
            #[serde(default)]
            waited_s: u32,
        }
        let wire: Wire = serde_json::from_str(text).ok()?;
        match (wire.kind.as_str(), wire.table, wire.msg) {
            ("matched", Some(table), _) => Some(QueueMessage::Matched { table }),
            ("bot_offer", _, _) => Some(QueueMessage::BotOffer {
                bot: wire.bot?,
                rating: wire.rating,
                waited_s: wire.waited_s,
            }),
            ("error", _, Some(msg)) => Some(QueueMessage::Error { msg }),
            ("queued", _, _) => Some(QueueMessage::Queued),
            ("pong", _, _) => Some(QueueMessage::Pong),
            _ => None,
        }
    }
}

/// What a browser may send over the WebSocket (commands go through server
/// functions; the socket carries keep-alives).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    Ping,
}

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "othello_session";

/// Who a request comes from, put in the request by the server's
/// middleware: the SHA-256 of an anonymous browser's token, or
/// `account:<id>` for a browser signed in to an account (the same in every
/// browser of that account).
///
/// Its text is read with [`Session::as_str`] (the identity's stored form,
/// parsed on the server by `identity::Identity`); a session is made only by
/// the server's middleware, the hub's queue and tests ([`Session::new`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Session(String);

impl Session {
    /// The session of an identity's stored text.
    pub fn new(identity: impl Into<String>) -> Self {
        Self(identity.into())
    }

    /// The identity's stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// The hash of the browser's own token (its cookie), whoever it is signed in
/// as: what "sign out" ends. Put in the request beside [`Session`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BrowserToken(pub String);

/// The cookie that names a browser for longer than any session: a random
/// token, kept across signing in and out. Sign-in trusts a browser that
/// signed in to an account before (strangers' failures never lock it out),
/// and fair play links the accounts one browser uses.
pub const DEVICE_COOKIE: &str = "othello_device";

/// The hash of the browser's device cookie, put in the request beside
/// [`Session`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeviceToken(pub String);

/// A signed-in player as the page shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountView {
    /// The name exactly as chosen (text, never markup).
    pub name: String,
}

// ---------------------------------------------------------------- analysis

/// How much a move lost against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Best,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Best => "best",
            Severity::Inaccuracy => "inaccuracy",
            Severity::Mistake => "mistake",
            Severity::Blunder => "blunder",
        }
    }
}

/// One analysed placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// 1 for the first placement (passes are not counted).
    pub ply: u32,
    pub side: Side,
    pub square: String,
    /// The best move found (the played one when it was best).
    pub best: String,
    /// Value of the best move and of the played move, from the mover's side,
    /// in discs (the final disc difference expected): the strong search's
    /// estimate in the midgame, the exact final difference when `exact`.
    pub best_value: i32,
    pub played_value: i32,
    /// `best_value - played_value` (0 for the best move).
    pub loss: i32,
    /// Values from the exact endgame solver (disc differences).
    pub exact: bool,
    /// The played move's value from black's side (the graph's point).
    pub value_black: i32,
    pub severity: Severity,
    /// A move of the server's opening book (one it plays: within a disc of
    /// its best move); analyses stored before the book lack it.
    #[serde(default)]
    pub book: bool,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameAnalysis {
    pub moves: Vec<MoveAnalysis>,
    /// The fixed search depth used in the midgame.
    pub depth: u32,
    /// Exact values from this many empty squares down.
    pub exact_empties: u32,
    /// Every value is in discs (analyses stored before the trained
    /// evaluation used the play AI's units: they lack this and are made
    /// again).
    #[serde(default)]
    pub discs: bool,
    /// Plies of the worst mistakes, worst first.
    pub worst: Vec<u32>,
    /// The opening's name, when it is a named one.
    pub opening: Option<String>,
    /// The game's first position (64 cells, as [`BoardSnapshot::cells`]),
    /// from which `moves` replay: filled by the server when it answers (a
    /// game may start from a set-up position); empty means the usual start.
    #[serde(default)]
    pub start: Vec<i8>,
}

/// The kinds of game an analysis is of: a table's round, an AI-lab game, an
/// archived game. On the wire, `"table"`, `"lab"`, `"game"`; anything else is
/// refused when the request is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Table,
    Lab,
    Game,
}

impl GameKind {
    /// The wire name (also the prefix of stored analyses' keys).
    pub fn key(self) -> &'static str {
        match self {
            GameKind::Table => "table",
            GameKind::Lab => "lab",
            GameKind::Game => "game",
        }
    }
}

/// A position's moves valued by the server's deeper search
/// (`analysis_position`, the analysis board's button), best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionValues {
    pub moves: Vec<PositionMove>,
    /// The search's depth (the empty squares when every value is exact).
    pub depth: u32,
}

/// One legal move in [`PositionValues`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionMove {
    pub square: u8,
    /// Discs for the side to move (the final difference expected).
    pub value: f32,
    /// Solved exactly.
    pub exact: bool,
    /// A move of the opening book.
    pub book: bool,
}

/// Where an analysis stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum AnalysisView {
    /// Not analysed yet; `available` says whether it can be (a finished game).
    None {
        available: bool,
    },
    /// Being computed: `done` of `total` placements.
    Running {
        done: u32,
        total: u32,
    },
    Ready {
        analysis: GameAnalysis,
    },
    Failed {
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ai_is_refused_only_on_its_own_turn_in_play_without_a_search() {
        let vs_ai = TableMode::VsAi {
            depth: 2,
            human: Side::Black,
        };
        let ai_turn = RoundStatus::Playing {
            to_move: Side::White,
        };
        let human_turn = RoundStatus::Playing {
            to_move: Side::Black,
        };
        assert!(ai_refused(vs_ai, ai_turn, false));
        assert!(!ai_refused(vs_ai, ai_turn, true), "thinking");
        assert!(!ai_refused(vs_ai, human_turn, false), "the human's turn");
        assert!(!ai_refused(TableMode::HotSeat, ai_turn, false), "no AI");
        assert!(!ai_refused(
            TableMode::Online {
                private: true,
                time: None,
                rated: false,
                tournament: false,
            },
            ai_turn,
            false
        ));
    }

    /// The lobby reads the queue's messages as the server writes them, and
    /// nothing else parses as one.
    #[test]
    fn queue_messages_read_what_the_server_sends_on_the_queue() {
        let pairs = [
            (
                ServerMessage::Matched {
                    table: crate::ids::TableId::new("t1"),
                },
                QueueMessage::Matched {
                    table: crate::ids::TableId::new("t1"),
                },
            ),
            (
                ServerMessage::error(crate::msg!("srv-queue-unavailable")),
                QueueMessage::Error {
                    msg: crate::msg!("srv-queue-unavailable"),
                },
            ),
            (ServerMessage::Queued, QueueMessage::Queued),
            (ServerMessage::Pong, QueueMessage::Pong),
            (
                ServerMessage::BotOffer {
                    bot: "Tide-bot".into(),
                    rating: 1523,
                    waited_s: 20,
                },
                QueueMessage::BotOffer {
                    bot: "Tide-bot".into(),
                    rating: 1523,
                    waited_s: 20,
                },
            ),
        ];
        for (sent, read) in pairs {
            let wire = serde_json::to_string(&sent).expect("serialize");
            assert_eq!(QueueMessage::parse(&wire), Some(read), "{wire}");
        }
        for other in [
            r#"{"type":"state","table":{}}"#,
            r#"{"type":"matched"}"#,
            r#"{"type":"bot_offer","rating":1500}"#,
            r#"{"type":"unknown"}"#,
            "not json",
        ] {
            assert_eq!(QueueMessage::parse(other), None, "{other}");
        }
    }

    fn entry(side: Side, square: Option<&str>) -> HistoryEntry {
        HistoryEntry {
            side,
            square: square.map(str::to_string),
            flipped: 0,
        }
    }

    #[test]
    fn square_names_and_indices_round_trip() {
        for i in 0..64u8 {
            assert_eq!(square_index(&square_name(i)), Some(i));
        }
        for bad in ["", "a", "i1", "a9", "a0", "A1", "a10"] {
            assert_eq!(square_index(bad), None, "{bad}");
        }
    }

    #[test]
    fn replay_flips_like_the_rules_and_keeps_passes() {
        let history = [
            entry(Side::Black, Some("f5")),
            entry(Side::White, Some("d6")),
            entry(Side::Black, None),
            entry(Side::Black, Some("c3")),
        ];
        let positions = replay(&[], &history);
        assert_eq!(positions.len(), 4);
        let count = |cells: &[i8], v: i8| cells.iter().filter(|&&c| c == v).count();
        // f5 flips e5: 4 black, 1 white.
        let (after_f5, square) = &positions[0];
        assert_eq!(*square, square_index("f5"));
        assert_eq!((count(after_f5, 1), count(after_f5, -1)), (4, 1));
        assert_eq!(after_f5[usize::from(square_index("e5").unwrap())], 1);
        // d6 flips d5: 3 black, 3 white.
        assert_eq!(
            (count(&positions[1].0, 1), count(&positions[1].0, -1)),
            (3, 3)
        );
        // A pass changes nothing.
        assert_eq!(positions[2].0, positions[1].0);
        assert_eq!(positions[2].1, None);
        // c3 flips d4 along the diagonal.
        let after_c3 = &positions[3].0;
        assert_eq!(after_c3[usize::from(square_index("d4").unwrap())], 1);
        assert_eq!((count(after_c3, 1), count(after_c3, -1)), (5, 2));
    }

    #[test]
    fn replay_starts_from_a_given_position() {
        let mut start = vec![0i8; SQUARES];
        start[0] = 1; // a1 black
        start[1] = -1; // b1 white
        let positions = replay(&start, &[entry(Side::Black, Some("c1"))]);
        assert_eq!(&positions[0].0[..3], &[1, 1, 1]);
    }
}
