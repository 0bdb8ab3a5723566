-- Which puzzles the site served each signed-in solver for rating (next, the
-- puzzle of the day, a streak): a try is rated only on such a puzzle, and
-- only on the solver's first answer (server/src/rating_gate.rs). A puzzle
-- opened by link or id is never written here. Rows older than the anonymous
-- data's 30 days are swept with it. SQLite's twin is
-- migrations/0026_puzzle_served.sql.
CREATE TABLE puzzle_served (
    solver    TEXT    NOT NULL,
    puzzle_id TEXT    NOT NULL,
    at        BIGINT  NOT NULL,
    PRIMARY KEY (solver, puzzle_id)
);
CREATE INDEX puzzle_served_at ON puzzle_served (at);
-- Anonymous solvers' ratings are no longer kept (only accounts are rated):
-- their tries stay, unrated, until swept.
DELETE FROM puzzle_solvers WHERE solver NOT LIKE 'account:%';
UPDATE puzzle_attempts SET rated = 0, rating_before = NULL, rating_after = NULL
    WHERE solver NOT LIKE 'account:%';
