-- Othello 3D on PostgreSQL (several server instances on one database; see
-- docs/ARCHITECTURE.md, "Several instances on PostgreSQL"). The same tables
-- as the SQLite schema (migrations/*.sql, as of 0012) for tables, rounds,
-- moves, votes, tallies and sessions, plus what instances share: each
-- table's version, the instances' heartbeats, presence per instance, the
-- quick-match queue and the timer/AI jobs. The AI lab and analyses stay in
-- each instance's local SQLite file.
CREATE TABLE sessions (
    token      TEXT PRIMARY KEY NOT NULL,   -- SHA-256 of the session token
    created_at BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL
);
CREATE INDEX sessions_last_seen ON sessions (last_seen);

CREATE TABLE tables (
    id               TEXT PRIMARY KEY NOT NULL,
    mode             TEXT NOT NULL,         -- JSON of app::protocol::TableMode
    owner            TEXT NOT NULL,
    created_at       BIGINT NOT NULL,       -- unix milliseconds
    last_activity    BIGINT NOT NULL,
    black_seat       TEXT,
    white_seat       TEXT,
    black_gone_since BIGINT,
    white_gone_since BIGINT,
    running_since    BIGINT,
    start_obf        TEXT,
    -- Grows by one with every write to the table (a command, a seat or a
    -- presence change): a command checks it under `SELECT … FOR UPDATE`.
    version          BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tables_by_activity ON tables (last_activity);

CREATE TABLE rounds (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round      BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    winner     TEXT,
    reason     TEXT,
    black      BIGINT,
    white      BIGINT,
    ended_at   BIGINT,
    PRIMARY KEY (table_id, round)
);

CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL,
    round    BIGINT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw', 'timeout', 'abandon', 'flag')),
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square   BIGINT CHECK (square BETWEEN 0 AND 63),
    at       BIGINT NOT NULL,
    time_ms  BIGINT CHECK (time_ms >= 0),
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE votes (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round    BIGINT NOT NULL,
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    vote     BOOLEAN NOT NULL,
    PRIMARY KEY (table_id, round, side)
);

CREATE TABLE tallies (
    table_id   TEXT PRIMARY KEY NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    black_wins BIGINT NOT NULL DEFAULT 0,
    white_wins BIGINT NOT NULL DEFAULT 0,
    draws      BIGINT NOT NULL DEFAULT 0
);

-- Every running instance and when it last said it was alive.
CREATE TABLE instances (
    id           TEXT PRIMARY KEY NOT NULL,
    heartbeat_at BIGINT NOT NULL
);

-- Open table sockets per instance and session; only rows of instances
-- whose heartbeat is fresh count.
CREATE TABLE presence (
    instance TEXT NOT NULL,
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    session  TEXT NOT NULL,
    sockets  INTEGER NOT NULL CHECK (sockets > 0),
    PRIMARY KEY (instance, table_id, session)
);
CREATE INDEX presence_by_table ON presence (table_id);

-- Quick match: players waiting, one row each, paired with FOR UPDATE SKIP LOCKED.
CREATE TABLE queue (
    ticket     BIGSERIAL PRIMARY KEY,
    control    TEXT NOT NULL,               -- '<base>+<increment>' in seconds
    session    TEXT NOT NULL,
    instance   TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX queue_by_control ON queue (control, ticket);

-- Work any instance may do: a table's next timer (grace end or flag) and an
-- AI move to make. Taken with FOR UPDATE SKIP LOCKED and leased until
-- `claimed_until`; a dead instance's lease runs out and another takes it.
CREATE TABLE jobs (
    table_id      TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('timer', 'ai')),
    due_at        BIGINT NOT NULL,
    claimed_until BIGINT,
    PRIMARY KEY (table_id, kind)
);
CREATE INDEX jobs_by_due ON jobs (due_at);
