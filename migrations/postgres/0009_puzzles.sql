-- Puzzles, shared by every instance (see migrations/0019_puzzles.sql). (The positions themselves ship with the server: puzzles/puzzles.jsonl).
-- Each puzzle's Glicko-2 rating once someone has tried it (until then, the
-- generator's estimate of its difficulty); each solver's puzzle rating (an
-- account, `account:<id>`, or an anonymous browser's session, carried to
-- the account when it signs up or in); every solver's first try at a puzzle
-- (later tries change no rating).
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT    NOT NULL PRIMARY KEY,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    volatility DOUBLE PRECISION    NOT NULL,
    attempts   BIGINT NOT NULL,
    solved     BIGINT NOT NULL
);

CREATE TABLE puzzle_solvers (
    solver     TEXT    NOT NULL PRIMARY KEY,
    rating     DOUBLE PRECISION    NOT NULL,
    deviation  DOUBLE PRECISION    NOT NULL,
    volatility DOUBLE PRECISION    NOT NULL,
    attempts   BIGINT NOT NULL,
    solved     BIGINT NOT NULL,
    rated_at   BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
    solver        TEXT    NOT NULL,
    puzzle_id     TEXT    NOT NULL,
    solved        BIGINT NOT NULL,
    rated         BIGINT NOT NULL,
    at            BIGINT NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after  DOUBLE PRECISION,
    PRIMARY KEY (solver, puzzle_id)
);
CREATE INDEX puzzle_attempts_recent ON puzzle_attempts (solver, at);
