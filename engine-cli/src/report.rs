//! Reproducible sample games (docs/PRODUCT.md, "Sample games and the
//! report"): the play AI against a simple
//! deterministic script, as black and as white, written out as a JSON
//! document and a readable text report.
//!
//! (Over 600 lines: the report's script, its published figures and the text and JSON writers belong together.)
//!
//! * The AI is [`search`] at [`REPORT_DEPTH`] — exactly the play AI.
//! * The script ([`script_move`]): if a corner is legal, the corner that
//!   flips the most discs; otherwise the move that flips the most discs;
//!   ties in both cases go to the lowest cell index (a1 = 0 … h8 = 63).
//! * Passes are inserted automatically by [`Game`].
//!
//! Everything is deterministic: the same engine gives the same bytes on
//! every run (no timestamps, timings or hash-map iteration order).
//!
//! ```
//! // (Checked by tests/report.rs; the workspace runs no doc tests.)
//! use engine_cli::report::{script_move, SampleReport};
//! use engine::Position;
//! let first = script_move(&Position::initial()).unwrap();
//! assert_eq!(first.to_string(), "d3"); // all four flip one disc: lowest index
//! let report = SampleReport::generate();
//! assert_eq!(report.games.len(), 2);
//! assert_eq!(report.to_json(), SampleReport::generate().to_json());
//! ```
//!
//! (Over 600 lines: one deterministic document, its generator, JSON and text
//! writers and the published games; half of it is output formatting.)

use engine::{search, Color, Game, GameEvent, GameResult, Position, Square};
use std::fmt::Write as _;

/// Search depth of the AI in the sample games (placed discs).
pub const REPORT_DEPTH: u32 = 3;

/// The figures published for the two sample games (docs/PRODUCT.md,
/// "Sample games and the report") that the play AI must reproduce.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Published {
    /// The AI's colour in that game.
    pub ai_color: Color,
    /// Final black discs.
    pub black: u32,
    /// Final white discs.
    pub white: u32,
    /// Automatic passes.
    pub passes: usize,
    /// Positions searched by the AI over the game.
    pub positions: u64,
}

/// Game 1 (AI black) and game 2 (AI white) as published.
pub const PUBLISHED: [Published; 2] = [
    Published {
        ai_color: Color::Black,
        black: 48,
        white: 16,
        passes: 3,
        positions: 7_216,
    },
    Published {
        ai_color: Color::White,
        black: 7,
        white: 57,
        passes: 6,
        positions: 6_500,
    },
];

/// The report's middle board is the position after this many placed discs.
pub const MIDDLE_MOVES: usize = 24;

/// One-line statement of the script's rule (written into the report).
pub const SCRIPT_RULE: &str = "corners first (the corner flipping the most discs), otherwise the move flipping the most discs; ties to the lowest cell index";

/// Format tag of the JSON document.
pub const REPORT_FORMAT: &str = "othello-sample-games";

/// Version of the JSON layout.
pub const REPORT_FORMAT_VERSION: u32 = 1;

const CORNERS: u64 = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63);

/// The script's move for the side to move of `pos`, or `None` when it has
/// no legal move (it must pass, or the game is over).
///
/// Among the legal moves: if any corner is legal, the corner with the most
/// discs flipped; otherwise the move with the most discs flipped. Ties go
/// to the lowest cell index.
#[must_use]
pub fn script_move(pos: &Position) -> Option<Square> {
    let legal = pos.legal_moves().bits();
    let candidates = if legal & CORNERS != 0 {
        legal & CORNERS
    } else {
        legal
    };
    let mut best: Option<(Square, u32)> = None;
    // Squares in increasing index order; a later square wins only with a
    // strictly larger capture, so ties stay with the lowest index.
    for square in Square::all().filter(|sq| candidates & (1u64 << sq.index()) != 0) {
        let flips = pos.flips(square).count();
        if best.is_none_or(|(_, most)| flips > most) {
            best = Some((square, flips));
        }
    }
    best.map(|(square, _)| square)
}

/// Who made a move in a sample game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Player {
    /// The play AI ([`search`] at the report depth).
    Ai,
    /// The deterministic script ([`script_move`]).
    Script,
}

impl Player {
    /// "ai" or "script".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Player::Ai => "ai",
            Player::Script => "script",
        }
    }

    /// "AI" or "script" (text report).
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Player::Ai => "AI",
            Player::Script => "script",
        }
    }
}

