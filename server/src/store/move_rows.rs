//! The `moves` table's rows as the store reads and writes them (tables from
//! `migrations/0002_tables.sql`, kinds as of `0011_clocks.sql` and
//! `0022_berserk.sql`), for both databases.

/// What a stored row records: a command, or a pass the rules derived. Stored
/// as the lowercase name (`'place'`, `'pass'`, …), the strings the `moves`
/// table's CHECK constraint allows since migration 0011.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A disc placed.
    Place,
    /// The side to move had no legal move (derived, never replayed).
    Pass,
    Resign,
    /// A vote for a rematch.
    Vote,
    /// A rematch vote withdrawn.
    Withdraw,
    /// A seat holder did not come back within the grace period: forfeit.
    Timeout,
    /// Both holders away past their grace: the round ends with no winner.
    Abandon,
    /// The side to move ran out of time.
    Flag,
    /// A player went berserk at an arena's table (migration 0022).
    Berserk,
}

impl MoveKind {
    /// Every kind, in the order of the schema's CHECK list.
    pub const ALL: [MoveKind; 9] = [
        MoveKind::Place,
        MoveKind::Pass,
        MoveKind::Resign,
        MoveKind::Vote,
        MoveKind::Withdraw,
        MoveKind::Timeout,
        MoveKind::Abandon,
        MoveKind::Flag,
        MoveKind::Berserk,
    ];

    /// The stored name (`'place'`, `'pass'`, …).
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Place => "place",
            MoveKind::Pass => "pass",
            MoveKind::Resign => "resign",
            MoveKind::Vote => "vote",
            MoveKind::Withdraw => "withdraw",
            MoveKind::Timeout => "timeout",
            MoveKind::Abandon => "abandon",
            MoveKind::Flag => "flag",
            MoveKind::Berserk => "berserk",
        }
    }

    /// The kind a stored name stands for.
    pub fn from_name(name: &str) -> Option<MoveKind> {
        MoveKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A stored kind read back (the rows decode through it).
impl TryFrom<String> for MoveKind {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        MoveKind::from_name(&name).ok_or_else(|| format!("no such move kind: {name}"))
    }
}

crate::store::rows::row_struct! {
    /// A stored command or derived pass.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct MoveRow {
        pub seq: i64,
        pub round: i64,
        pub kind: MoveKind as String,
        pub side: String,
        pub square: Option<i64>,
        /// Time the mover used (a placement at a timed table), in milliseconds.
        pub time_ms: Option<i64>,
    }
}
