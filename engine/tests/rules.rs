//! Rule tests (docs/PRODUCT.md): layout, the eight capture directions, edges,
//! invalid moves, automatic passes, game end with empty squares, whole games.

mod common;
use common::{board, sq};
use engine::{
    Bitboard, Color, Game, GameEvent, GameResult, ParseError, PlayError, Position, Square,
};

#[test]
fn initial_layout() {
    let p = Position::initial();
    assert_eq!(p.side_to_move, Color::Black);
    assert_eq!(p.disc_at(sq("d4")), Some(Color::White));
    assert_eq!(p.disc_at(sq("e5")), Some(Color::White));
    assert_eq!(p.disc_at(sq("d5")), Some(Color::Black));
    assert_eq!(p.disc_at(sq("e4")), Some(Color::Black));
    assert_eq!(p.count(Color::Black), 2);
    assert_eq!(p.count(Color::White), 2);
    assert_eq!(p.empty_count(), 60);
    let cells = p.to_cells();
    assert_eq!(cells[27], -1); // d4
    assert_eq!(cells[28], 1); // e4
    assert_eq!(cells[35], 1); // d5
    assert_eq!(cells[36], -1); // e5
    assert_eq!(cells.iter().filter(|&&c| c == 0).count(), 60);
    let moves: Vec<String> = p.legal_moves().iter().map(|s| s.to_string()).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
    assert_eq!(
        p.to_text_board(),
        "  A B C D E F G H\n1 . . . . . . . .\n2 . . . . . . . .\n3 . . . . . . . .\n\
         4 . . . O X . . .\n5 . . . X O . . .\n6 . . . . . . . .\n7 . . . . . . . .\n8 . . . . . . . .\n"
    );
}

#[test]
fn squares() {
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("H8").index(), 63);
    assert_eq!(sq("d4").index(), 27);
    assert_eq!(sq("d3").to_string(), "d3");
    assert_eq!((sq("c6").col(), sq("c6").row()), (2, 5));
    assert!(Square::new(64).is_none());
    for bad in ["", "a", "a9", "i1", "a0", "aa", "11", "a10"] {
        assert!(
            matches!(bad.parse::<Square>(), Err(ParseError::InvalidSquare(_))),
            "{bad}"
        );
    }
    for s in Square::all() {
        assert_eq!(s.to_string().parse::<Square>(), Ok(s));
    }
    assert!(Square::try_from(-1i64).is_err());
}

/// Builds a text board from (square, letter) pairs.
fn text_with(discs: &[(usize, usize, char)]) -> String {
    let mut grid = [['.'; 8]; 8];
    for &(col, row, c) in discs {
        grid[row][col] = c;
    }
    let mut out = String::from("  A B C D E F G H\n");
    for (row, cells) in grid.iter().enumerate() {
        out.push_str(&(row + 1).to_string());
        for c in cells {
            out.push(' ');
            out.push(*c);
        }
        out.push('\n');
    }
    out
}

#[test]
fn each_of_the_eight_directions_captures_alone() {
    let dirs: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    for (dc, dr) in dirs {
        // Mover (black) plays d4 (col 3, row 3); two white discs then a black one.
        let at = |k: i32| ((3 + k * dc) as usize, (3 + k * dr) as usize);
        let (c1, r1) = at(1);
        let (c2, r2) = at(2);
        let (c3, r3) = at(3);
        let text = text_with(&[(c1, r1, 'O'), (c2, r2, 'O'), (c3, r3, 'X')]);
        let pos = board(&text, Color::Black);
        let expected: Bitboard = [Square::from_coords(c1, r1), Square::from_coords(c2, r2)]
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(pos.flips(sq("d4")), expected, "direction {dc},{dr}");
        assert_eq!(
            pos.legal_moves(),
            Bitboard::from_square(sq("d4")),
            "direction {dc},{dr}"
        );
        let out = pos.play(sq("d4")).expect("legal");
        assert_eq!(out.flipped, expected);
        assert_eq!(out.position.count(Color::Black), 4);
        assert_eq!(out.position.count(Color::White), 0);
        assert_eq!(out.position.side_to_move, Color::White);
        // With a gap before the closing disc nothing flips.
        let gap = text_with(&[(c1, r1, 'O'), (c3, r3, 'X')]);
        let pos = board(&gap, Color::Black);
        assert!(pos.flips(sq("d4")).is_empty(), "gap {dc},{dr}");
        // Ending on the board edge (no closing disc) flips nothing.
        let open = text_with(&[(c1, r1, 'O'), (c2, r2, 'O')]);
        assert!(board(&open, Color::Black).flips(sq("d4")).is_empty());
    }
}