/// What the AI's search said about the move it chose.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AiMoveInfo {
    /// MiniMax value from the AI's side.
    pub value: i32,
    /// Positions visited by the search.
    pub nodes: u64,
}

/// One entry of a sample game: a move or an automatic pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SampleEvent {
    /// A placed disc.
    Move {
        /// 1-based index among all events (moves and passes).
        ply: usize,
        /// 1-based index among the placed discs.
        number: usize,
        /// Who moved.
        color: Color,
        /// AI or script.
        player: Player,
        /// Where.
        square: Square,
        /// Number of discs flipped.
        flipped: u32,
        /// The search's value and node count for AI moves.
        ai: Option<AiMoveInfo>,
    },
    /// A side with no legal move passed (inserted by [`Game`]).
    Pass {
        /// 1-based index among all events.
        ply: usize,
        /// Who passed.
        color: Color,
        /// AI or script.
        player: Player,
    },
}

/// A board snapshot in a sample game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Snapshot {
    /// Placed discs so far (0 for the start).
    pub moves: usize,
    /// Events (moves and passes) so far.
    pub ply: usize,
    /// The text board ([`Position::to_text_board`]).
    pub board: String,
}

/// One game of the AI against the script.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SampleGame {
    /// The AI's colour.
    pub ai_color: Color,
    /// The AI's search depth.
    pub depth: u32,
    /// Every move and pass, in order.
    pub events: Vec<SampleEvent>,
    /// The moves as a transcript (`f5d6…`, passes not written).
    pub transcript: String,
    /// The start board.
    pub start: Snapshot,
    /// The board after [`MIDDLE_MOVES`] placed discs (the last board if
    /// the game is shorter).
    pub middle: Snapshot,
    /// The final board.
    pub end: Snapshot,
    /// The final position.
    pub final_position: Position,
    /// Black discs at the end.
    pub black_discs: u32,
    /// White discs at the end.
    pub white_discs: u32,
    /// The result.
    pub result: GameResult,
    /// Number of passes.
    pub passes: usize,
    /// Total positions visited by the AI's searches in this game.
    pub ai_nodes: u64,
}

impl SampleGame {
    /// The squares played, in order.
    #[must_use]
    pub fn moves(&self) -> Vec<Square> {
        self.events
            .iter()
            .filter_map(|e| match *e {
                SampleEvent::Move { square, .. } => Some(square),
                SampleEvent::Pass { .. } => None,
            })
            .collect()
    }

    /// Number of placed discs.
    #[must_use]
    pub fn move_count(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, SampleEvent::Move { .. }))
            .count()
    }

    /// The winner's name, or "draw".
    #[must_use]
    pub const fn winner_name(&self) -> &'static str {
        match self.result {
            GameResult::Win(c) => c.name(),
            GameResult::Draw => "draw",
        }
    }

    /// "win", "loss" or "draw" from the AI's side.
    #[must_use]
    pub fn ai_outcome(&self) -> &'static str {
        match self.result {
            GameResult::Win(c) if c == self.ai_color => "win",
            GameResult::Win(_) => "loss",
            GameResult::Draw => "draw",
        }
    }

    /// The one-line summary the CLI prints.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "AI {} (depth {}) vs script {}: black {} white {}, winner {} (AI {}), {} moves, {} pass{}, {} positions searched",
            self.ai_color,
            self.depth,
            self.ai_color.opponent(),
            self.black_discs,
            self.white_discs,
            self.winner_name(),
            self.ai_outcome(),
            self.move_count(),
            self.passes,
            if self.passes == 1 { "" } else { "es" },
            self.ai_nodes
        )
    }
}

