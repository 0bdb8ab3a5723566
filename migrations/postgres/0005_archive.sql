-- The archive, shared by every instance (see migrations/0015_archive.sql): every finished round of every table, kept when the table is
-- deleted. Players are identities (an account's `account:<id>`, an anonymous
-- browser's token hash, `ai:<depth>`); names are read from accounts when
-- shown. Written in the same transaction as the round's result.
CREATE TABLE archived_games (
    id          TEXT    PRIMARY KEY NOT NULL,
    table_id    TEXT    NOT NULL,
    round       BIGINT  NOT NULL,
    mode        TEXT    NOT NULL,
    black       TEXT    NOT NULL,
    white       TEXT    NOT NULL,
    start_obf   TEXT    NOT NULL,
    moves       TEXT    NOT NULL,
    times       TEXT    NOT NULL,
    winner      TEXT,
    reason      TEXT    NOT NULL,
    black_discs BIGINT  NOT NULL,
    white_discs BIGINT  NOT NULL,
    ended_at    BIGINT  NOT NULL
);
CREATE INDEX archived_games_black ON archived_games (black, ended_at);
CREATE INDEX archived_games_white ON archived_games (white, ended_at);
CREATE UNIQUE INDEX archived_games_round ON archived_games (table_id, round);
