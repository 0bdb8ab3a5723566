-- Glicko-2 ratings: one row per account and speed ('blitz', 'rapid'),
-- written in the same transaction as the rated round's result, with one
-- history row per rated game (the profile's graph). An archived game keeps
-- both players' ratings before and after it (NULL: a casual game).
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    rated_at   INTEGER NOT NULL,
    PRIMARY KEY (account_id, speed)
);
CREATE INDEX ratings_board ON ratings (speed, rating);

CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL,
    at         INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    game_id    TEXT    NOT NULL
);
CREATE INDEX rating_history_of ON rating_history (account_id, speed, at);

ALTER TABLE archived_games ADD COLUMN black_before REAL;
ALTER TABLE archived_games ADD COLUMN black_after REAL;
ALTER TABLE archived_games ADD COLUMN white_before REAL;
ALTER TABLE archived_games ADD COLUMN white_after REAL;