impl SampleGame {
    /// This game's figures next to the published ones: `(name, ours,
    /// published)` for the final score, the passes and the positions.
    #[must_use]
    pub fn against(&self, published: &Published) -> [(&'static str, String, String); 3] {
        [
            (
                "final (black-white)",
                format!("{}-{}", self.black_discs, self.white_discs),
                format!("{}-{}", published.black, published.white),
            ),
            (
                "passes",
                self.passes.to_string(),
                published.passes.to_string(),
            ),
            (
                "positions searched",
                self.ai_nodes.to_string(),
                published.positions.to_string(),
            ),
        ]
    }

    /// Whether every figure equals the published one (and the AI had the
    /// published colour).
    #[must_use]
    pub fn matches(&self, published: &Published) -> bool {
        self.ai_color == published.ai_color
            && self.against(published).iter().all(|(_, a, b)| a == b)
    }

    /// One line: the published figures and whether each matches.
    #[must_use]
    pub fn published_line(&self, published: &Published) -> String {
        let parts: Vec<String> = self
            .against(published)
            .iter()
            .map(|(name, ours, theirs)| {
                if ours == theirs {
                    format!("{name} {ours} = published ✓")
                } else {
                    format!("{name} {ours} ≠ published {theirs} ✗")
                }
            })
            .collect();
        parts.join(", ")
    }
}

/// Plays the AI (colour `ai_color`, [`search`] at `depth`) against the
/// script from the initial position until the game ends.
#[must_use]
pub fn play_sample_game(ai_color: Color, depth: u32) -> SampleGame {
    let player_of = |c: Color| {
        if c == ai_color {
            Player::Ai
        } else {
            Player::Script
        }
    };
    let mut game = Game::new();
    let mut ai_info: Vec<Option<AiMoveInfo>> = Vec::new();
    while !game.is_over() {
        let pos = *game.position();
        let (square, info) = if pos.side_to_move == ai_color {
            let r = search(&pos, depth);
            let square = r
                .best_move
                .expect("the side to move has a legal move (passes are automatic)");
            (
                square,
                Some(AiMoveInfo {
                    value: r.value,
                    nodes: r.nodes,
                }),
            )
        } else {
            let square = script_move(&pos)
                .expect("the side to move has a legal move (passes are automatic)");
            (square, None)
        };
        game.play(square)
            .expect("the AI and the script only choose legal moves");
        ai_info.push(info);
    }

    let positions = game.positions();
    let total_moves = ai_info.len();
    let middle_target = MIDDLE_MOVES.min(total_moves);
    let mut events = Vec::with_capacity(game.events().len());
    let mut number = 0;
    let mut passes = 0;
    let mut middle = Snapshot {
        moves: 0,
        ply: 0,
        board: game.start().to_text_board(),
    };
    for (i, event) in game.events().iter().enumerate() {
        let ply = i + 1;
        match *event {
            GameEvent::Move {
                color,
                square,
                flipped,
            } => {
                let ai = ai_info[number];
                number += 1;
                events.push(SampleEvent::Move {
                    ply,
                    number,
                    color,
                    player: player_of(color),
                    square,
                    flipped: flipped.count(),
                    ai,
                });
                if number == middle_target {
                    middle = Snapshot {
                        moves: number,
                        ply,
                        board: positions[i].to_text_board(),
                    };
                }
            }
            GameEvent::Pass { color } => {
                passes += 1;
                events.push(SampleEvent::Pass {
                    ply,
                    color,
                    player: player_of(color),
                });
            }
        }
    }
    let final_position = *game.position();
    let ai_nodes = ai_info.iter().flatten().map(|i| i.nodes).sum();
    SampleGame {
        ai_color,
        depth,
        events,
        transcript: game.transcript(),
        start: Snapshot {
            moves: 0,
            ply: 0,
            board: game.start().to_text_board(),
        },
        middle,
        end: Snapshot {
            moves: total_moves,
            ply: game.events().len(),
            board: final_position.to_text_board(),
        },
        final_position,
        black_discs: final_position.count(Color::Black),
        white_discs: final_position.count(Color::White),
        result: game
            .result()
            .expect("the loop only stops when the game is over"),
        passes,
        ai_nodes,
    }
}

/// The sample-games report: the AI as black, then the AI as white.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SampleReport {
    /// The AI's search depth.
    pub depth: u32,
    /// The games: AI as black first, AI as white second.
    pub games: Vec<SampleGame>,
}

impl SampleReport {
    /// Whether both games reproduce [`PUBLISHED`] exactly.
    #[must_use]
    pub fn matches_published(&self) -> bool {
        self.games.len() == PUBLISHED.len()
            && self.games.iter().zip(&PUBLISHED).all(|(g, p)| g.matches(p))
    }

    /// Plays both games at [`REPORT_DEPTH`].
    #[must_use]
    pub fn generate() -> SampleReport {
        SampleReport::generate_at(REPORT_DEPTH)
    }

    /// Plays both games with the AI at `depth`.
    #[must_use]
    pub fn generate_at(depth: u32) -> SampleReport {
        SampleReport {
            depth,
            games: vec![
                play_sample_game(Color::Black, depth),
                play_sample_game(Color::White, depth),
            ],
        }
    }

