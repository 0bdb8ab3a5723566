-- Tournaments (docs/PRODUCT.md, Tournaments): Swiss events of a fixed number
-- of rounds, and arenas of a fixed time (`ends_at`; their `round` counts
-- the batches of pairings), created by a player or by the server's schedule. Every player is
-- an account. A round's pairings are written in one transaction with the
-- tournament's move to that round (`round`), so a round is paired once; each
-- game is an ordinary online table (`table_id`), its result copied here from
-- the archive when it ends, its discs counted by the tournament's rule.
CREATE TABLE tournaments (
    id           TEXT    PRIMARY KEY NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('swiss', 'arena')),
    name         TEXT    NOT NULL,
    creator      INTEGER,
    address      TEXT,
    base_ms      INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    rated        INTEGER NOT NULL,
    private      INTEGER NOT NULL,
    rounds       INTEGER NOT NULL,
    multiplier   INTEGER NOT NULL,
    starts_at    INTEGER NOT NULL,
    ends_at      INTEGER,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished')),
    round        INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    finished_at  INTEGER
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL,
    account_id    INTEGER NOT NULL,
    rating        REAL    NOT NULL,
    withdrawn     INTEGER NOT NULL,
    joined_at     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id);

CREATE TABLE tournament_games (
    tournament_id TEXT    NOT NULL,
    round         INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    white         INTEGER,
    table_id      TEXT,
    black_points  INTEGER,
    white_points  INTEGER,
    black_discs   INTEGER,
    white_discs   INTEGER,
    PRIMARY KEY (tournament_id, round, black)
);
CREATE INDEX tournament_games_table ON tournament_games (table_id);
