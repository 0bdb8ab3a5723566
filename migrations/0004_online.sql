-- Online tables: seat holders and when each left (for the grace period), and
-- two more command kinds: 'timeout' (a seat holder did not return in time) and
-- 'abandon' (both left). SQLite cannot alter a CHECK constraint, so `moves` is
-- rebuilt.
ALTER TABLE tables ADD COLUMN black_seat TEXT;
ALTER TABLE tables ADD COLUMN white_seat TEXT;
ALTER TABLE tables ADD COLUMN black_gone_since INTEGER;
ALTER TABLE tables ADD COLUMN white_gone_since INTEGER;

CREATE TABLE moves_new (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw', 'timeout', 'abandon')),
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square   INTEGER CHECK (square BETWEEN 0 AND 63),
    at       INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);
INSERT INTO moves_new SELECT table_id, seq, round, kind, side, square, at FROM moves;
DROP TABLE moves;
ALTER TABLE moves_new RENAME TO moves;
