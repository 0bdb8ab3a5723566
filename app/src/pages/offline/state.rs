//! The offline game's model, as kept in this browser's local storage, and
//! the page's lines derived from it (the mode, the turn, the score, each
//! move in the page's language): pure, so unit-tested below; the page
//! (`offline.rs`) runs the engine worker and the storage around it.

use crate::i18n::{side_name, Lang};
use crate::protocol::{square_name, BoardSnapshot, Side};
use crate::worker::Step;
use serde::{Deserialize, Serialize};

/// The start position in the interchange form.
pub fn start_cells() -> Vec<i8> {
    let mut cells = vec![0i8; 64];
    cells[27] = -1;
    cells[28] = 1;
    cells[35] = 1;
    cells[36] = -1;
    cells
}

fn side_of(value: i8) -> Side {
    if value > 0 {
        Side::Black
    } else {
        Side::White
    }
}

/// An offline game, as kept in local storage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OfflineGame {
    /// The AI's search depth, 1..=6.
    pub depth: u8,
    /// The human's colour.
    pub human: Side,
    pub cells: Vec<i8>,
    /// +1 black, −1 white, 0 when the game is over.
    pub to_move: i8,
    pub legal: Vec<u8>,
    pub last_move: Option<u8>,
    pub flipped: Vec<u8>,
    /// Grows with every move (the board animates changes).
    pub version: u64,
    pub black: u8,
    pub white: u8,
    /// "Black f5", "White passes", … in order.
    pub moves: Vec<String>,
    /// How deep the AI's last search looked and how many positions it
    /// saw, for the status line (written in the page's language, with
    /// plurals). A game stored by an older page, with that line as English
    /// text, loads without it until the AI's next move.
    #[serde(default)]
    pub ai_looked: Option<(u32, u64)>,
}

impl OfflineGame {
    /// A new game from the worker's description of the start position.
    pub fn new(depth: u8, human: Side, start: Step) -> Self {
        OfflineGame {
            depth: depth.clamp(1, 6),
            human,
            cells: start.cells,
            to_move: start.to_move,
            legal: start.legal,
            last_move: None,
            flipped: Vec::new(),
            version: 1,
            black: start.black,
            white: start.white,
            moves: Vec::new(),
            ai_looked: None,
        }
    }

    /// Whether a stored game is well-formed (else it is dropped).
    pub fn is_valid(&self) -> bool {
        self.cells.len() == 64
            && self.cells.iter().all(|c| (-1..=1).contains(c))
            && (1..=6).contains(&self.depth)
            && (-1..=1).contains(&self.to_move)
            && self.legal.iter().chain(&self.flipped).all(|&s| s < 64)
            && self.last_move.is_none_or(|s| s < 64)
    }

    pub fn ai(&self) -> i8 {
        -self.human.cell()
    }

    pub fn over(&self) -> bool {
        self.to_move == 0
    }

    pub fn human_to_move(&self) -> bool {
        self.to_move == self.human.cell()
    }

    pub fn ai_to_move(&self) -> bool {
        self.to_move == self.ai()
    }

    /// Records `by`'s move on `square` and the position after it.
    pub fn record(&mut self, by: i8, square: u8, step: Step) {
        self.moves
            .push(format!("{} {}", side_of(by).name(), square_name(square)));
        if step.passed != 0 {
            self.moves
                .push(format!("{} passes", side_of(step.passed).name()));
        }
        self.cells = step.cells;
        self.flipped = step.flipped;
        self.to_move = step.to_move;
        self.legal = step.legal;
        self.black = step.black;
        self.white = step.white;
        self.last_move = Some(square);
        self.version += 1;
    }

    /// The result once over: `Some(1)` black won, `Some(-1)` white, `Some(0)` draw.
    pub fn outcome(&self) -> Option<i8> {
        self.over()
            .then(|| (i16::from(self.black) - i16::from(self.white)).signum() as i8)
    }

    /// What the board shows: legal moves only on the human's turn.
    pub fn snapshot(&self, thinking: bool) -> BoardSnapshot {
        BoardSnapshot {
            cells: self.cells.clone(),
            legal: if self.human_to_move() && !thinking {
                self.legal.clone()
            } else {
                Vec::new()
            },
            last_move: self.last_move,
            flipped: self.flipped.clone(),
            version: self.version,
            outcome: self.outcome(),
        }
    }

    /// The status line.
    /// Whose turn, for the page's `data-state` (and tests in any language):
    /// `human`, `ai` or `over`.
    pub fn state_name(&self) -> &'static str {
        if self.outcome().is_some() {
            "over"
        } else if self.human_to_move() {
            "human"
        } else {
            "ai"
        }
    }

    pub fn turn_text(&self, lang: Lang, thinking: bool) -> String {
        match self.outcome() {
            Some(result) => {
                let score = format!("{}–{}", self.black, self.white);
                if result == 0 {
                    t!(lang, "offline-draw", score = score)
                } else if result == self.human.cell() {
                    t!(lang, "offline-you-win", score = score)
                } else {
                    t!(lang, "offline-ai-wins", score = score)
                }
            }
            None if self.human_to_move() => {
                t!(lang, "table-your-move", side = side_name(lang, self.human))
            }
            None if thinking => t!(
                lang,
                "table-ai-thinking",
                side = side_name(lang, side_of(self.ai()))
            ),
            None => t!(
                lang,
                "offline-ai-to-move",
                side = side_name(lang, side_of(self.ai()))
            ),
        }
    }
}

