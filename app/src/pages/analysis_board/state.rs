//! The analysis board's state, without the page: the position being set up
//! ([`Setup`]), the moves explored from it as a tree of variations
//! ([`Explorer`]), what a paste or a link holds ([`read_paste`],
//! [`from_query`], [`link`]), and the values and graph of a line. The rules
//! are the engine crate's (positions, legal moves, flips, OBF and transcripts).
//! (Over 600 lines: the last 200 are the unit tests of the editing, the tree,
//! the pastes and the link.)

use crate::worker::MoveValue;
use engine::{parse_moves, Color, PlayError, Position, Square};

/// The address of the page.
pub const PATH: &str = "/analysis";

/// Why a paste or a link could not be read (the page words each one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Nothing to read.
    Empty,
    /// A position (OBF, or a link's `pos`) that is not 64 cells and a side.
    Position,
    /// A transcript's character `column` starts `found`, not a square.
    Syntax { column: usize, found: String },
    /// The `ply`th move (1-based), on `square`, is not legal there.
    Illegal { ply: usize, square: String },
    /// A GGF game without a readable board or moves.
    Ggf,
}

/// The board being edited: any discs, either side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub cells: [i8; 64],
    pub side: Color,
}

impl Setup {
    /// The setup of a position.
    pub fn of(position: &Position) -> Setup {
        Setup {
            cells: position.to_cells(),
            side: position.side_to_move,
        }
    }

    /// Empty → black → white → empty, on `square`.
    pub fn cycle(&mut self, square: u8) {
        if let Some(cell) = self.cells.get_mut(usize::from(square)) {
            *cell = match *cell {
                0 => 1,
                1 => -1,
                _ => 0,
            };
        }
    }

    /// No disc at all.
    pub fn clear(&mut self) {
        self.cells = [0; 64];
    }

    /// The position set up (cells are only ever −1, 0 or +1).
    pub fn position(&self) -> Position {
        Position::from_cells(&self.cells, self.side).unwrap_or_else(|_| Position::initial())
    }
}

/// One position of the tree: the move that led to it (none at the root),
/// the position after it (and after the pass that may follow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub parent: Option<usize>,
    pub square: Option<Square>,
    pub position: Position,
    /// The side that had to pass after this move (or at the start).
    pub passed: Option<Color>,
    pub children: Vec<usize>,
    /// The child last visited: where "forward" goes.
    pub next: Option<usize>,
}

/// The moves explored from a start position: every line kept, one current.
/// Node 0 is the start; a move already played from a node is not added twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explorer {
    start: Position,
    nodes: Vec<Node>,
    current: usize,
}

/// The position after a move's forced pass, and who passed.
fn after_pass(position: Position) -> (Position, Option<Color>) {
    match position.must_pass() {
        true => (
            position.pass().unwrap_or(position),
            Some(position.side_to_move),
        ),
        false => (position, None),
    }
}

impl Explorer {
    pub fn new(start: Position) -> Explorer {
        let (position, passed) = after_pass(start);
        let root = Node {
            parent: None,
            square: None,
            position,
            passed,
            children: Vec::new(),
            next: None,
        };
        Explorer {
            start,
            nodes: vec![root],
            current: 0,
        }
    }

    /// The position the tree starts from (as set up, before any pass).
    pub fn start(&self) -> Position {
        self.start
    }

    pub fn current(&self) -> usize {
        self.current
    }

    pub fn node(&self, index: usize) -> Option<&Node> {
        self.nodes.get(index)
    }

    pub fn position(&self) -> Position {
        self.nodes[self.current].position
    }

