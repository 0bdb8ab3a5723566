//! The `othello` command line's library part: the reproducible sample-games
//! report ([`report`]). The rules, the play AI and the solver stay in the
//! `engine` crate, a pure library; this crate owns what only the command
//! line needs.

pub mod bias;
pub mod book_cli;
pub mod bot;
pub mod nboard;
pub mod puzzles;
pub mod report;
pub mod starts;
pub mod strong_cli;
pub mod train;

pub use report::{
    play_sample_game, script_move, SampleEvent, SampleGame, SampleReport, REPORT_DEPTH,
};
