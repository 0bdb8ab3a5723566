//! Opening names: the named openings of `data/openings.txt` (standard names
//! from Robert Gatliff's list, written from f5) matched against a game's
//! first moves under the board's 8 symmetries. Pure Rust; the browser and the
//! server (exports) use the same matcher.

use std::sync::OnceLock;

/// The data file, compiled in.
pub const DATA: &str = include_str!("../data/openings.txt");

/// One named opening: its moves from f5 (square indices, a1 = 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name: String,
    pub moves: Vec<u8>,
}

/// A match: the opening and how many of the game's first moves it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    /// The opening's length in moves (all of them were played).
    pub plies: usize,
}

/// Parses a square name (`f5`, case-insensitive) into its index.
pub fn square_index(name: &str) -> Option<u8> {
    let bytes = name.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
    let row = bytes[1].checked_sub(b'1')?;
    (col < 8 && row < 8).then_some(row * 8 + col)
}

/// Parses the data file: `moves | name` lines, `#` comments.
pub fn parse(data: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (number, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves, name) = line
            .split_once('|')
            .ok_or_else(|| format!("line {}: expected `moves | name`", number + 1))?;
        let moves = moves.trim();
        if moves.is_empty() || moves.len() % 2 != 0 {
            return Err(format!("line {}: bad move list `{moves}`", number + 1));
        }
        let squares = (0..moves.len())
            .step_by(2)
            .map(|i| {
                moves
                    .get(i..i + 2)
                    .and_then(square_index)
                    .ok_or_else(|| format!("line {}: bad square in `{moves}`", number + 1))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        out.push(Opening {
            name: name.trim().to_string(),
            moves: squares,
        });
    }
    Ok(out)
}

/// Every named opening of the compiled-in list.
pub fn all() -> &'static [Opening] {
    static LIST: OnceLock<Vec<Opening>> = OnceLock::new();
    LIST.get_or_init(|| parse(DATA).unwrap_or_default())
}

/// The 8 symmetries of the board applied to a square index.
pub fn transform(symmetry: u8, index: u8) -> u8 {
    let (c, r) = (index % 8, index / 8);
    let (c, r) = match symmetry % 8 {
        0 => (c, r),
        1 => (r, c),         // main diagonal a1–h8
        2 => (7 - r, 7 - c), // anti-diagonal a8–h1
        3 => (7 - c, 7 - r), // half turn
        4 => (7 - c, r),     // mirror left–right
        5 => (c, 7 - r),     // mirror top–bottom
        6 => (7 - r, c),     // quarter turn
        _ => (r, 7 - c),     // quarter turn the other way
    };
    r * 8 + c
}

/// The longest named opening whose moves, under one of the 8 symmetries,
/// are the game's first moves (`moves` are square indices in play order,
/// passes left out).
pub fn name_of(moves: &[u8]) -> Option<Named> {
    let mut best: Option<&Opening> = None;
    for opening in all() {
        if opening.moves.len() > moves.len()
            || best.is_some_and(|b| b.moves.len() >= opening.moves.len())
        {
            continue;
        }
        let matches = (0..8).any(|symmetry| {
            opening
                .moves
                .iter()
                .zip(moves)
                .all(|(&o, &m)| transform(symmetry, o) == m)
        });
        if matches {
            best = Some(opening);
        }
    }
    best.map(|o| Named {
        name: o.name.clone(),
        plies: o.moves.len(),
    })
}