    /// Plays `square` from the current position: to the existing child when
    /// the move was played here before, else to a new one.
    pub fn play(&mut self, square: Square) -> Result<(), PlayError> {
        let here = self.current;
        let known = self.nodes[here]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].square == Some(square));
        let child = match known {
            Some(child) => child,
            None => {
                let outcome = self.nodes[here].position.play(square)?;
                let (position, passed) = after_pass(outcome.position);
                self.nodes.push(Node {
                    parent: Some(here),
                    square: Some(square),
                    position,
                    passed,
                    children: Vec::new(),
                    next: None,
                });
                let child = self.nodes.len() - 1;
                self.nodes[here].children.push(child);
                child
            }
        };
        self.nodes[here].next = Some(child);
        self.current = child;
        Ok(())
    }

    /// Plays `moves` in turn; stops at the first illegal one.
    pub fn play_all(&mut self, moves: &[Square]) -> Result<(), LoadError> {
        for (i, &square) in moves.iter().enumerate() {
            self.play(square).map_err(|_| LoadError::Illegal {
                ply: i + 1,
                square: square.to_string(),
            })?;
        }
        Ok(())
    }

    /// One move back; false at the start.
    pub fn back(&mut self) -> bool {
        match self.nodes[self.current].parent {
            Some(parent) => {
                self.nodes[parent].next = Some(self.current);
                self.current = parent;
                true
            }
            None => false,
        }
    }

    /// One move forward along the line last followed; false at its end.
    pub fn forward(&mut self) -> bool {
        match self.nodes[self.current].next {
            Some(next) => {
                self.current = next;
                true
            }
            None => false,
        }
    }

    /// To a node, remembering the way there as the line to follow.
    pub fn go(&mut self, node: usize) {
        if node >= self.nodes.len() {
            return;
        }
        let mut at = node;
        while let Some(parent) = self.nodes[at].parent {
            self.nodes[parent].next = Some(at);
            at = parent;
        }
        self.current = node;
    }

    /// The nodes from the start's first move to `node`.
    pub fn path(&self, node: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = node.min(self.nodes.len() - 1);
        while let Some(parent) = self.nodes[at].parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The line shown: the way to the current node, then on along the moves
    /// last followed (without the start).
    pub fn line(&self) -> Vec<usize> {
        let mut line = self.path(self.current);
        let mut at = self.current;
        while let Some(next) = self.nodes[at].next {
            line.push(next);
            at = next;
        }
        line
    }

    /// The squares played to reach `node`.
    pub fn moves_to(&self, node: usize) -> Vec<Square> {
        self.path(node)
            .into_iter()
            .filter_map(|n| self.nodes[n].square)
            .collect()
    }

    /// Every line explored, by its last node, in the order they were begun.
    pub fn variations(&self) -> Vec<usize> {
        (1..self.nodes.len())
            .filter(|&n| self.nodes[n].children.is_empty())
            .collect()
    }

    /// The lines explored as a tree: each line (in the order they were
    /// begun) from where it leaves the line it shares most with among those
    /// listed before it, one level deeper than that line.
    pub fn branches(&self) -> Vec<Branch> {
        let mut listed: Vec<(Vec<usize>, usize)> = Vec::new();
        let mut out = Vec::new();
        for leaf in self.variations() {
            let path = self.path(leaf);
            let parent = listed
                .iter()
                .map(|(other, depth)| {
                    let shared = other.iter().zip(&path).take_while(|(a, b)| a == b).count();
                    (shared, *depth)
                })
                .max_by_key(|&(shared, _)| shared);
            let (shared, depth) = match parent {
                Some((shared, depth)) => (shared, depth + 1),
                None => (0, 0),
            };
            let moves = path[shared..]
                .iter()
                .filter_map(|&n| self.nodes[n].square)
                .collect();
            out.push(Branch {
                leaf,
                from: shared + 1,
                depth,
                moves,
            });
            listed.push((path, depth));
        }
        out
    }
}

/// One line of the variations' tree ([`Explorer::branches`]): its last node,
/// the number of its first own move, its depth in the tree and its own moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    pub leaf: usize,
    pub from: usize,
    pub depth: usize,
    pub moves: Vec<Square>,
}

impl Branch {
    /// "12. c4 13. d3" (each move with its number).
    pub fn text(&self) -> String {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, square)| format!("{}. {square}", self.from + i))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A position as a link writes it: 64 cells `-XO` and the side `X` or `O`.
pub fn pos_text(position: &Position) -> String {
    position.to_obf().replace(' ', "")
}

/// The link that reopens `start` and `moves` (no `pos` for the usual start).
pub fn link(start: &Position, moves: &[Square], at: Option<usize>) -> String {
    let mut query = Vec::new();
    if *start != Position::initial() {
        query.push(format!("pos={}", pos_text(start)));
    }
    if !moves.is_empty() {
        query.push(format!("line={}", engine::format_moves(moves)));
    }
    // A position inside the line: its ply (0 the start); the line's end
    // needs none.
    if let Some(at) = at.filter(|&at| at < moves.len()) {
        query.push(format!("at={at}"));
    }
    match query.is_empty() {
        true => PATH.to_string(),
        false => format!("{PATH}?{}", query.join("&")),
    }
}