    /// The JSON document (2-space indentation, fixed key order, objects and
    /// arrays of plain values on one line, ending with a newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.json_value().write(&mut out, 0);
        out.push('\n');
        out
    }

    /// The readable text report.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Othello sample games (docs/PRODUCT.md, Sample games and the report)"
        );
        let _ = writeln!(
            out,
            "==================================================================="
        );
        out.push('\n');
        let _ = writeln!(
            out,
            "The play AI (alpha-beta MiniMax, depth {}) against a deterministic script.",
            self.depth
        );
        let _ = writeln!(out, "Script: {SCRIPT_RULE}.");
        let _ = writeln!(
            out,
            "Passes are automatic. Boards: X black, O white, . empty."
        );
        let _ = writeln!(
            out,
            "Regenerate: cargo run --release -p engine --bin othello -- report --out-dir docs"
        );
        out.push('\n');
        let _ = writeln!(out, "Summary");
        let _ = writeln!(out, "-------");
        for (i, game) in self.games.iter().enumerate() {
            let _ = writeln!(out, "Game {}: {}", i + 1, game.summary());
        }
        if self.depth == REPORT_DEPTH {
            out.push('\n');
            let _ = writeln!(out, "Published figures");
            let _ = writeln!(out, "-----------------");
            for (i, (game, published)) in self.games.iter().zip(&PUBLISHED).enumerate() {
                let _ = writeln!(out, "Game {}: {}", i + 1, game.published_line(published));
            }
        }
        for (i, game) in self.games.iter().enumerate() {
            out.push('\n');
            write_game_text(&mut out, i + 1, game);
        }
        out
    }

    fn json_value(&self) -> Json {
        Json::Object(vec![
            ("format", Json::Str(REPORT_FORMAT.into())),
            ("version", Json::Int(i64::from(REPORT_FORMAT_VERSION))),
            ("depth", Json::Int(i64::from(self.depth))),
            ("script", Json::Str(SCRIPT_RULE.into())),
            (
                "games",
                Json::Array(self.games.iter().map(game_json).collect()),
            ),
        ])
    }
}

