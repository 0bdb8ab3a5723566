-- A new way for a round to end: 'forfeit' (app::protocol::EndReason::Forfeit,
-- a tournament game whose side did not make its first move in time; with no
-- winner, neither did). The reason's CHECK of `rounds` and `archived_games`
-- takes it. SQLite cannot change a CHECK, so both tables are rebuilt as they
-- stand (0024 and 0025), every row kept; no table refers to them.
-- PostgreSQL's twin is migrations/postgres/0020_forfeit.sql.
CREATE TABLE rounds_new (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    winner     TEXT CHECK (winner IN ('black', 'white')),
    reason     TEXT CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted', 'forfeit')),
    black      INTEGER,
    white      INTEGER,
    ended_at   INTEGER,
    PRIMARY KEY (table_id, round)
);
INSERT INTO rounds_new (table_id, round, started_at, winner, reason, black, white, ended_at)
SELECT table_id, round, started_at, winner, reason, black, white, ended_at FROM rounds;
DROP TABLE rounds;
ALTER TABLE rounds_new RENAME TO rounds;

CREATE TABLE archived_games_new (
    id             TEXT    PRIMARY KEY NOT NULL,
    table_id       TEXT    NOT NULL,
    round          INTEGER NOT NULL,
    mode_kind      TEXT    NOT NULL CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online')),
    ai_depth       INTEGER CHECK (ai_depth BETWEEN 1 AND 255),
    ai_human       TEXT    CHECK (ai_human IN ('black', 'white')),
    private_link   INTEGER NOT NULL CHECK (private_link IN (0, 1)),
    base_s         INTEGER CHECK (base_s >= 0),
    increment_s    INTEGER CHECK (increment_s >= 0),
    rated          INTEGER NOT NULL CHECK (rated IN (0, 1)),
    tournament     INTEGER NOT NULL CHECK (tournament IN (0, 1)),
    black_account  INTEGER,
    black_ai       INTEGER CHECK (black_ai BETWEEN 0 AND 255),
    black_browser  TEXT,
    white_account  INTEGER,
    white_ai       INTEGER CHECK (white_ai BETWEEN 0 AND 255),
    white_browser  TEXT,
    start_obf      TEXT    NOT NULL,
    moves          TEXT    NOT NULL,
    times          TEXT    NOT NULL,
    winner         TEXT    CHECK (winner IN ('black', 'white')),
    reason         TEXT    NOT NULL CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted', 'forfeit')),
    black_discs    INTEGER NOT NULL,
    white_discs    INTEGER NOT NULL,
    ended_at       INTEGER NOT NULL,
    black_before   REAL,
    black_after    REAL,
    white_before   REAL,
    white_after    REAL,
    CHECK ((black_account IS NOT NULL) + (black_ai IS NOT NULL) + (black_browser IS NOT NULL) = 1),
    CHECK ((white_account IS NOT NULL) + (white_ai IS NOT NULL) + (white_browser IS NOT NULL) = 1)
);
INSERT INTO archived_games_new (id, table_id, round, mode_kind, ai_depth, ai_human, private_link,
    base_s, increment_s, rated, tournament, black_account, black_ai, black_browser,
    white_account, white_ai, white_browser, start_obf, moves, times, winner, reason,
    black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after)
SELECT id, table_id, round, mode_kind, ai_depth, ai_human, private_link,
    base_s, increment_s, rated, tournament, black_account, black_ai, black_browser,
    white_account, white_ai, white_browser, start_obf, moves, times, winner, reason,
    black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after
FROM archived_games;
DROP TABLE archived_games;
ALTER TABLE archived_games_new RENAME TO archived_games;
CREATE INDEX archived_games_black_account ON archived_games (black_account, ended_at);
CREATE INDEX archived_games_white_account ON archived_games (white_account, ended_at);
CREATE INDEX archived_games_black_browser ON archived_games (black_browser, ended_at);
CREATE INDEX archived_games_white_browser ON archived_games (white_browser, ended_at);
CREATE UNIQUE INDEX archived_games_round ON archived_games (table_id, round);
CREATE INDEX archived_games_kind ON archived_games (mode_kind, ended_at);
