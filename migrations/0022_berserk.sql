-- Berserk (arenas): a new command kind 'berserk' (a player halved their
-- clock before their first move) and, per tournament game, whether each
-- side's berserk counts an extra point (set when the game is scored).
-- SQLite cannot alter a CHECK constraint, so `moves` is rebuilt (as in 0011).
CREATE TABLE moves_new (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw', 'timeout', 'abandon', 'flag', 'berserk')),
    side     TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square   INTEGER CHECK (square BETWEEN 0 AND 63),
    at       INTEGER NOT NULL,
    time_ms  INTEGER CHECK (time_ms >= 0),
    PRIMARY KEY (table_id, seq)
);
INSERT INTO moves_new SELECT table_id, seq, round, kind, side, square, at, time_ms FROM moves;
DROP TABLE moves;
ALTER TABLE moves_new RENAME TO moves;

ALTER TABLE tournament_games ADD COLUMN black_berserk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN white_berserk INTEGER NOT NULL DEFAULT 0;
