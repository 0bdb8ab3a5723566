-- Tables (vs AI, hot-seat), their rounds, every accepted command and derived
-- pass, rematch votes, tallies, and browser sessions.
CREATE TABLE sessions (
    token       TEXT PRIMARY KEY NOT NULL,
    created_at  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL
);

CREATE TABLE tables (
    id            TEXT PRIMARY KEY NOT NULL,
    mode          TEXT NOT NULL,            -- JSON of app::protocol::TableMode
    owner         TEXT NOT NULL,            -- session token of the creator
    created_at    INTEGER NOT NULL,         -- unix milliseconds
    last_activity INTEGER NOT NULL
);

CREATE TABLE rounds (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    winner     TEXT,                        -- 'black' | 'white' | NULL (draw or not over)
    reason     TEXT,                        -- 'finished' | 'resigned' | NULL while playing
    black      INTEGER,
    white      INTEGER,
    ended_at   INTEGER,
    PRIMARY KEY (table_id, round)
);

-- Every accepted command in order, plus the passes it caused ('pass' rows are
-- derived: replay regenerates and checks them).
CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw')),
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square   INTEGER CHECK (square BETWEEN 0 AND 63),
    at       INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE votes (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round    INTEGER NOT NULL,
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    vote     INTEGER NOT NULL,
    PRIMARY KEY (table_id, round, side)
);

CREATE TABLE tallies (
    table_id   TEXT PRIMARY KEY NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    black_wins INTEGER NOT NULL DEFAULT 0,
    white_wins INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX tables_by_activity ON tables (last_activity);