/// The explorer a link's `pos` and `line` describe, at ply `at` of the
/// line (0: its start), else at the line's end (so a missing, malformed or
/// too large `at` shows the whole line played).
pub fn from_query(
    pos: Option<&str>,
    line: Option<&str>,
    at: Option<&str>,
) -> Result<Explorer, LoadError> {
    let start = match pos.map(str::trim).filter(|p| !p.is_empty()) {
        None => Position::initial(),
        Some(p) if p.len() == 65 && p.is_ascii() => {
            Position::from_obf(&format!("{} {}", &p[..64], &p[64..]))
                .map_err(|_| LoadError::Position)?
        }
        Some(_) => return Err(LoadError::Position),
    };
    let mut explorer = Explorer::new(start);
    if let Some(line) = line {
        explorer.play_all(&read_moves(line)?)?;
    }
    let nodes = explorer.line();
    match at.and_then(|a| a.trim().parse::<usize>().ok()) {
        Some(0) if !nodes.is_empty() => explorer.go(0),
        Some(ply) if ply < nodes.len() => explorer.go(nodes[ply - 1]),
        _ => {}
    }
    Ok(explorer)
}

/// Whether `cells` are the usual start's.
fn is_initial(cells: &[i8]) -> bool {
    cells.iter().enumerate().all(|(i, &c)| {
        c == match i {
            27 | 36 => -1,
            28 | 35 => 1,
            _ => 0,
        }
    })
}

/// The link to a game in the analysis board: its start cells (empty for the
/// usual start), the side that moved first, and its squares' names (passes
/// left out). Plain text work, inlined into each page that links here: a
/// call into the engine from the table, game and lab chunks would make this
/// code shared between chunks, which costs the lobby's module bytes.
#[inline(always)]
pub fn game_link(start: &[i8], first: crate::protocol::Side, squares: &[String]) -> String {
    let black_first = first == crate::protocol::Side::Black;
    let mut query = Vec::new();
    if start.len() == 64 && !(black_first && is_initial(start)) {
        let mut pos: String = start
            .iter()
            .map(|&c| match c {
                1 => 'X',
                -1 => 'O',
                _ => '-',
            })
            .collect();
        pos.push(if black_first { 'X' } else { 'O' });
        query.push(format!("pos={pos}"));
    }
    if !squares.is_empty() {
        query.push(format!("line={}", squares.concat()));
    }
    match query.is_empty() {
        true => PATH.to_string(),
        false => format!("{PATH}?{}", query.join("&")),
    }
}

/// `link` (a [`game_link`]) carrying the game whose review marks its moves
/// on the analysis board: `review=table:<id>` (or `game:`, `lab:`).
/// Inlined into each page that links (the table's, the game's, the lab's
/// chunks): shared by three lazy chunks, wasm-split would move it into the
/// main module the lobby loads (`game_link` is the same, docs/ARCHITECTURE.md).
#[inline(always)]
pub fn with_review(link: String, kind: crate::protocol::GameKind, id: &str) -> String {
    let joint = if link.contains('?') { '&' } else { '?' };
    format!("{link}{joint}review={}:{id}", kind.key())
}

/// The game a link's `review=` names (a kind and an id of letters and digits).
pub fn review_of(text: &str) -> Option<(crate::protocol::GameKind, String)> {
    use crate::protocol::GameKind;
    let (kind, id) = text.split_once(':')?;
    let kind = [GameKind::Table, GameKind::Game, GameKind::Lab]
        .into_iter()
        .find(|k| k.key() == kind)?;
    let plain = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric());
    plain.then(|| (kind, id.to_string()))
}

/// How many of `line`'s first moves are the reviewed game's own (`game`):
/// only those carry the review's marks.
pub fn on_game(line: &[String], game: &[String]) -> usize {
    line.iter().zip(game).take_while(|(a, b)| a == b).count()
}

/// A transcript's squares (`f5d6c3`, spaces allowed).
fn read_moves(text: &str) -> Result<Vec<Square>, LoadError> {
    parse_moves(text).map_err(|e| match e {
        engine::TranscriptError::Syntax { column, found } => LoadError::Syntax { column, found },
        engine::TranscriptError::Illegal(r) => LoadError::Illegal {
            ply: r.ply,
            square: r.square.to_string(),
        },
    })
}

