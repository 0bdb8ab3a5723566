//! Othello engine: rules, notation, the α–β play AI, an exact endgame
//! solver and perft, and a separate trained pattern evaluation
//! ([`pattern`]) with its own strong search ([`strong`]). Pure `std`, no
//! I/O, builds for `wasm32-unknown-unknown`.
//!
//! Squares are indexed `8 × row + column` with a1 = 0 and h8 = 63; the
//! interchange board form is 64 cells of 0 (empty), +1 (black), −1 (white).
//!
//! ```
//! // (Run as a test: tests/search.rs, the_crate_example_plays_f5_and_searches.)
//! use engine::{Position, Square, search};
//! let pos = Position::initial();
//! let f5: Square = "f5".parse().unwrap();
//! let after = pos.play(f5).unwrap();
//! assert_eq!(after.flipped.count(), 1);
//! let report = search(&after.position, 3);
//! assert!(report.best_move.is_some());
//! ```

mod bitboard;
pub mod book;
pub mod book_build;
mod color;
mod endgame;
mod error;
mod eval;
mod game;
pub mod kernels;
mod notation;
pub mod pattern;
mod perft;
mod position;
mod pvs;
pub mod reference;
mod search;
mod split;
mod square;
pub mod strong;

pub use bitboard::{Bitboard, BitboardIter};
pub use book::{Book, BookError, BookMove, BookValue};
pub use color::Color;
pub use endgame::{solve, solve_with, SolveOptions, SolveResult, Solved};
pub use error::{ParseError, PlayError};
pub use eval::{
    evaluate, evaluation_terms, ordered_moves, terminal_score, EvaluationTerms, MOVE_ORDER,
    WEIGHTS, WEIGHT_GROUPS, WEIGHT_GROUP_COUNT, WIN_SCORE,
};
pub use game::{Game, GameEvent, ReplayError, Turn};
pub use notation::{format_moves, parse_moves, parse_transcript, GgfInfo, TranscriptError};
pub use pattern::{default_weights, PatternWeights, WeightsError};
pub use perft::{perft, perft_portable};
pub use position::{GameResult, MoveOutcome, Position};
pub use search::{analyse_root, search, search_parallel, RootMove, SearchReport};
pub use square::Square;
pub use strong::{
    evaluate_position, fixed_depth_value, score_all_moves, Limits, MoveScore, Report,
};