#[test]
fn several_directions_at_once() {
    let pos = board(
        "  A B C D E F G H
1 X . X . X . . .
2 . O O O . . . .
3 X O . O X . . .
4 . O O O . . . .
5 X . X . X . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . .",
        Color::Black,
    );
    let out = pos.play(sq("c3")).unwrap();
    assert_eq!(out.flipped.count(), 8);
    assert_eq!(out.position.count(Color::White), 0);
}

#[test]
fn no_wrapping_between_rows() {
    // East from h4 would reach a5, b5.
    let p = board(&text_with(&[(0, 4, 'O'), (1, 4, 'X')]), Color::Black);
    assert!(p.flips(sq("h4")).is_empty());
    assert!(!p.is_legal(sq("h4")));
    // West from a5 would reach h4, g4.
    let p = board(&text_with(&[(7, 3, 'O'), (6, 3, 'X')]), Color::Black);
    assert!(p.flips(sq("a5")).is_empty());
    // North-east from h4 would reach a6, b7.
    let p = board(&text_with(&[(0, 5, 'O'), (1, 6, 'X')]), Color::Black);
    assert!(p.flips(sq("h4")).is_empty());
    // South-west from a5 would reach h3, g2.
    let p = board(&text_with(&[(7, 2, 'O'), (6, 1, 'X')]), Color::Black);
    assert!(p.flips(sq("a5")).is_empty());
    // North-west from a4 (+7) would reach h4, then g5.
    let p = board(&text_with(&[(7, 3, 'O'), (6, 4, 'X')]), Color::Black);
    assert!(p.flips(sq("a4")).is_empty());
    // South-east from h5 (−7) would reach a5, b4.
    let p = board(&text_with(&[(0, 4, 'O'), (1, 3, 'X')]), Color::Black);
    assert!(p.flips(sq("h5")).is_empty());
    // A run along the whole first row ending on the edge: nothing.
    let p = board(
        &text_with(&[
            (1, 0, 'O'),
            (2, 0, 'O'),
            (3, 0, 'O'),
            (4, 0, 'O'),
            (5, 0, 'O'),
            (6, 0, 'O'),
            (7, 0, 'O'),
        ]),
        Color::Black,
    );
    assert!(p.flips(sq("a1")).is_empty());
    // ... but closed by h1 it flips six.
    let p = board(
        &text_with(&[
            (1, 0, 'O'),
            (2, 0, 'O'),
            (3, 0, 'O'),
            (4, 0, 'O'),
            (5, 0, 'O'),
            (6, 0, 'O'),
            (7, 0, 'X'),
        ]),
        Color::Black,
    );
    assert_eq!(p.flips(sq("a1")).count(), 6);
    // Corners in every direction.
    let p = board(&text_with(&[(6, 6, 'O'), (5, 5, 'X')]), Color::Black);
    assert_eq!(p.flips(sq("h8")).count(), 1);
}

#[test]
fn invalid_moves_are_refused_and_change_nothing() {
    let p = Position::initial();
    assert_eq!(p.play(sq("d4")), Err(PlayError::SquareOccupied(sq("d4"))));
    assert_eq!(p.play(sq("a1")), Err(PlayError::NoFlips(sq("a1"))));
    assert_eq!(p.play(sq("c3")), Err(PlayError::NoFlips(sq("c3"))));
    assert!(!p.is_legal(sq("e4")));
    assert_eq!(p.pass(), Err(PlayError::CannotPass(Color::Black)));
    assert_eq!(p, Position::initial());
    // Out-of-range squares only exist through parsing, which refuses them.
    assert!("i9".parse::<Square>().is_err());
    assert!(Square::new(100).is_none());
    // Messages are readable.
    assert_eq!(
        PlayError::SquareOccupied(sq("d4")).to_string(),
        "square d4 is already occupied"
    );
    let mut game = Game::new();
    assert!(game.play(sq("a1")).is_err());
    assert!(game.events().is_empty());
}

#[test]
fn interchange_cells_round_trip_and_refuse_bad_input() {
    let p = Position::initial();
    assert_eq!(Position::from_cells(&p.to_cells(), Color::Black), Ok(p));
    assert!(matches!(
        Position::from_cells(&[0; 63], Color::Black),
        Err(ParseError::WrongLength {
            expected: 64,
            found: 63
        })
    ));
    let mut cells = [0i8; 64];
    cells[5] = 2;
    assert!(matches!(
        Position::from_cells(&cells, Color::Black),
        Err(ParseError::InvalidCellValue { index: 5, value: 2 })
    ));
    assert!(Position::new(Bitboard(1), Bitboard(1), Color::White).is_err());
}

