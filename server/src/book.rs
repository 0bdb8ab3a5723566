//! The opening book the server ships (`book/book.bin`, made by `othello
//! book build`, docs/BENCHMARKS.md), embedded in the binary and read once:
//! the strongest level plays from it while the game is in it, and the game
//! analysis marks the moves it would play. Server-side only: the browser's
//! engine never sees it.
//!
//! A book that does not read (a damaged file) is logged at start-up and
//! left out: the strongest level then searches from the first move and the
//! analysis marks no book moves; the server runs on.

use engine::{Book, BookMove, Position, Square};
use std::sync::OnceLock;

/// The shipped book's bytes.
const SHIPPED: &[u8] = include_bytes!("../../book/book.bin");

/// A move within this of the best book move (1/100 disc) is one the book
/// plays: the strongest level chooses among them at random (varied but
/// sound play), and the analysis marks them.
pub const BOOK_WINDOW: i32 = 100;

/// Reads a book, logging why when it does not read.
pub fn read(bytes: &[u8]) -> Option<Book> {
    match Book::from_bytes(bytes) {
        Ok(book) => Some(book),
        Err(error) => {
            tracing::error!(
                "opening book left out ({error}): the strongest level searches from the first move"
            );
            None
        }
    }
}

/// The shipped book, read on first use; `None` when it does not read.
pub fn book() -> Option<&'static Book> {
    static BOOK: OnceLock<Option<Book>> = OnceLock::new();
    BOOK.get_or_init(|| read(SHIPPED)).as_ref()
}

/// Reads the book at start-up and says what it holds.
pub fn announce() {
    if let Some(book) = book() {
        let info = book.info();
        tracing::info!(
            positions = book.len(),
            expanded = info.expanded,
            plies = info.plies,
            depth = info.depth,
            "opening book loaded"
        );
    }
}

/// The moves the book plays at `pos` (within [`BOOK_WINDOW`] of its best),
/// best first; empty out of the book.
pub fn book_moves(book: &Book, pos: &Position) -> Vec<BookMove> {
    book.candidates(pos, BOOK_WINDOW)
}

/// True when `played` is one of the moves the book plays at `before`.
pub fn is_book_move(book: Option<&Book>, before: &Position, played: Square) -> bool {
    book.is_some_and(|b| book_moves(b, before).iter().any(|m| m.square == played))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_book_reads_and_holds_the_start() {
        let book = book().expect("the shipped book reads");
        let start = Position::initial();
        assert!(book.is_expanded(&start));
        // The four first moves are one position: all are book moves.
        assert_eq!(book_moves(book, &start).len(), 4);
        for sq in start.legal_moves().iter() {
            assert!(is_book_move(Some(book), &start, sq));
        }
        assert!(!is_book_move(None, &start, Square::new(19).expect("d3")));
    }

    #[test]
    fn every_named_opening_is_in_the_book() {
        // The build expands the named openings' lines first (`--lines
        // app/data/openings.txt`): every position of each line up to the
        // book's last ply is in it, all its moves valued.
        let book = book().expect("the shipped book reads");
        let plies = usize::from(book.info().plies);
        assert!(!app::openings::all().is_empty());
        for opening in app::openings::all() {
            let mut pos = Position::initial();
            for (ply, &index) in opening.moves.iter().enumerate().take(plies) {
                assert!(book.is_expanded(&pos), "{} at ply {ply}", opening.name);
                let square = Square::new(usize::from(index)).expect("a square");
                pos = pos.play(square).expect("a legal line").position;
                assert!(book.value(&pos).is_some(), "{}", opening.name);
            }
        }
    }

    #[test]
    fn a_damaged_book_is_left_out_not_a_panic() {
        let mut bytes = SHIPPED.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        assert!(read(&bytes).is_none());
        assert!(read(b"").is_none());
    }
}
