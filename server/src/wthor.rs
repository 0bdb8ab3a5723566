//! WTHOR databases, the French Othello federation's format that WZebra,
//! Edax and NBoard read: a games file (`.wtb`: a 16-byte header, then one
//! 68-byte record per game) and a players file (`.jou`: the same header,
//! then one 20-byte name per player, numbered from 0 in file order).
//!
//! Header: century, year, month, day of creation; the number of games
//! (u32, little-endian); the number of players/tournaments (u16; 0 in a
//! games file); the games' year (u16); board size (8), game type (0), the
//! depth of the theoretical scores (0: none computed), a reserved 0.
//! A game: tournament (u16), black's and white's player numbers (u16),
//! black's discs at the end, black's theoretical score, and 60 moves, each
//! `10 × row + column` counted from 1 (f5 = 56), 0 after the last.

use engine::Square;

/// One game as the games file stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    pub black: u16,
    pub white: u16,
    pub black_discs: u8,
    pub moves: Vec<Square>,
}

/// Black's discs as a WTHOR record gives them: the board's count, but a
/// game won by forfeit (a side missed its first move) is recorded as the
/// WOC scores it — the winner takes the empty squares, at least 33
/// (docs/PRODUCT.md, Tournaments).
pub fn black_discs(
    winner: Option<app::protocol::Side>,
    reason: app::protocol::EndReason,
    black: u8,
    white: u8,
) -> u8 {
    use app::protocol::{EndReason, Side};
    let empty = 64u8.saturating_sub(black.saturating_add(white));
    match (reason, winner) {
        (EndReason::Forfeit, Some(Side::Black)) => black.saturating_add(empty).max(33),
        (EndReason::Forfeit, Some(Side::White)) => 64 - white.saturating_add(empty).clamp(33, 64),
        _ => black,
    }
}

/// A date as (year, month, day), from ms since the epoch (UTC).
pub use app::pages::profile::civil_date;

fn header(now_ms: i64, games: u32, names: u16, year: u16) -> [u8; 16] {
    let (y, m, d) = civil_date(now_ms);
    let mut h = [0u8; 16];
    h[0] = (y / 100).clamp(0, 255) as u8;
    h[1] = (y % 100) as u8;
    h[2] = m;
    h[3] = d;
    h[4..8].copy_from_slice(&games.to_le_bytes());
    h[8..10].copy_from_slice(&names.to_le_bytes());
    h[10..12].copy_from_slice(&year.to_le_bytes());
    h[12] = 8;
    h
}

/// A square as WTHOR writes it: `10 × row + column`, both from 1.
pub fn move_byte(square: Square) -> u8 {
    let index = square.index();
    (10 * (index / 8 + 1) + index % 8 + 1) as u8
}

/// The games file for `games`, made at `now_ms`, of the games' `year`.
pub fn games_file(now_ms: i64, year: u16, games: &[WthorGame]) -> Vec<u8> {
    let count = u32::try_from(games.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(16 + 68 * games.len());
    out.extend_from_slice(&header(now_ms, count, 0, year));
    for game in games {
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&game.black.to_le_bytes());
        out.extend_from_slice(&game.white.to_le_bytes());
        out.push(game.black_discs);
        out.push(game.black_discs);
        let mut moves = [0u8; 60];
        for (slot, square) in moves.iter_mut().zip(&game.moves) {
            *slot = move_byte(*square);
        }
        out.extend_from_slice(&moves);
    }
    out
}

/// The players file: each name in 20 bytes (at most 19 of them, then
/// zeros; ASCII, which WTHOR's Latin-1 reads the same).
pub fn players_file(now_ms: i64, names: &[String]) -> Vec<u8> {
    let count = u16::try_from(names.len()).unwrap_or(u16::MAX);
    let mut out = Vec::with_capacity(16 + 20 * names.len());
    out.extend_from_slice(&header(now_ms, 0, count, 0));
    for name in names.iter().take(usize::from(count)) {
        let mut record = [0u8; 20];
        let bytes: Vec<u8> = name
            .bytes()
            .map(|b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b
                } else {
                    b'?'
                }
            })
            .take(19)
            .collect();
        record[..bytes.len()].copy_from_slice(&bytes);
        out.extend_from_slice(&record);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        engine::parse_moves(name).expect("a square")[0]
    }

    #[test]
    fn squares_are_row_then_column_from_one() {
        assert_eq!(move_byte(square("a1")), 11);
        assert_eq!(move_byte(square("f5")), 56);
        assert_eq!(move_byte(square("h8")), 88);
        assert_eq!(move_byte(square("d3")), 34);
    }

    #[test]
    fn a_games_file_has_its_header_and_68_bytes_a_game() {
        let now = 1_796_256_000_000; // 2026-12-03
        let game = WthorGame {
            black: 1,
            white: 0,
            black_discs: 40,
            moves: engine::parse_moves("f5d6c3").expect("moves"),
        };
        let file = games_file(now, 2026, &[game.clone(), game]);
        assert_eq!(file.len(), 16 + 2 * 68);
        assert_eq!(&file[0..4], &[20, 26, 12, 3]);
        assert_eq!(u32::from_le_bytes([file[4], file[5], file[6], file[7]]), 2);
        assert_eq!(u16::from_le_bytes([file[10], file[11]]), 2026);
        assert_eq!(file[12], 8);
        let record = &file[16..84];
        assert_eq!(u16::from_le_bytes([record[2], record[3]]), 1);
        assert_eq!(record[6], 40);
        assert_eq!(&record[8..12], &[56, 64, 33, 0]);
    }

    #[test]
    fn a_forfeit_is_recorded_as_the_woc_scores_it() {
        use app::protocol::{EndReason, Side};
        assert_eq!(black_discs(Some(Side::Black), EndReason::Forfeit, 2, 2), 62);
        assert_eq!(black_discs(Some(Side::White), EndReason::Forfeit, 2, 2), 2);
        assert_eq!(black_discs(None, EndReason::Forfeit, 2, 2), 2);
        assert_eq!(
            black_discs(Some(Side::Black), EndReason::Finished, 40, 24),
            40
        );
    }

    #[test]
    fn a_players_file_holds_each_name_in_twenty_bytes() {
        let names = vec!["anna".to_string(), "a_very_long_name_here".to_string()];
        let file = players_file(0, &names);
        assert_eq!(file.len(), 16 + 40);
        assert_eq!(u16::from_le_bytes([file[8], file[9]]), 2);
        assert_eq!(&file[16..21], b"anna\0");
        assert_eq!(file[16 + 20 + 19], 0, "a name keeps a terminating zero");
        assert_eq!(&file[36..40], b"a_ve");
    }
}
