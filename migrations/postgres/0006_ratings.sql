-- Glicko-2 ratings, shared by every instance (see migrations/0016_ratings.sql): one row per account and speed ('blitz', 'rapid'),
-- written in the same transaction as the rated round's result, with one
-- history row per rated game (the profile's graph). An archived game keeps
-- both players' ratings before and after it (NULL: a casual game).
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    volatility DOUBLE PRECISION    NOT NULL,
    games      BIGINT NOT NULL,
    rated_at   BIGINT NOT NULL,
    PRIMARY KEY (account_id, speed)
);
CREATE INDEX ratings_board ON ratings (speed, rating);

CREATE TABLE rating_history (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    speed      TEXT    NOT NULL,
    at         BIGINT NOT NULL,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    game_id    TEXT    NOT NULL
);
CREATE INDEX rating_history_of ON rating_history (account_id, speed, at);

ALTER TABLE archived_games ADD COLUMN black_before DOUBLE PRECISION;
ALTER TABLE archived_games ADD COLUMN black_after DOUBLE PRECISION;
ALTER TABLE archived_games ADD COLUMN white_before DOUBLE PRECISION;
ALTER TABLE archived_games ADD COLUMN white_after DOUBLE PRECISION;