/// What a paste holds: an OBF position, a transcript from the usual start,
/// or a GGF game (its board and moves).
pub fn read_paste(text: &str) -> Result<Explorer, LoadError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(LoadError::Empty);
    }
    if text.starts_with("(;") || text.contains("GM[") {
        return read_ggf(text);
    }
    let board = text.chars().take_while(|c| "-.XxOo*".contains(*c)).count();
    if board >= 64 || text.chars().filter(|c| !c.is_whitespace()).count() >= 64 {
        let position = Position::from_obf(text).map_err(|_| LoadError::Position)?;
        return Ok(Explorer::new(position));
    }
    let mut explorer = Explorer::new(Position::initial());
    explorer.play_all(&read_moves(text)?)?;
    Ok(explorer)
}

/// A GGF game's properties, `NAME[value]`, in order (escapes undone).
fn ggf_tags(text: &str) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let mut chars = text.chars().peekable();
    let mut name = String::new();
    while let Some(c) = chars.next() {
        if c.is_ascii_uppercase() {
            name.push(c);
        } else if c == '[' {
            let mut value = String::new();
            while let Some(v) = chars.next() {
                match v {
                    '\\' => value.extend(chars.next()),
                    ']' => break,
                    _ => value.push(v),
                }
            }
            tags.push((std::mem::take(&mut name), value));
        } else {
            name.clear();
        }
    }
    tags
}

/// A GGF game: `BO[8 <8 rows> <side>]`, then `B[f5]`/`W[d6]` moves (`PA`
/// passes are skipped: the explorer passes by itself).
fn read_ggf(text: &str) -> Result<Explorer, LoadError> {
    let tags = ggf_tags(text);
    let board = tags.iter().find(|(n, _)| n == "BO").ok_or(LoadError::Ggf)?;
    let parts: Vec<&str> = board.1.split_whitespace().collect();
    if parts.len() != 10 || parts[0] != "8" {
        return Err(LoadError::Ggf);
    }
    let obf = format!("{} {}", parts[1..9].concat(), parts[9]);
    let mut explorer = Explorer::new(Position::from_obf(&obf).map_err(|_| LoadError::Ggf)?);
    let moves = tags
        .iter()
        .filter(|(n, _)| n == "B" || n == "W")
        .map(|(_, v)| {
            v.split('/')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|m| m != "pa");
    for (i, name) in moves.enumerate() {
        let square: Square = name.parse().map_err(|_| LoadError::Ggf)?;
        explorer.play(square).map_err(|_| LoadError::Illegal {
            ply: i + 1,
            square: name.clone(),
        })?;
    }
    Ok(explorer)
}

/// Where a value comes from, as the page marks it. `Book` is for the opening
/// book, when there is one; the engine gives the other two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Book,
    Trained,
    Exact,
}

impl ValueKind {
    /// The kind's name in the page's markup (`data-kind`).
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Book => "book",
            ValueKind::Trained => "trained",
            ValueKind::Exact => "exact",
        }
    }
}

/// A move's kind of value; `book`: the server's search found it in the
/// opening book (the browser's engine knows no book).
pub fn kind_of(value: &MoveValue, book: bool) -> ValueKind {
    match (book, value.exact) {
        (true, _) => ValueKind::Book,
        (false, true) => ValueKind::Exact,
        (false, false) => ValueKind::Trained,
    }
}

