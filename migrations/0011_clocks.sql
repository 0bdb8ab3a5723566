-- Online clocks (issue 20): a new command kind 'flag' (the side to move ran
-- out of time) and, with every placement of a timed table, the time the mover
-- used in milliseconds (`time_ms`, NULL for untimed tables and other kinds).
-- The time left on both clocks is rebuilt from these at a restart. SQLite
-- cannot alter a CHECK constraint, so `moves` is rebuilt.
CREATE TABLE moves_new (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw', 'timeout', 'abandon', 'flag')),
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square   INTEGER CHECK (square BETWEEN 0 AND 63),
    at       INTEGER NOT NULL,
    time_ms  INTEGER CHECK (time_ms >= 0),
    PRIMARY KEY (table_id, seq)
);
INSERT INTO moves_new SELECT table_id, seq, round, kind, side, square, at, NULL FROM moves;
DROP TABLE moves;
ALTER TABLE moves_new RENAME TO moves;
