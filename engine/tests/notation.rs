//! Text board, OBF, transcript and GGF forms.

mod common;
use common::sq;
use engine::{
    format_moves, parse_moves, parse_transcript, Color, Game, GgfInfo, ParseError, Position,
    TranscriptError,
};

#[test]
fn text_board_round_trip_and_tolerance() {
    for pos in common::positions(7, 30, 5)
        .into_iter()
        .chain([Position::initial()])
    {
        let text = pos.to_text_board();
        assert_eq!(Position::from_text_board(&text, pos.side_to_move), Ok(pos));
        assert_eq!(pos.to_string(), text);
        // Trailing whitespace, blank lines and lower case are accepted.
        let sloppy: String = text
            .lines()
            .map(|l| format!("{}  \t\n", l.to_lowercase()))
            .collect();
        let sloppy = format!("\n\n{sloppy}\n  \n");
        assert_eq!(
            Position::from_text_board(&sloppy, pos.side_to_move),
            Ok(pos)
        );
    }
}

#[test]
fn text_board_errors_are_clear() {
    let good = Position::initial().to_text_board();
    assert_eq!(
        Position::from_text_board("", Color::Black),
        Err(ParseError::MissingHeader)
    );
    let no_header: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        Position::from_text_board(&no_header, Color::Black),
        Err(ParseError::MissingHeader)
    );
    let bad_cell = good.replace("4 . . . O X", "4 . . . O Z");
    let err = Position::from_text_board(&bad_cell, Color::Black).unwrap_err();
    assert!(err.to_string().contains("row 4"), "{err}");
    let short_row = good.replace("6 . . . . . . . .", "6 . . . . . . .");
    assert!(matches!(
        Position::from_text_board(&short_row, Color::Black),
        Err(ParseError::BadRow { row: 6, .. })
    ));
    let missing_row: String = good.lines().take(8).map(|l| format!("{l}\n")).collect();
    assert!(matches!(
        Position::from_text_board(&missing_row, Color::Black),
        Err(ParseError::BadRow { row: 8, .. })
    ));
    let swapped = good.replace("\n2 ", "\n3 ");
    assert!(Position::from_text_board(&swapped, Color::Black).is_err());
}

#[test]
fn obf_round_trip_and_errors() {
    let start = "---------------------------OX------XO--------------------------- X";
    assert_eq!(Position::initial().to_obf(), start);
    assert_eq!(Position::from_obf(start), Ok(Position::initial()));
    assert_eq!(
        Position::from_obf(&format!("  {start} ; A2:+38;")),
        Ok(Position::initial())
    );
    for pos in common::positions(11, 20, 5) {
        assert_eq!(Position::from_obf(&pos.to_obf()), Ok(pos));
    }
    assert!(matches!(
        Position::from_obf(&start[..60]),
        Err(ParseError::WrongLength { .. })
    ));
    assert!(matches!(
        Position::from_obf(&start.replace(" X", "")),
        Err(ParseError::InvalidSideToMove(_))
    ));
    assert!(matches!(
        Position::from_obf(&start.replace(" X", " Z")),
        Err(ParseError::InvalidSideToMove(_))
    ));
    assert!(matches!(
        Position::from_obf(&start.replacen('-', "?", 1)),
        Err(ParseError::InvalidChar {
            column: 1,
            found: '?',
            ..
        })
    ));
    assert!(Position::from_obf(&format!("-{start}")).is_err());
}

#[test]
fn transcript_parse_print_and_errors() {
    let game = parse_transcript("f5d6c3d3c4").unwrap();
    assert_eq!(game.transcript(), "f5d6c3d3c4");
    assert_eq!(game.position().side_to_move, Color::White);
    assert_eq!(
        parse_transcript(" F5 D6\nc3 ").unwrap().transcript(),
        "f5d6c3"
    );
    assert_eq!(parse_moves("").unwrap(), vec![]);
    assert_eq!(format_moves(&[sq("f5"), sq("d6")]), "f5d6");
    match parse_transcript("f5d6z9") {
        Err(TranscriptError::Syntax { column: 5, found }) => assert_eq!(found, "z9"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_transcript("f5d"),
        Err(TranscriptError::Syntax { .. })
    ));
    match parse_transcript("f5d6f5") {
        Err(TranscriptError::Illegal(e)) => {
            assert_eq!(e.ply, 3);
            assert_eq!(e.square, sq("f5"));
            assert_eq!(
                e.to_string(),
                "move 3 (f5) is illegal: square f5 is already occupied"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(parse_transcript("a1"), Err(TranscriptError::Illegal(e)) if e.ply == 1));
}

#[test]
fn ggf_export() {
    let game = parse_transcript("d3c3b3d2e1d6d7e3f4").unwrap();
    let info = GgfInfo {
        place: "othello3d".into(),
        date: "2026-12-01".into(),
        black: "ai[d3]".into(),
        white: "alice".into(),
        time: "0".into(),
        result: None,
        kind: None,
        comment: None,
    };
    let ggf = game.to_ggf(&info);
    assert_eq!(
        ggf,
        "(;GM[Othello]PC[othello3d]DT[2026-12-01]PB[ai[d3\\]]PW[alice]RE[+64.000]TI[0]TY[8]\
         BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
         B[D3]W[C3]B[B3]W[D2]B[E1]W[D6]B[D7]W[E3]B[F4];)"
    );
    // Unfinished games have an open result; passes are written PA.
    let start = Position::from_text_board(
        "  A B C D E F G H
1 . O X . . . . .
2 . . . . . . . .
3 . O X X X X X X
4 . . . . . . . .
5 . . . . . . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . O",
        Color::Black,
    )
    .unwrap();
    let mut g = Game::from_position(start);
    g.play(sq("a1")).unwrap();
    let ggf = g.to_ggf(&GgfInfo::default());
    assert!(ggf.contains("RE[?]"), "{ggf}");
    assert!(ggf.ends_with("B[A1]W[PA];)"), "{ggf}");
}