/// A position's value for Black in discs, and whether it is exact: a game
/// over is its final score; else the best move's value, from its mover.
pub fn black_value(position: &Position, moves: Option<&[MoveValue]>) -> Option<(f32, bool)> {
    if position.is_game_over() {
        return Some((position.final_score(Color::Black) as f32, true));
    }
    let best = moves?
        .iter()
        .copied()
        .max_by(|a, b| a.value.total_cmp(&b.value))?;
    let sign = match position.side_to_move {
        Color::Black => 1.0,
        Color::White => -1.0,
    };
    Some((sign * best.value, best.exact))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    #[test]
    fn editing_cycles_empty_black_white() {
        let mut setup = Setup::of(&Position::initial());
        setup.clear();
        setup.cycle(0);
        assert_eq!(setup.cells[0], 1);
        setup.cycle(0);
        assert_eq!(setup.cells[0], -1);
        setup.cycle(0);
        assert_eq!(setup.cells[0], 0);
        setup.cycle(64);
        setup.side = Color::White;
        assert_eq!(setup.position().side_to_move, Color::White);
    }

    #[test]
    fn a_review_link_names_its_game_and_marks_only_the_games_own_moves() {
        use crate::protocol::GameKind;
        let link = with_review(
            game_link(&[], crate::protocol::Side::Black, &["f5".into()]),
            GameKind::Table,
            "ab12",
        );
        assert_eq!(link, "/analysis?line=f5&review=table:ab12");
        assert_eq!(
            with_review("/analysis".into(), GameKind::Lab, "x1"),
            "/analysis?review=lab:x1"
        );
        assert_eq!(
            review_of("game:ff00"),
            Some((GameKind::Game, "ff00".to_string()))
        );
        assert_eq!(review_of("game:../x"), None);
        assert_eq!(review_of("move:ab"), None);
        assert_eq!(review_of("table:"), None);
        let game: Vec<String> = ["f5", "d6", "c3"].map(String::from).to_vec();
        assert_eq!(on_game(&["f5".into(), "d6".into()], &game), 2);
        assert_eq!(on_game(&["f5".into(), "f6".into(), "c3".into()], &game), 1);
        assert_eq!(on_game(&[], &game), 0);
    }

    #[test]
    fn the_lines_explored_read_as_a_tree() {
        let mut e = Explorer::new(Position::initial());
        e.play_all(&[sq("f5"), sq("d6"), sq("c3")]).expect("legal");
        assert!(e.back());
        assert!(e.back());
        e.play(sq("f6")).expect("legal");
        e.play(sq("e6")).expect("legal");
        assert!(e.back());
        e.play(sq("d3")).expect("legal");
        let tree = e.branches();
        let shape: Vec<_> = tree.iter().map(|b| (b.from, b.depth, b.text())).collect();
        assert_eq!(
            shape,
            vec![
                (1, 0, "1. f5 2. d6 3. c3".to_string()),
                (2, 1, "2. f6 3. e6".to_string()),
                (3, 2, "3. d3".to_string()),
            ]
        );
        assert_eq!(e.moves_to(tree[2].leaf), vec![sq("f5"), sq("f6"), sq("d3")]);
    }

    #[test]
    fn a_different_move_from_an_earlier_point_starts_a_variation() {
        let mut e = Explorer::new(Position::initial());
        e.play_all(&[sq("f5"), sq("d6"), sq("c3")]).expect("legal");
        assert!(e.back());
        assert!(e.back());
        assert_eq!(e.moves_to(e.current()), vec![sq("f5")]);
        assert!(e.forward());
        assert_eq!(e.moves_to(e.current()), vec![sq("f5"), sq("d6")]);
        assert!(e.back());
        e.play(sq("f6")).expect("legal");
        assert_eq!(e.variations().len(), 2);
        assert_eq!(e.line().len(), 2);
        // The same move again goes to the node already there.
        assert!(e.back());
        e.play(sq("d6")).expect("legal");
        assert_eq!(e.variations().len(), 2);
        assert_eq!(e.line().len(), 3, "forward follows the line last seen");
        assert!(e.play(sq("a1")).is_err());
        let end = e.variations()[1];
        e.go(end);
        assert_eq!(e.moves_to(e.current()), vec![sq("f5"), sq("f6")]);
        while e.back() {}
        assert_eq!(e.current(), 0);
        assert!(!e.back());
    }

    #[test]
    fn a_forced_pass_is_played_by_itself() {
        // Black to move with no move; White has one: Black passes at once.
        let obf = format!("OX{} X", "-".repeat(62));
        let start = Position::from_obf(&obf).expect("a position");
        let e = Explorer::new(start);
        assert_eq!(e.node(0).and_then(|n| n.passed), Some(Color::Black));
        assert_eq!(e.position().side_to_move, Color::White);
        assert_eq!(e.start(), start);
    }

    #[test]
    fn a_link_reopens_the_same_start_and_line() {
        let mut setup = Setup::of(&Position::initial());
        setup.cycle(0);
        setup.side = Color::White;
        let start = setup.position();
        let mut e = Explorer::new(start);
        let first = Square::all().find(|&s| start.is_legal(s)).expect("a move");
        e.play(first).expect("legal");
        let href = link(&e.start(), &e.moves_to(e.current()), None);
        let query = href.strip_prefix("/analysis?").expect("a query");
        let (pos, line) = query.split_once('&').expect("two parts");
        let back =
            from_query(pos.strip_prefix("pos="), line.strip_prefix("line="), None).expect("reads");
        assert_eq!(back.start(), start);
        assert_eq!(back.position(), e.position());
        assert_eq!(link(&Position::initial(), &[], None), "/analysis");
        assert_eq!(
            link(&Position::initial(), &[sq("f5")], None),
            "/analysis?line=f5"
        );
        // A position inside the line: the whole line, and the ply shown.
        let line = [sq("f5"), sq("d6"), sq("c3")];
        assert_eq!(
            link(&Position::initial(), &line, Some(1)),
            "/analysis?line=f5d6c3&at=1"
        );
        assert_eq!(
            link(&Position::initial(), &line, Some(3)),
            "/analysis?line=f5d6c3",
            "the line's end needs no ply"
        );
        let inside = from_query(None, Some("f5d6c3"), Some("1")).expect("reads");
        assert_eq!(inside.moves_to(inside.current()), vec![sq("f5")]);
        assert_eq!(inside.line().len(), 3, "the rest of the line is kept");
        let start_of = from_query(None, Some("f5d6c3"), Some("0")).expect("reads");
        assert_eq!(start_of.current(), 0);
        for odd in ["9", "x", "-1", ""] {
            let end = from_query(None, Some("f5d6c3"), Some(odd)).expect("reads");
            assert_eq!(end.moves_to(end.current()).len(), 3, "{odd:?}");
        }
        let names = ["f5".to_string(), "d6".to_string()];
        assert_eq!(
            game_link(&[], crate::protocol::Side::Black, &names),
            "/analysis?line=f5d6"
        );
    }

    #[test]
    fn malformed_links_and_pastes_are_errors() {
        assert_eq!(from_query(Some("XO"), None, None), Err(LoadError::Position));
        assert_eq!(
            from_query(Some(&format!("{}Z", "-".repeat(64))), None, None),
            Err(LoadError::Position)
        );
        assert!(matches!(
            from_query(None, Some("f5zz"), None),
            Err(LoadError::Syntax { .. })
        ));
        assert_eq!(
            from_query(None, Some("f5a1"), None),
            Err(LoadError::Illegal {
                ply: 2,
                square: "a1".into()
            })
        );
        assert_eq!(read_paste("  "), Err(LoadError::Empty));
        assert_eq!(read_paste(&"X".repeat(70)), Err(LoadError::Position));
        assert!(matches!(read_paste("hello"), Err(LoadError::Syntax { .. })));
        assert_eq!(
            read_paste("(;GM[Othello]BO[8 nonsense]"),
            Err(LoadError::Ggf)
        );
    }

    #[test]
    fn pastes_read_obf_transcripts_and_ggf() {
        let obf = Position::initial().to_obf();
        assert_eq!(
            read_paste(&obf).map(|e| e.position()),
            Ok(Position::initial())
        );
        let t = read_paste("f5 d6 c3").expect("a transcript");
        assert_eq!(t.moves_to(t.current()).len(), 3);
        let mut game = engine::Game::new();
        for s in ["f5", "f6", "e6"] {
            game.play(sq(s)).expect("legal");
        }
        let ggf = game
            .to_ggf(&engine::GgfInfo::default())
            .replace("B[E6]", "B[E6//1.5]");
        let g = read_paste(&ggf).expect("a GGF game");
        assert_eq!(
            g.position(),
            game.positions().last().copied().expect("a position")
        );
    }

    #[test]
    fn values_for_black_and_the_kinds() {
        let moves = [
            MoveValue {
                square: 19,
                value: 2.0,
                exact: false,
            },
            MoveValue {
                square: 37,
                value: -1.0,
                exact: true,
            },
        ];
        assert_eq!(kind_of(&moves[0], false), ValueKind::Trained);
        assert_eq!(kind_of(&moves[1], false), ValueKind::Exact);
        // The server's search marks the book's moves: that kind shows.
        assert_eq!(kind_of(&moves[0], true), ValueKind::Book);
        let start = Position::initial();
        assert_eq!(black_value(&start, Some(&moves)), Some((2.0, false)));
        let white = Setup {
            side: Color::White,
            ..Setup::of(&start)
        }
        .position();
        assert_eq!(black_value(&white, Some(&moves)), Some((-2.0, false)));
        assert_eq!(black_value(&start, None), None);
        let over = Position::from_obf(&format!("XX{} O", "-".repeat(62))).expect("a position");
        assert_eq!(black_value(&over, None), Some((64.0, true)));
    }
}