/// A move as stored (`Black f5`, `White passes`), in `lang`.
pub fn move_text(lang: Lang, stored: &str) -> String {
    let side = match stored.split_once(' ') {
        Some(("Black", rest)) => Some((Side::Black, rest)),
        Some(("White", rest)) => Some((Side::White, rest)),
        _ => None,
    };
    match side {
        Some((side, "passes")) => t!(lang, "table-pass", side = side_name(lang, side)),
        Some((side, square)) => t!(
            lang,
            "offline-move",
            side = side_name(lang, side),
            square = square
        ),
        None => stored.to_string(),
    }
}

/// The header's mode line: the colour and the AI's depth of the game, if
/// one is played.
pub fn mode_text(lang: Lang, game: Option<&OfflineGame>) -> String {
    match game {
        Some(g) => t!(
            lang,
            "offline-mode",
            side = side_name(lang, g.human),
            depth = g.depth
        ),
        None => t!(lang, "offline-practice"),
    }
}

/// The turn line: the game's, else an invitation to start one once the
/// stored game has been looked for (`loaded`).
pub fn turn_line(lang: Lang, game: Option<&OfflineGame>, thinking: bool, loaded: bool) -> String {
    match game {
        Some(g) => g.turn_text(lang, thinking),
        None if loaded => t!(lang, "offline-choose"),
        None => t!(lang, "offline-loading"),
    }
}

/// A side's discs (2 each before a game starts).
pub fn count(game: Option<&OfflineGame>, side: Side) -> u8 {
    match (game, side) {
        (Some(g), Side::Black) => g.black,
        (Some(g), Side::White) => g.white,
        (None, _) => 2,
    }
}

/// The board before any game: the start position, nothing to play.
pub fn idle_board() -> BoardSnapshot {
    BoardSnapshot {
        cells: start_cells(),
        ..BoardSnapshot::empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_step() -> Step {
        Step {
            cells: start_cells(),
            flipped: vec![],
            to_move: 1,
            passed: 0,
            legal: vec![19, 26, 37, 44],
            black: 2,
            white: 2,
        }
    }

    #[test]
    fn a_game_records_moves_passes_and_the_result() {
        let mut game = OfflineGame::new(9, Side::White, start_step());
        assert_eq!(game.depth, 6);
        assert!(game.ai_to_move() && !game.human_to_move());
        assert!(
            game.snapshot(false).legal.is_empty(),
            "no legal marks on the AI's turn"
        );
        let mut cells = start_cells();
        cells[37] = 1;
        cells[36] = 1;
        game.record(
            1,
            37,
            Step {
                cells,
                flipped: vec![36],
                to_move: -1,
                passed: 0,
                legal: vec![29, 43, 45],
                black: 4,
                white: 1,
            },
        );
        assert_eq!(game.moves, ["Black f5"]);
        assert_eq!(game.version, 2);
        assert!(game.human_to_move());
        assert_eq!(game.snapshot(false).legal, vec![29, 43, 45]);
        assert!(game.snapshot(true).legal.is_empty());
        assert_eq!(game.turn_text(Lang::En, false), "Your move (White)");
        let end = Step {
            cells: vec![-1; 64],
            flipped: vec![],
            to_move: 0,
            passed: 1,
            legal: vec![],
            black: 0,
            white: 64,
        };
        game.record(-1, 0, end);
        assert_eq!(game.moves.last().unwrap(), "Black passes");
        assert_eq!(game.outcome(), Some(-1));
        assert_eq!(game.turn_text(Lang::En, false), "You win, 0–64");
        assert_eq!(game.turn_text(Lang::El, false), "Κέρδισες, 0–64");
        assert_eq!(
            move_text(Lang::El, "Black passes"),
            "Μαύρα: πάσο (καμία έγκυρη κίνηση)"
        );
        assert_eq!(game.snapshot(false).outcome, Some(-1));
    }

    #[test]
    fn stored_games_are_checked() {
        let game = OfflineGame::new(3, Side::Black, start_step());
        assert!(game.is_valid());
        let text = serde_json::to_string(&game).unwrap();
        let back: OfflineGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
        let mut bad = game.clone();
        bad.cells.pop();
        assert!(!bad.is_valid());
        let mut bad = game.clone();
        bad.cells[0] = 3;
        assert!(!bad.is_valid());
        let mut bad = game.clone();
        bad.depth = 0;
        assert!(!bad.is_valid());
        let mut bad = game;
        bad.legal.push(64);
        assert!(!bad.is_valid());
    }

    #[test]
    fn the_page_lines_before_and_during_a_game() {
        assert_eq!(turn_line(Lang::En, None, false, false), "Loading…");
        assert_eq!(
            turn_line(Lang::En, None, true, true),
            "Choose a depth and a colour, then start."
        );
        assert_eq!(mode_text(Lang::En, None), "Offline practice vs the AI");
        assert_eq!(count(None, Side::Black), 2);
        assert_eq!(count(None, Side::White), 2);
        assert_eq!(idle_board().cells, start_cells());
        assert!(idle_board().legal.is_empty());
        let game = OfflineGame::new(4, Side::White, start_step());
        assert_eq!(
            mode_text(Lang::En, Some(&game)),
            "Offline: you (White) vs AI depth 4"
        );
        assert_eq!(
            turn_line(Lang::En, Some(&game), true, false),
            "Black (AI) is thinking…"
        );
        assert_eq!(
            turn_line(Lang::En, Some(&game), false, true),
            game.turn_text(Lang::En, false)
        );
        let mut black = OfflineGame::new(4, Side::Black, start_step());
        black.black = 5;
        black.white = 1;
        assert_eq!(count(Some(&black), Side::Black), 5);
        assert_eq!(count(Some(&black), Side::White), 1);
        assert_eq!(
            turn_line(Lang::En, Some(&black), false, true),
            "Your move (Black)"
        );
    }
}