fn write_game_text(out: &mut String, index: usize, game: &SampleGame) {
    let title = format!(
        "Game {index}: AI {} vs script {}",
        game.ai_color,
        game.ai_color.opponent()
    );
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", "-".repeat(title.chars().count()));
    let _ = writeln!(
        out,
        "Final score: black {}, white {} ({}) - winner {} (AI {})",
        game.black_discs,
        game.white_discs,
        if game.final_position.empty_count() == 0 {
            "board full".to_string()
        } else {
            format!("{} empty", game.final_position.empty_count())
        },
        game.winner_name(),
        game.ai_outcome()
    );
    let _ = writeln!(
        out,
        "Moves: {}, passes: {}, positions searched by the AI: {}",
        game.move_count(),
        game.passes,
        game.ai_nodes
    );
    let _ = writeln!(out, "Transcript: {}", game.transcript);
    out.push('\n');
    let _ = writeln!(out, "Start:");
    out.push_str(&game.start.board);
    out.push('\n');
    let _ = writeln!(
        out,
        " ply  move  side   player  square  flipped    value      nodes"
    );
    for event in &game.events {
        match *event {
            SampleEvent::Move {
                ply,
                number,
                color,
                player,
                square,
                flipped,
                ai,
            } => {
                let (value, nodes) = match ai {
                    Some(info) => (info.value.to_string(), info.nodes.to_string()),
                    None => ("-".to_string(), "-".to_string()),
                };
                let _ = writeln!(
                    out,
                    "{ply:>4}  {number:>4}  {:<5}  {:<6}  {:<6}  {flipped:>7}  {value:>7}  {nodes:>9}",
                    color.name(),
                    player.label(),
                    square.to_string()
                );
            }
            SampleEvent::Pass { ply, color, player } => {
                let _ = writeln!(
                    out,
                    "{ply:>4}     -  {:<5}  {:<6}  pass",
                    color.name(),
                    player.label()
                );
            }
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "Middle (after move {} of {}, ply {}):",
        game.middle.moves,
        game.move_count(),
        game.middle.ply
    );
    out.push_str(&game.middle.board);
    out.push('\n');
    let _ = writeln!(
        out,
        "End (after move {}, ply {}):",
        game.end.moves, game.end.ply
    );
    out.push_str(&game.end.board);
}

fn snapshot_json(s: &Snapshot) -> Json {
    Json::Object(vec![
        ("moves", Json::Int(s.moves as i64)),
        ("ply", Json::Int(s.ply as i64)),
        ("board", Json::Str(s.board.clone())),
    ])
}

fn event_json(e: &SampleEvent) -> Json {
    match *e {
        SampleEvent::Move {
            ply,
            number,
            color,
            player,
            square,
            flipped,
            ai,
        } => Json::Object(vec![
            ("ply", Json::Int(ply as i64)),
            ("kind", Json::Str("move".into())),
            ("move", Json::Int(number as i64)),
            ("color", Json::Str(color.name().into())),
            ("player", Json::Str(player.name().into())),
            ("square", Json::Str(square.to_string())),
            ("index", Json::Int(square.index() as i64)),
            ("flipped", Json::Int(i64::from(flipped))),
            (
                "value",
                ai.map_or(Json::Null, |i| Json::Int(i64::from(i.value))),
            ),
            (
                "nodes",
                ai.map_or(Json::Null, |i| {
                    Json::Int(i64::try_from(i.nodes).unwrap_or(i64::MAX))
                }),
            ),
        ]),
        SampleEvent::Pass { ply, color, player } => Json::Object(vec![
            ("ply", Json::Int(ply as i64)),
            ("kind", Json::Str("pass".into())),
            ("color", Json::Str(color.name().into())),
            ("player", Json::Str(player.name().into())),
        ]),
    }
}

fn game_json(g: &SampleGame) -> Json {
    Json::Object(vec![
        ("ai_color", Json::Str(g.ai_color.name().into())),
        (
            "script_color",
            Json::Str(g.ai_color.opponent().name().into()),
        ),
        ("depth", Json::Int(i64::from(g.depth))),
        (
            "final",
            Json::Object(vec![
                ("black", Json::Int(i64::from(g.black_discs))),
                ("white", Json::Int(i64::from(g.white_discs))),
                (
                    "empty",
                    Json::Int(i64::from(g.final_position.empty_count())),
                ),
                ("winner", Json::Str(g.winner_name().into())),
                ("ai_result", Json::Str(g.ai_outcome().into())),
            ]),
        ),
        ("moves_played", Json::Int(g.move_count() as i64)),
        ("passes", Json::Int(g.passes as i64)),
        (
            "ai_positions_searched",
            Json::Int(i64::try_from(g.ai_nodes).unwrap_or(i64::MAX)),
        ),
        ("transcript", Json::Str(g.transcript.clone())),
        ("start", snapshot_json(&g.start)),
        ("middle", snapshot_json(&g.middle)),
        ("end", snapshot_json(&g.end)),
        (
            "events",
            Json::Array(g.events.iter().map(event_json).collect()),
        ),
    ])
}

/// A minimal JSON value with a deterministic writer (keys keep their
/// insertion order).
enum Json {
    Null,
    Int(i64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    const fn is_scalar(&self) -> bool {
        matches!(self, Json::Null | Json::Int(_) | Json::Str(_))
    }

    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Json::Str(s) => write_json_string(out, s),
            Json::Array(items) => {
                if items.is_empty() {
                    out.push_str("[]");
                } else if items.iter().all(Json::is_scalar) {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        item.write(out, indent);
                    }
                    out.push(']');
                } else {
                    out.push_str("[\n");
                    for (i, item) in items.iter().enumerate() {
                        push_indent(out, indent + 1);
                        item.write(out, indent + 1);
                        if i + 1 < items.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    push_indent(out, indent);
                    out.push(']');
                }
            }
            Json::Object(fields) => {
                if fields.is_empty() {
                    out.push_str("{}");
                } else if fields.iter().all(|(_, v)| v.is_scalar()) && fields.len() > 3 {
                    out.push('{');
                    for (i, (key, value)) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        write_json_string(out, key);
                        out.push_str(": ");
                        value.write(out, indent);
                    }
                    out.push('}');
                } else {
                    out.push_str("{\n");
                    for (i, (key, value)) in fields.iter().enumerate() {
                        push_indent(out, indent + 1);
                        write_json_string(out, key);
                        out.push_str(": ");
                        value.write(out, indent + 1);
                        if i + 1 < fields.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    push_indent(out, indent);
                    out.push('}');
                }
            }
        }
    }
}

fn push_indent(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// Writes `s` as a JSON string literal: `"` and `\` escaped, control
/// characters as `\n`, `\t`, … or `\u00XX`; everything else verbatim (UTF-8).
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Escapes `s` as a JSON string literal (see [`write_json_string`]).
#[must_use]
pub fn json_string(s: &str) -> String {
    let mut out = String::new();
    write_json_string(&mut out, s);
    out
}