/// The Greek names of the list's openings (by their English name): the
/// descriptive words translated, the people's and programs' names kept as
/// the Othello community writes them.
const GREEK: &[(&str, &str)] = &[
    ("Perpendicular Opening", "Κάθετο άνοιγμα"),
    ("Parallel Opening", "Παράλληλο άνοιγμα"),
    ("Diagonal Opening", "Διαγώνιο άνοιγμα"),
    ("Tiger", "Τίγρης"),
    ("Mainline Tiger", "Τίγρης, κύρια γραμμή"),
    ("Leader's Tiger", "Τίγρης του Leader"),
    ("Aubrey, Tanaka", "Aubrey, Tanaka"),
    ("Rose-BILL", "Rose-BILL"),
    ("Tamenori", "Tamenori"),
    ("Ishii", "Ishii"),
    ("Brightwell", "Brightwell"),
    ("Stephenson", "Stephenson"),
    ("Kung", "Kung"),
    ("COMP'OTH", "COMP'OTH"),
    ("No-Kung", "Όχι-Kung"),
    ("No-Kung (Continuation)", "Όχι-Kung (συνέχεια)"),
    ("Ganglion", "Γάγγλιο"),
    ("Cat", "Γάτα"),
    ("Berner", "Berner"),
    ("Sakaguchi", "Sakaguchi"),
    ("Italian", "Ιταλικό"),
    ("No-Cat", "Όχι-Γάτα"),
    ("No-Cat (Continuation)", "Όχι-Γάτα (συνέχεια)"),
    ("Swallow", "Χελιδόνι"),
    ("Horse", "Άλογο"),
    ("Ralle", "Ralle"),
    ("Rose", "Rose"),
    ("Greenberg, Dawg", "Greenberg, Dawg"),
    ("Rose-Birth", "Rose-Birth"),
    ("Rose-birdie, Rose-Tamenori", "Rose-birdie, Rose-Tamenori"),
    ("Rose-Tamenori-Kling", "Rose-Tamenori-Kling"),
    ("Brightstein", "Brightstein"),
    ("Flat", "Επίπεδο"),
    ("Rotating Flat", "Περιστρεφόμενο επίπεδο"),
    (
        "Rotating Flat (Kling Continuation)",
        "Περιστρεφόμενο επίπεδο (συνέχεια Kling)",
    ),
    ("Murakami Variation", "Παραλλαγή Murakami"),
    ("Bhagat", "Bhagat"),
    ("Inoue", "Inoue"),
    ("IAGO", "IAGO"),
    ("Shaman, Danish", "Σαμάνος, Δανικό"),
    ("Mimura", "Mimura"),
    ("Semi-Wing Variation", "Παραλλαγή μισής φτερούγας"),
    ("Wing Variation", "Παραλλαγή φτερούγας"),
    ("Buffalo, Kenichi Variation", "Βούβαλος, παραλλαγή Kenichi"),
    ("Hokuriku Buffalo", "Βούβαλος Hokuriku"),
    ("Tanida Buffalo", "Βούβαλος Tanida"),
    ("Maruoka Buffalo", "Βούβαλος Maruoka"),
    ("Cow", "Αγελάδα"),
    ("Rose-v-Toth", "Rose-v-Toth"),
    ("Landau", "Landau"),
    ("Maruoka", "Maruoka"),
    ("Tanida", "Tanida"),
    ("Aircraft, Feldborg", "Αεροπλάνο, Feldborg"),
    ("Sailboat", "Ιστιοφόρο"),
    (
        "Cow Bat, Bat, Cambridge",
        "Αγελάδα-νυχτερίδα, Νυχτερίδα, Cambridge",
    ),
    ("Bat (Kling Continuation)", "Νυχτερίδα (συνέχεια Kling)"),
    (
        "Melnikov, Bat (Piau Continuation 1)",
        "Melnikov, Νυχτερίδα (συνέχεια Piau 1)",
    ),
    ("Bat (Piau Continuation 2)", "Νυχτερίδα (συνέχεια Piau 2)"),
    ("Bat (Kling Alternative)", "Νυχτερίδα (εναλλακτική Kling)"),
    ("Chimney", "Καμινάδα"),
    ("Hamilton", "Hamilton"),
    ("Lollipop", "Γλειφιτζούρι"),
    ("Raccoon Dog", "Ρακουνόσκυλο"),
    ("Heath, Tobidashi", "Heath, Tobidashi"),
    ("Heath-Chimney", "Heath-Καμινάδα"),
    ("Heath-Bat", "Heath-Νυχτερίδα"),
    ("Iwasaki Variation", "Παραλλαγή Iwasaki"),
    ("Mimura Variation II", "Παραλλαγή Mimura II"),
    ("Snake, Peasant", "Φίδι, Χωρικός"),
    (
        "Pyramid, Checkerboarding Peasant",
        "Πυραμίδα, Χωρικός σκακιέρας",
    ),
];

/// An opening's name (the list's English one) as a page in `lang` shows
/// it; a name without a Greek form stays as it is.
pub fn name_in(lang: crate::i18n::Lang, name: &str) -> String {
    match lang {
        crate::i18n::Lang::En => name.to_string(),
        crate::i18n::Lang::El => GREEK
            .iter()
            .find(|(english, _)| *english == name)
            .map_or(name, |(_, greek)| greek)
            .to_string(),
    }
}