/// Black's a1 leaves white without a move (the game goes on), so white's
/// pass is recorded automatically; black's a3 then ends the game with
/// empty squares left.
const PASS_BOARD: &str = "  A B C D E F G H
1 . O X . . . . .
2 . . . . . . . .
3 . O X X X X X X
4 . . . . . . . .
5 . . . . . . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . O
";

#[test]
fn automatic_pass_and_game_end_with_empty_squares() {
    let start = board(PASS_BOARD, Color::Black);
    assert!(!start.must_pass());
    let mut game = Game::from_position(start);
    let turn = game.play(sq("a1")).unwrap();
    assert_eq!(turn.auto_pass, Some(Color::White));
    assert_eq!(game.position().side_to_move, Color::Black);
    assert!(matches!(
        game.events()[1],
        GameEvent::Pass {
            color: Color::White
        }
    ));
    assert!(!game.is_over());
    // A plain Position shows the pass to make.
    let after = start.play(sq("a1")).unwrap().position;
    assert!(after.must_pass());
    assert_eq!(after.play(sq("d6")), Err(PlayError::MustPass(Color::White)));
    assert_eq!(after.pass().unwrap().side_to_move, Color::Black);

    let turn = game.play(sq("a3")).unwrap();
    assert_eq!(turn.auto_pass, None);
    assert!(game.is_over());
    let end = game.position();
    assert!(end.empty_count() > 0);
    assert_eq!(end.count(Color::Black), 11);
    assert_eq!(end.count(Color::White), 1);
    assert_eq!(end.winner(), Some(Color::Black));
    assert_eq!(game.result(), Some(GameResult::Win(Color::Black)));
    assert_eq!(end.final_score(Color::Black), 11 - 1 + 52);
    assert_eq!(end.play(sq("h1")), Err(PlayError::GameOver));
    assert_eq!(end.pass(), Err(PlayError::GameOver));
    assert_eq!(game.play(sq("h1")), Err(PlayError::GameOver));
    // Replaying the moves inserts the same pass.
    let again = Game::replay_from(start, &[sq("a1"), sq("a3")]).unwrap();
    assert_eq!(again, game);
}

#[test]
fn shortest_whole_game() {
    // A nine-move wipe-out.
    let game = engine::parse_transcript("d3c3b3d2e1d6d7e3f4").unwrap();
    assert!(game.is_over());
    assert_eq!(game.position().count(Color::Black), 13);
    assert_eq!(game.position().count(Color::White), 0);
    assert_eq!(game.position().final_score(Color::Black), 64);
    assert_eq!(game.result(), Some(GameResult::Win(Color::Black)));
}

#[test]
fn whole_self_play_games_keep_invariants() {
    for seed in 0..6u64 {
        let mut rng = common::Rng::new(seed);
        let mut game = Game::new();
        while !game.is_over() {
            let pos = *game.position();
            let depth = 1 + (seed % 3) as u32;
            let choice = if rng.below(4) == 0 {
                let moves: Vec<Square> = pos.legal_moves().iter().collect();
                moves[rng.below(moves.len())]
            } else {
                engine::search(&pos, depth)
                    .best_move
                    .expect("a move (passes are automatic)")
            };
            let turn = game.play(choice).unwrap();
            let now = game.position();
            let placed = game.moves().len() as u32;
            assert_eq!(
                now.count(Color::Black) + now.count(Color::White),
                4 + placed
            );
            assert_eq!(now.black & now.white, Bitboard::EMPTY);
            assert!(!turn.flipped.is_empty());
            assert!(!now.must_pass(), "passes are inserted automatically");
        }
        // The transcript replays to the same game, and the record is complete.
        let again = engine::parse_transcript(&game.transcript()).unwrap();
        assert_eq!(again, game);
        assert_eq!(game.positions().last(), Some(game.position()));
        let passes = game
            .events()
            .iter()
            .filter(|e| matches!(e, GameEvent::Pass { .. }))
            .count();
        assert_eq!(game.events().len(), game.moves().len() + passes);
        let p = game.position();
        let diff = p.count(Color::Black) as i32 - p.count(Color::White) as i32;
        assert!(p.result().is_some());
        assert_eq!(p.winner().is_none(), diff == 0);
    }
}
