-- Berserk (arenas): a new command kind 'berserk' and, per tournament game,
-- whether each side's berserk counts an extra point (SQLite's 0022).
ALTER TABLE moves DROP CONSTRAINT moves_kind_check;
ALTER TABLE moves ADD CONSTRAINT moves_kind_check
    CHECK (kind IN ('place', 'pass', 'resign', 'vote', 'withdraw', 'timeout', 'abandon', 'flag', 'berserk'));

ALTER TABLE tournament_games ADD COLUMN black_berserk BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN white_berserk BIGINT NOT NULL DEFAULT 0;