/// [`name_of`] for square names (`["f5", "d6", …]`); unknown names end the
/// sequence.
pub fn name_of_squares<S: AsRef<str>>(moves: &[S]) -> Option<Named> {
    let indices: Vec<u8> = moves
        .iter()
        .map_while(|s| square_index(s.as_ref()))
        .collect();
    name_of(&indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(moves: &str) -> Option<String> {
        let squares: Vec<&str> = moves.split_whitespace().collect();
        name_of_squares(&squares).map(|n| n.name)
    }

    #[test]
    fn the_list_parses_and_has_the_standard_names() {
        let list = parse(DATA).expect("parses");
        assert!(list.len() > 60);
        for name in [
            "Tiger",
            "Rose",
            "Buffalo, Kenichi Variation",
            "Heath, Tobidashi",
            "Cow",
            "Snake, Peasant",
            "Aubrey, Tanaka",
            "Stephenson",
        ] {
            assert!(list.iter().any(|o| o.name == name), "{name}");
        }
        assert!(list
            .iter()
            .all(|o| o.moves[0] == square_index("f5").unwrap_or(0)));
    }

    #[test]
    fn standard_openings_are_named_from_f5() {
        assert_eq!(named("f5 d6 c3 d3 c4").as_deref(), Some("Tiger"));
        assert_eq!(named("f5 d6 c3 d3 c4 f4 f6").as_deref(), Some("Stephenson"));
        assert_eq!(
            named("f5 d6 c3 d3 c4 b3").as_deref(),
            Some("Aubrey, Tanaka")
        );
        assert_eq!(
            named("f5 d6 c5 f4 e3 c6 d3 f6 e6 d7").as_deref(),
            Some("Rose")
        );
        assert_eq!(
            named("f5 f6 e6 d6 c3").as_deref(),
            Some("Buffalo, Kenichi Variation")
        );
        assert_eq!(named("f5 f6 e6 f4 g5").as_deref(), Some("Heath, Tobidashi"));
        assert_eq!(named("f5 f6 e6 f4 e3").as_deref(), Some("Cow"));
        assert_eq!(named("f5 f6 e6 d6 f7").as_deref(), Some("Snake, Peasant"));
        // Later moves keep the longest name that was played in full.
        assert_eq!(named("f5 d6 c3 d3 c4 a1 a2").as_deref(), Some("Tiger"));
        assert_eq!(named("f5 d6 c3").as_deref(), Some("Perpendicular Opening"));
        assert_eq!(named("f5 f4").as_deref(), Some("Parallel Opening"));
        assert_eq!(named("f5").as_deref(), None);
        assert_eq!(named("").as_deref(), None);
    }

    #[test]
    fn openings_are_named_under_the_symmetries() {
        // The Tiger from each of black's four first moves.
        assert_eq!(named("d3 c5 f6 f5 e6").as_deref(), Some("Tiger"));
        assert_eq!(named("e6 f4 c3 c4 d3").as_deref(), Some("Tiger"));
        assert_eq!(named("c4 e3 f6 e6 f5").as_deref(), Some("Tiger"));
        // Every symmetry of every line is named (by itself or a longer line).
        for opening in all() {
            for symmetry in 0..8 {
                let moved: Vec<u8> = opening
                    .moves
                    .iter()
                    .map(|&m| transform(symmetry, m))
                    .collect();
                let found = name_of(&moved).expect("named");
                assert_eq!(found.plies, opening.moves.len(), "{}", opening.name);
            }
        }
    }

    #[test]
    fn every_opening_has_a_greek_name() {
        use crate::i18n::Lang;
        for opening in all() {
            assert!(
                GREEK.iter().any(|(english, _)| *english == opening.name),
                "no Greek name for {}",
                opening.name
            );
        }
        assert_eq!(name_in(Lang::El, "Tiger"), "Τίγρης");
        assert_eq!(name_in(Lang::El, "Perpendicular Opening"), "Κάθετο άνοιγμα");
        assert_eq!(name_in(Lang::En, "Tiger"), "Tiger");
        assert_eq!(name_in(Lang::El, "Something new"), "Something new");
    }

    #[test]
    fn the_symmetries_are_a_group_of_eight() {
        let images: std::collections::HashSet<Vec<u8>> = (0..8)
            .map(|s| (0..64).map(|i| transform(s, i)).collect())
            .collect();
        assert_eq!(images.len(), 8);
    }
}
