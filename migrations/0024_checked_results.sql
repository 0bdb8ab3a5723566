-- A round's result and a rating pool as the database checks them: the
-- winner is 'black', 'white' or NULL, the reason one of EndReason's keys,
-- a pool's speed 'blitz' or 'rapid' (app::protocol::Side, EndReason, Speed).
-- SQLite cannot add a CHECK to a column, so the four tables are rebuilt (no
-- table refers to them). A value no version wrote is read as the code read
-- it before: an unknown reason is 'finished', an unknown winner none, a
-- rating row of an unknown pool is dropped (it was never shown).
-- PostgreSQL's twin is migrations/postgres/0014_checked_results.sql.
CREATE TABLE rounds_new (
    table_id   TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    winner     TEXT CHECK (winner IN ('black', 'white')),
    reason     TEXT CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted')),
    black      INTEGER,
    white      INTEGER,
    ended_at   INTEGER,
    PRIMARY KEY (table_id, round)
);
INSERT INTO rounds_new (table_id, round, started_at, winner, reason, black, white, ended_at)
SELECT table_id, round, started_at,
    CASE WHEN winner IN ('black', 'white') THEN winner END,
    CASE WHEN reason IS NULL THEN NULL
         WHEN reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted') THEN reason
         ELSE 'finished' END,
    black, white, ended_at
FROM rounds;
DROP TABLE rounds;
ALTER TABLE rounds_new RENAME TO rounds;

CREATE TABLE archived_games_new (
    id           TEXT    PRIMARY KEY NOT NULL,
    table_id     TEXT    NOT NULL,
    round        INTEGER NOT NULL,
    mode_kind    TEXT    NOT NULL CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online')),
    ai_depth     INTEGER CHECK (ai_depth BETWEEN 1 AND 255),
    ai_human     TEXT    CHECK (ai_human IN ('black', 'white')),
    private_link INTEGER NOT NULL CHECK (private_link IN (0, 1)),
    base_s       INTEGER CHECK (base_s >= 0),
    increment_s  INTEGER CHECK (increment_s >= 0),
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    tournament   INTEGER NOT NULL CHECK (tournament IN (0, 1)),
    black        TEXT    NOT NULL,
    white        TEXT    NOT NULL,
    start_obf    TEXT    NOT NULL,
    moves        TEXT    NOT NULL,
    times        TEXT    NOT NULL,
    winner       TEXT    CHECK (winner IN ('black', 'white')),
    reason       TEXT    NOT NULL CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted')),
    black_discs  INTEGER NOT NULL,
    white_discs  INTEGER NOT NULL,
    ended_at     INTEGER NOT NULL,
    black_before REAL,
    black_after  REAL,
    white_before REAL,
    white_after  REAL
);
INSERT INTO archived_games_new (id, table_id, round, mode_kind, ai_depth, ai_human, private_link,
    base_s, increment_s, rated, tournament, black, white, start_obf, moves, times, winner, reason,
    black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after)
SELECT id, table_id, round, mode_kind, ai_depth, ai_human, private_link,
    base_s, increment_s, rated, tournament, black, white, start_obf, moves, times,
    CASE WHEN winner IN ('black', 'white') THEN winner END,
    CASE WHEN reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted') THEN reason
         ELSE 'finished' END,
    black_discs, white_discs, ended_at, black_before, black_after, white_before, white_after
FROM archived_games;
DROP TABLE archived_games;
ALTER TABLE archived_games_new RENAME TO archived_games;
CREATE INDEX archived_games_black ON archived_games (black, ended_at);
CREATE INDEX archived_games_white ON archived_games (white, ended_at);
CREATE UNIQUE INDEX archived_games_round ON archived_games (table_id, round);
CREATE INDEX archived_games_kind ON archived_games (mode_kind, ended_at);

CREATE TABLE ratings_new (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL CHECK (speed IN ('blitz', 'rapid')),
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    rated_at   INTEGER NOT NULL,
    PRIMARY KEY (account_id, speed)
);
INSERT INTO ratings_new (account_id, speed, rating, deviation, volatility, games, rated_at)
SELECT account_id, speed, rating, deviation, volatility, games, rated_at
FROM ratings WHERE speed IN ('blitz', 'rapid');
DROP TABLE ratings;
ALTER TABLE ratings_new RENAME TO ratings;
CREATE INDEX ratings_board ON ratings (speed, rating);

CREATE TABLE rating_history_new (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL CHECK (speed IN ('blitz', 'rapid')),
    at         INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    game_id    TEXT    NOT NULL
);
INSERT INTO rating_history_new (account_id, speed, at, rating, deviation, game_id)
SELECT account_id, speed, at, rating, deviation, game_id
FROM rating_history WHERE speed IN ('blitz', 'rapid');
DROP TABLE rating_history;
ALTER TABLE rating_history_new RENAME TO rating_history;
CREATE INDEX rating_history_of ON rating_history (account_id, speed, at);
